package lookout.engine.dns.listen;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.api.EngineEvent;
import lookout.engine.config.ZoneConfig;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import lookout.engine.net.NetError;
import lookout.engine.net.IdleUdpEndpoint;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The UDP listener without sockets: a recording {@link UdpEndpoint}, datagrams fed to the listener
 * as byte arrays, the engine loop a {@link VirtualScheduler}. The first socket's fast path runs
 * where its reader is the engine loop — here, datagrams delivered from inside {@code clock.call}.
 */
class UdpListenerTest {

    static final String ZONE = """
            $TTL 300
            @      SOA  ns1 hostmaster 1 7200 1800 604800 300
            @      NS   ns1
            ns1    A    127.0.0.1
            www    A    198.51.100.7
            www    A    198.51.100.8
            """;

    private final VirtualScheduler clock = new VirtualScheduler();
    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final Resolver resolver = new Resolver();
    private final Intake intake = new Intake(resolver, Wire.loopbackOnly());
    private volatile LoopView view = view(ZONE, false);
    private final FakeEndpoint endpoint = new FakeEndpoint();
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.9", 5353);
    private static final InetSocketAddress OUTSIDE = new InetSocketAddress("192.0.2.9", 5353);
    private static final InetAddress ASKED;

    static {
        try {
            ASKED = InetAddress.getByName("10.9.0.1");
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void close() {
        clock.close();
    }

    static LoopView view(String zone, boolean search) {
        return new LoopView(new LocalZones(Map.of("pool.test.", new ZoneConfig("pool.test.", "pool.test.zone", zone, 1))),
                Wire.loopbackOnly(), search);
    }

    private UdpListener listener(UdpListener.Reader reader) {
        return new UdpListener(clock, () -> view, null, intake, reader, events::add);
    }

    /** Questions the intake admitted, with where their answers go; answered by the test. */
    static final class Resolver implements Intake.Questions {
        final List<ClientQuery> asked = new ArrayList<>();
        final List<Reply> replies = new ArrayList<>();
        final List<Object> clients = new ArrayList<>();

        @Override
        public void ask(ClientQuery q, Reply reply, Object client) {
            asked.add(q);
            replies.add(reply);
            clients.add(client);
        }
    }

    /** One datagram sent by the listener. */
    record Sent(byte[] data, InetSocketAddress to, InetAddress from, boolean reply, int together) {
    }

    /** Records what is sent; {@link #deliver} plays the reader thread. */
    static final class FakeEndpoint extends IdleUdpEndpoint {
        final List<Sent> sent = new CopyOnWriteArrayList<>();
        volatile InetSocketAddress current;
        volatile int together;
        volatile int blocks;

        FakeEndpoint() {
            super(new InetSocketAddress("0.0.0.0", 53));
        }

        void deliver(UdpListener l, byte[] d, InetSocketAddress sender, InetAddress destination) {
            // the endpoint reuses its array: the listener must copy what it keeps
            byte[] scratch = Arrays.copyOf(d, 4096);
            current = sender;
            try {
                l.datagram(this, scratch, d.length, sender, destination, false);
            } finally {
                current = null;
                Arrays.fill(scratch, (byte) 0x5A);
            }
        }

        @Override
        public boolean knowsDestination() {
            return true;
        }

        @Override
        public boolean choosesSource() {
            return true;
        }

        @Override
        public boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from) {
            sent.add(new Sent(Arrays.copyOfRange(data, offset, offset + length), to, from, false, together));
            return true;
        }

        @Override
        public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
            throw new AssertionError("the listener sends arrays");
        }

        @Override
        public boolean reply(byte[] data, int offset, int length) {
            assertThat(current).as("reply() only while a datagram is delivered").isNotNull();
            sent.add(new Sent(Arrays.copyOfRange(data, offset, offset + length), current, null, true, together));
            return true;
        }

        @Override
        public void sendTogether(Runnable work) {
            together++;
            try {
                work.run();
            } finally {
                together--;
                blocks++;
            }
        }

        @Override
        public boolean onReaderThread() {
            return current != null;
        }

    }

