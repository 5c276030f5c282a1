package lookout.engine.dns.listen;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.TcpFrames;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One client TCP connection without sockets: an {@link EmbeddedChannel} with the connection's
 * handler, the engine loop a {@link VirtualScheduler} (the idle timer in virtual time). Framing
 * (RFC 1035 §4.2.2), malformed frames, the RFC 7766 pipelining bound, the idle close and the
 * connection limit.
 */
class TcpConnectionTest {

    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.9", 40000);
    private final VirtualScheduler clock = new VirtualScheduler();
    private final UdpListenerTest.Resolver resolver = new UdpListenerTest.Resolver();
    private final Intake intake = new Intake(resolver, Wire.loopbackOnly());
    private final TcpListener listener = new TcpListener(clock, intake, null);
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        for (EmbeddedChannel c : channels) {
            c.finishAndReleaseAll();
        }
        clock.close();
    }

    private EmbeddedChannel connect(InetSocketAddress from) {
        EmbeddedChannel ch = new EmbeddedChannel(new TcpConnection(clock, intake, listener, from));
        channels.add(ch);
        clock.runPending(); // the connection is admitted on the engine loop
        return ch;
    }

    private static ByteBuf frames(byte[]... messages) {
        ByteBuf b = Unpooled.buffer();
        for (byte[] m : messages) {
            b.writeShort(m.length).writeBytes(m);
        }
        return b;
    }

    private static byte[] query(int id) {
        return Wire.query(id, "q" + id + ".example.", RrType.A, false, 0);
    }

    /** Answers question {@code i} the resolver was asked, on the engine loop. */
    private void answer(int i) {
        clock.call(() -> {
            resolver.replies.get(i).send(Responses.error(resolver.asked.get(i), RrType.SERVFAIL, -1, null));
            return null;
        });
    }

    /** The answers written so far, unframed. */
    private static List<byte[]> written(EmbeddedChannel ch) {
        TcpFrames.Reader r = new TcpFrames.Reader();
        List<byte[]> out = new ArrayList<>();
        for (ByteBuf b = ch.readOutbound(); b != null; b = ch.readOutbound()) {
            r.add(ch.alloc(), b);
            b.release();
            for (byte[] m = r.next(); m != null; m = r.next()) {
                out.add(m);
            }
        }
        assertThat(r.buffered()).as("whole frames only").isZero();
        r.release();
        return out;
    }

    @Test
    void framesAreReadWholeHoweverTheStreamIsCutAndAnswersAreFramed() {
        EmbeddedChannel ch = connect(CLIENT);
        assertThat(clock.call(listener::open)).isEqualTo(1);
        ByteBuf two = frames(query(1), query(2), query(3));
        int cut = two.readableBytes() - 7; // the third frame split across two reads
        ch.writeInbound(two.readRetainedSlice(cut));
        clock.runPending();
        assertThat(resolver.asked).extracting(q -> q.id).containsExactly(1, 2);
        ch.writeInbound(two);
        clock.runPending();
        assertThat(resolver.asked).extracting(q -> q.id).containsExactly(1, 2, 3);
        assertThat(resolver.asked).allSatisfy(q -> assertThat(q.tcp).isTrue());
        assertThat(resolver.clients).extracting(String::valueOf).containsOnly("127.0.0.9:40000/tcp");
        // answered in the order they are ready, each in a frame of its own
        answer(2);
        answer(0);
        assertThat(written(ch)).extracting(m -> Wire.decode(m).id).containsExactly(3, 1);
        assertThat(clock.call(intake::malformed)).isZero();
    }

    @Test
    void aFrameShorterThanAHeaderIsCountedMalformedAndTheConnectionGoesOn() {
        EmbeddedChannel ch = connect(CLIENT);
        ch.writeInbound(frames(new byte[5], new byte[0], query(7)));
        clock.runPending();
        assertThat(clock.call(intake::malformed)).isEqualTo(2);
        assertThat(resolver.asked).extracting(q -> q.id).containsExactly(7);
        // a query cut short inside its frame: FORMERR, framed, and counted too
        byte[] cutShort = java.util.Arrays.copyOf(query(8), 16);
        ch.writeInbound(frames(cutShort));
        clock.runPending();
        assertThat(written(ch)).singleElement().satisfies(m -> {
            assertThat(Wire.id(m)).isEqualTo(8);
            assertThat(Wire.rcode(m)).isEqualTo(RrType.FORMERR);
        });
        assertThat(clock.call(intake::malformed)).isEqualTo(3);
        assertThat(ch.isOpen()).isTrue();
    }

    @Test
    void atMost64QuestionsAreUnansweredAndReadingPausesUntilAnswersGoOut() {
        EmbeddedChannel ch = connect(CLIENT);
        int n = TcpConnection.MAX_PIPELINE + 6;
        byte[][] queries = new byte[n][];
        for (int i = 0; i < n; i++) {
            queries[i] = query(i);
        }
        ch.writeInbound(frames(queries));
        clock.runPending();
        assertThat(resolver.asked).hasSize(TcpConnection.MAX_PIPELINE);
        assertThat(ch.config().isAutoRead()).as("reading paused").isFalse();
        answer(0);
        assertThat(resolver.asked).hasSize(TcpConnection.MAX_PIPELINE + 1);
        assertThat(ch.config().isAutoRead()).isFalse();
        for (int i = 1; i <= 5; i++) {
            answer(i);
        }
        // every waiting query asked: reading goes on
        assertThat(resolver.asked).hasSize(n);
        assertThat(ch.config().isAutoRead()).isTrue();
        assertThat(written(ch)).hasSize(6);
    }

    @Test
    void anIdleConnectionIsClosedAfter30SecondsAndEachQueryOrAnswerRestartsTheClock() {
        EmbeddedChannel ch = connect(CLIENT);
        clock.advance(Duration.ofSeconds(20));
        ch.writeInbound(frames(query(1)));
        clock.runPending();
        clock.advance(Duration.ofSeconds(20));
        answer(0); // at 40 s: the clock starts again
        clock.advance(Duration.ofMillis(29_999));
        assertThat(ch.isOpen()).isTrue();
        clock.advance(Duration.ofMillis(1));
        ch.runPendingTasks();
        assertThat(ch.isOpen()).isFalse();
        assertThat(clock.call(listener::open)).isZero();
    }

    @Test
    void aClientOutsideTheAllowListAndOneBeyondTheLimitAreClosedAtOnce() {
        EmbeddedChannel outside = connect(new InetSocketAddress("192.0.2.9", 40000));
        outside.runPendingTasks();
        assertThat(outside.isOpen()).isFalse();
        assertThat(clock.call(intake::denied)).isEqualTo(1);
        for (int i = 0; i < TcpListener.MAX_CLIENTS; i++) {
            connect(new InetSocketAddress("127.0.0.1", 1024 + i));
        }
        assertThat(clock.call(listener::open)).isEqualTo(TcpListener.MAX_CLIENTS);
        EmbeddedChannel beyond = connect(CLIENT);
        beyond.runPendingTasks();
        assertThat(beyond.isOpen()).isFalse();
        assertThat(clock.call(listener::rejected)).isEqualTo(1);
        assertThat(clock.call(listener::open)).isEqualTo(TcpListener.MAX_CLIENTS);
        // one closes: a place for the next
        channels.get(1).close();
        clock.runPending();
        assertThat(clock.call(listener::open)).isEqualTo(TcpListener.MAX_CLIENTS - 1);
        assertThat(connect(CLIENT).isOpen()).isTrue();
        assertThat(clock.call(listener::open)).isEqualTo(TcpListener.MAX_CLIENTS);
    }

    /** The limits as configured (resolver.tcp_clients, tcp_pipeline, tcp_idle_timeout), counted when they bite. */
    @Test
    void configuredLimitsAreKeptAndCounted() {
        clock.call(() -> {
            listener.limits(3, 4, 5);
            return null;
        });
        EmbeddedChannel ch = connect(CLIENT);
        byte[][] queries = new byte[10][];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = query(i);
        }
        ch.writeInbound(frames(queries));
        clock.runPending();
        assertThat(resolver.asked).as("tcp_pipeline => 4").hasSize(4);
        assertThat(ch.config().isAutoRead()).isFalse();
        answer(0);
        assertThat(resolver.asked).hasSize(5);
        // tcp_clients => 3: the fourth connection is closed at once and counted
        connect(new InetSocketAddress("127.0.0.1", 2001));
        connect(new InetSocketAddress("127.0.0.1", 2002));
        EmbeddedChannel fourth = connect(new InetSocketAddress("127.0.0.1", 2003));
        fourth.runPendingTasks();
        assertThat(fourth.isOpen()).isFalse();
        assertThat(clock.call(listener::rejected)).isEqualTo(1);
        assertThat(clock.call(listener::open)).isEqualTo(3);
        // tcp_idle_timeout => 5: 5 s after the last answer, every connection is closed, and counted
        clock.advance(Duration.ofMillis(4_999));
        assertThat(ch.isOpen()).isTrue();
        clock.advance(Duration.ofMillis(1));
        for (EmbeddedChannel c : channels) {
            c.runPendingTasks();
        }
        assertThat(ch.isOpen()).isFalse();
        assertThat(clock.call(listener::closedIdleCount)).isEqualTo(3);
        assertThat(clock.call(listener::open)).isZero();
    }

    @Test
    void aBrokenStreamIsCountedAndClosesThisConnectionOnly() {
        EmbeddedChannel broken = connect(CLIENT);
        EmbeddedChannel other = connect(new InetSocketAddress("127.0.0.1", 40001));
        broken.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
        clock.runPending();
        broken.runPendingTasks();
        assertThat(broken.isOpen()).isFalse();
        assertThat(clock.call(intake::malformed)).isEqualTo(1);
        assertThat(other.isOpen()).isTrue();
        other.writeInbound(frames(query(9)));
        clock.runPending();
        assertThat(resolver.asked).extracting(q -> q.id).containsExactly(9);
    }
}
