package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.listen.TcpConnection;
import lookout.engine.dns.upstream.FailureKind;
import lookout.engine.dns.upstream.NettyUpstreamSockets;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** seed 000 §4.6.5: the 4 096 in-flight ceiling and its exact accounting. */
class InFlightCeilingTest {

    @TempDir
    Path tmp;

    /** Sockets that never answer; the test fails their transactions by hand. */
    static final class Blackhole implements UpstreamSockets {
        final List<Listener> opened = new ArrayList<>();
        int closed;

        @Override
        public Handle udp(InetSocketAddress server, byte[] query, Listener listener) {
            opened.add(listener);
            return () -> closed++;
        }

        @Override
        public Handle tcp(InetSocketAddress server, byte[] query, Listener listener) {
            return udp(server, query, listener);
        }
    }

    /**
     * RFC 7766 pipelining with a bound: one TCP connection has at most
     * {@value TcpConnection#MAX_PIPELINE} questions unanswered; the rest wait unread and are
     * asked as answers go out (here: SERVFAIL after three 2-s attempts, in virtual time).
     */
    @Test
    void oneTcpConnectionHasAtMost64QuestionsUnansweredAndTheRestWait() throws Exception {
        int n = 150;
        int limit = TcpConnection.MAX_PIPELINE;
        try (ResolverHarness h = new ResolverHarness(tmp, 50, oneScope(new InetSocketAddress("127.0.0.1", 9)));
             java.net.Socket s = new java.net.Socket()) {
            Blackhole hole = new Blackhole();
            h.onLoop(() -> {
                h.service.useSockets(hole);
                return null;
            });
            s.connect(h.listen, 5_000);
            s.setSoTimeout(10_000);
            java.io.DataOutputStream out = new java.io.DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream()));
            for (int i = 0; i < n; i++) {
                byte[] q = DnsTestClient.query(i, "p" + i + ".example.", RrType.A, false, 0);
                out.writeShort(q.length);
                out.write(q);
            }
            out.flush();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (h.snapshot().queries() < limit && System.nanoTime() < deadline) {
                h.onLoop(() -> null); // the reads hop onto the (virtual) engine loop
            }
            for (int k = 0; k < 20; k++) {
                h.onLoop(() -> null);
            }
            ResolverSnapshot first = h.snapshot();
            assertThat(first.queries()).isEqualTo(limit);
            assertThat(first.inFlight()).isEqualTo(limit);
            // each question: three attempts of 2 s, then SERVFAIL; then the next ones are asked
            java.util.Set<Integer> ids = new java.util.HashSet<>();
            java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
            for (int round = 0; round < 10 && ids.size() < n; round++) {
                h.advance(java.time.Duration.ofSeconds(2));
                ResolverSnapshot now = h.snapshot();
                assertThat(now.inFlight()).isLessThanOrEqualTo(limit);
                assertThat(now.queries() - now.unavailable()).as("unanswered after %d s", 2 * (round + 1))
                        .isLessThanOrEqualTo(limit);
                int answered = (int) now.unavailable();
                while (ids.size() < answered) {
                    Message m = DnsTestClient.decode(in.readNBytes(in.readUnsignedShort()));
                    assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
                    ids.add(m.id);
                }
            }
            assertThat(ids).hasSize(n);
            assertThat(h.snapshot().queries()).isEqualTo(n);
        }
    }

    @Test
    void the4097thQuestionIsRefusedWhileRetriesCacheHitsAndLocalhostStillGo() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.a(q, 5));
             ResolverHarness h = new ResolverHarness(tmp, 50, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            // one answer in the cache first, over real sockets
            c.send(DnsTestClient.query(1, "cached.example.", RrType.A, false, 0));
            assertThat(DnsTestClient.decode(c.receive(10_000)).rcode()).isEqualTo(RrType.NOERROR);

            Blackhole hole = new Blackhole();
            h.onLoop(() -> {
                h.service.useSockets(hole);
                for (int i = 0; i < Resolver.IN_FLIGHT_CEILING; i++) {
                    h.resolver().question(ClientQuery.local("q" + i + ".example.", RrType.A), r -> { }, "test", null);
                }
                return null;
            });
            assertThat(h.snapshot().inFlight()).isEqualTo(4096);

            // the 4 097th: unavailable at once, counted as refused, SERVFAIL with an extended error
            c.send(DnsTestClient.query(2, "extra.example.", RrType.A, true, 1232));
            Message m = DnsTestClient.decode(c.receive(10_000));
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(m.edns).isTrue();
            ResolverSnapshot s = h.snapshot();
            assertThat(s.refused()).isEqualTo(1);
            assertThat(s.unavailable()).isEqualTo(1);
            assertThat(hole.opened).hasSize(4096);

            // cache hits and synthetic names answer whatever the count
            c.send(DnsTestClient.query(3, "cached.example.", RrType.A, false, 0));
            assertThat(DnsTestClient.decode(c.receive(10_000)).rcode()).isEqualTo(RrType.NOERROR);
            c.send(DnsTestClient.query(4, "localhost.", RrType.A, false, 0));
            Message lh = DnsTestClient.decode(c.receive(10_000));
            assertThat(lh.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(lh.answer.get(0).rdata()).containsExactly(127, 0, 0, 1);

            // a retry reuses its own slot: the failed transaction is removed before the retry checks
            h.onLoop(() -> {
                hole.opened.get(0).failed(new IOException("Connection refused"), FailureKind.SEND_ERROR);
                return null;
            });
            s = h.snapshot();
            assertThat(hole.opened).hasSize(4097);
            assertThat(s.refused()).isEqualTo(1);
            assertThat(s.inFlight()).isEqualTo(4096);

            // exhausting the budget at capacity is unavailable, not a capacity refusal
            h.onLoop(() -> {
                hole.opened.get(4096).failed(new IOException("Connection refused"), FailureKind.SEND_ERROR);
                hole.opened.get(4097).failed(new IOException("Connection refused"), FailureKind.SEND_ERROR);
                return null;
            });
            s = h.snapshot();
            assertThat(hole.opened).hasSize(4098);
            assertThat(s.refused()).isEqualTo(1);
            assertThat(s.unavailable()).isEqualTo(2);
            assertThat(s.inFlight()).isEqualTo(4095);

            // with a slot free, a new question goes out again
            h.onLoop(() -> {
                h.service.useSockets(new NettyUpstreamSockets(h.engine == null ? null : ioOf(h)));
                return null;
            });
            c.send(DnsTestClient.query(5, "later.example.", RrType.A, false, 0));
            assertThat(DnsTestClient.decode(c.receive(10_000)).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(h.snapshot().refused()).isEqualTo(1);
        }
    }

    private static io.netty.channel.EventLoopGroup ioOf(ResolverHarness h) {
        return ((lookout.engine.core.DefaultEngine) h.engine).io();
    }
}