    @Test
    void underTheVirtualClockTheFirstSocketAnswersLocalQuestionsOnTheLoopAndRemembersThem() {
        UdpListener l = listener(UdpListener.Reader.ENGINE_LOOP);
        clock.call(() -> {
            endpoint.deliver(l, Wire.query(1, "www.pool.test.", RrType.A, true, 1232), CLIENT, null);
            endpoint.deliver(l, Wire.query(2, "WWW.Pool.Test.", RrType.A, true, 1232), CLIENT, null);
            l.burstEnd(endpoint);
            return null;
        });
        assertThat(endpoint.sent).hasSize(2).allSatisfy(s -> {
            assertThat(s.reply()).as("answered to the datagram being read").isTrue();
            assertThat(s.to()).isEqualTo(CLIENT);
        });
        Message first = Wire.decode(endpoint.sent.get(0).data());
        assertThat(first.id).isEqualTo(1);
        assertThat((first.flags & Message.AA) != 0).isTrue();
        assertThat(first.answer).extracting(rr -> rr.rdata()[3]).containsExactly((byte) 7, (byte) 8);
        assertThat(first.edns).isTrue();
        // the second from the memo: the same bytes but for the ID and the client's spelling (0x20)
        byte[] again = endpoint.sent.get(1).data();
        assertThat(Wire.id(again)).isEqualTo(2);
        assertThat(new String(again, 12, 15, java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo("\3WWW\4Pool\4Test\0");
        assertThat(Arrays.copyOfRange(again, 2, again.length)).isEqualTo(withSpelling(endpoint.sent.get(0).data(), again));
        assertThat(l.answered()).isEqualTo(2);
        assertThat(l.recentAnswers()).hasSize(2).anySatisfy(t -> assertThat(t.decoded()).as("from the memo").isNull())
                .anySatisfy(t -> assertThat(t.decoded()).as("decoded").isNotNull())
                .allSatisfy(t -> assertThat(t.a().rcode).isEqualTo(RrType.NOERROR));
        assertThat(resolver.asked).isEmpty();
        assertThat(l.fastErrors()).isZero();
    }

    /** {@code first} from byte 2 on, with the question's spelling taken from {@code spelled}. */
    private static byte[] withSpelling(byte[] first, byte[] spelled) {
        byte[] b = Arrays.copyOfRange(first, 2, first.length);
        System.arraycopy(spelled, 12, b, 10, 15);
        return b;
    }

    @Test
    void offTheEngineLoopTheFirstSocketHandsItsBurstToTheEngineLoopInOneTask() {
        UdpListener l = listener(UdpListener.Reader.ENGINE_LOOP);
        // delivered on the test thread: the reader is not the engine loop, so nothing is answered here
        endpoint.deliver(l, Wire.query(1, "www.pool.test.", RrType.A, false, 0), CLIENT, ASKED);
        endpoint.deliver(l, Wire.query(2, "host.example.org.", RrType.A, false, 0), CLIENT, ASKED);
        assertThat(endpoint.sent).isEmpty();
        clock.runPending();
        assertThat(resolver.asked).as("nothing handed before the burst ends").isEmpty();
        l.burstEnd(endpoint);
        clock.runPending();
        assertThat(resolver.asked).extracting(q -> q.qname).containsExactly("www.pool.test.", "host.example.org.");
        assertThat(resolver.clients).extracting(String::valueOf).containsOnly("127.0.0.9:5353/udp");
        assertThat(l.answered()).isZero();
        // answered later (an upstream reply): through the same endpoint, from the address asked
        clock.call(() -> {
            resolver.replies.get(1).send(new byte[] {0, 2, (byte) 0x81, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0});
            return null;
        });
        assertThat(endpoint.sent).singleElement().satisfies(s -> {
            assertThat(s.to()).isEqualTo(CLIENT);
            assertThat(s.from()).isEqualTo(ASKED);
            assertThat(s.reply()).isFalse();
        });
    }

    @Test
    void aReaderOfItsOwnAnswersLocallyAndHandsTheRestAnsweredTogether() {
        UdpListener l = listener(UdpListener.Reader.OWN_THREAD);
        byte[] status = Wire.query(3, "www.pool.test.", RrType.A, false, 0);
        status[2] |= (byte) (2 << 3); // opcode STATUS
        endpoint.deliver(l, Wire.query(1, "www.pool.test.", RrType.A, false, 0), CLIENT, ASKED);
        endpoint.deliver(l, Wire.query(2, "host.example.org.", RrType.A, false, 0), CLIENT, ASKED);
        endpoint.deliver(l, status, CLIENT, ASKED);
        endpoint.deliver(l, Wire.query(4, "www.pool.test.", RrType.A, false, 0), OUTSIDE, ASKED);
        endpoint.deliver(l, new byte[] {0, 5, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 'w'}, CLIENT, ASKED);
        endpoint.deliver(l, new byte[] {0, 6, 1}, CLIENT, ASKED);
        // the local one at once, on the reader, to the datagram being read
        assertThat(endpoint.sent).singleElement().satisfies(s -> {
            assertThat(s.reply()).isTrue();
            assertThat(Wire.id(s.data())).isEqualTo(1);
        });
        l.burstEnd(endpoint);
        clock.runPending();
        // the rest in one engine-loop task, inside one sendTogether block, from the address asked
        assertThat(endpoint.blocks).isEqualTo(1);
        List<Sent> handed = endpoint.sent.subList(1, endpoint.sent.size());
        assertThat(handed).allSatisfy(s -> {
            assertThat(s.together()).isEqualTo(1);
            assertThat(s.from()).isEqualTo(ASKED);
            assertThat(s.reply()).isFalse();
        });
        assertThat(handed).extracting(s -> Wire.id(s.data()) + ":" + RrType.rcodeName(Wire.rcode(s.data())))
                .containsExactly("3:NOTIMP", "4:REFUSED", "5:FORMERR");
        assertThat(handed.get(1).to()).isEqualTo(OUTSIDE);
        assertThat(resolver.asked).extracting(q -> q.qname).containsExactly("host.example.org.");
        assertThat(clock.call(intake::malformed)).isEqualTo(2);
        assertThat(clock.call(intake::denied)).isEqualTo(1);
        assertThat(l.answered()).isEqualTo(1);
        assertThat(l.ownThread()).isTrue();
    }

    @Test
    void singleLabelsUnderASearchListAndSyntheticNamesAreTheResolversAndAReloadIsSeenAtOnce() {
        UdpListener l = listener(UdpListener.Reader.OWN_THREAD);
        view = view(ZONE.replace("198.51.100.7", "198.51.100.77"), true);
        endpoint.deliver(l, Wire.query(1, "pool.test.", RrType.SOA, false, 0), CLIENT, null); // two labels: here
        endpoint.deliver(l, Wire.query(2, "test.", RrType.A, false, 0), CLIENT, null); // one label, search on
        endpoint.deliver(l, Wire.query(3, "localhost.", RrType.A, false, 0), CLIENT, null);
        endpoint.deliver(l, Wire.query(4, "www.pool.test.", RrType.A, false, 0), CLIENT, null);
        l.burstEnd(endpoint);
        clock.runPending();
        assertThat(resolver.asked).extracting(q -> q.qname).containsExactly("test.", "localhost.");
        assertThat(endpoint.sent).extracting(s -> Wire.id(s.data())).containsExactly(1, 4);
        assertThat(Wire.decode(endpoint.sent.get(1).data()).answer).extracting(rr -> rr.rdata()[3])
                .containsExactly((byte) 77, (byte) 8);
        // a new view: the memo of the old one is not used
        view = view(ZONE, false);
        endpoint.deliver(l, Wire.query(5, "www.pool.test.", RrType.A, false, 0), CLIENT, null);
        assertThat(Wire.decode(endpoint.sent.get(2).data()).answer).extracting(rr -> rr.rdata()[3])
                .containsExactly((byte) 7, (byte) 8);
    }

    @Test
    void aQueryLongerThanTheFastReadIsAnsweredDecodedAndAnAnswerTooBigForTheClientIsCut() {
        StringBuilder zone = new StringBuilder(ZONE);
        for (int i = 0; i < 12; i++) {
            zone.append("big TXT \"").append(String.valueOf((char) ('a' + i)).repeat(60)).append("\"\n");
        }
        view = view(zone.toString(), false);
        UdpListener l = listener(UdpListener.Reader.OWN_THREAD);
        // EDNS with a 1 100-byte padding option (RFC 7830): beyond what the fast read takes
        byte[] q = Wire.query(1, "www.pool.test.", RrType.A, true, 1232);
        byte[] padded = Arrays.copyOf(q, q.length + 4 + 1100);
        padded[q.length - 2] = (byte) ((4 + 1100) >>> 8);
        padded[q.length - 1] = (byte) (4 + 1100);
        padded[q.length + 1] = 12; // option 12, padding
        padded[q.length + 2] = (byte) (1100 >>> 8);
        padded[q.length + 3] = (byte) 1100;
        endpoint.deliver(l, padded, CLIENT, null);
        for (int i = 0; i < 2; i++) { // decoded, then from the memo
            endpoint.deliver(l, Wire.query(2 + i, "big.pool.test.", RrType.TXT, false, 0), CLIENT, null);
        }
        assertThat(endpoint.sent).hasSize(3);
        assertThat(Wire.decode(endpoint.sent.get(0).data()).answer).hasSize(2);
        for (Sent s : endpoint.sent.subList(1, 3)) {
            assertThat(s.data().length).isLessThanOrEqualTo(512);
            assertThat(s.data()[2] & 0x02).as("TC").isNotZero();
        }
        assertThat(l.answered()).isEqualTo(3);
        assertThat(resolver.asked).isEmpty();
    }

    @Test
    void theEndOfAReaderIsSaidOnTheConsoleAndAPassingReceiveErrorIsNot() {
        UdpListener l = listener(UdpListener.Reader.OWN_THREAD);
        l.receiveFailed(endpoint, new NetError(NetError.ENOBUFS, "No buffer space available", null));
        clock.runPending();
        assertThat(events).isEmpty();
        l.receiveFailed(endpoint, new NetError(0, "the reader ended", new IllegalStateException("boom")));
        clock.runPending();
        assertThat(events).singleElement().isInstanceOfSatisfying(EngineEvent.Notice.class, n -> {
            assertThat(n.severity()).isEqualTo(lookout.engine.api.Severity.ERROR);
            assertThat(n.message()).contains("0.0.0.0:53").contains("unanswered").doesNotContain("Exception");
        });
    }
}
