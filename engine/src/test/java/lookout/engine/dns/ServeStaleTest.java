package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 8767 serve-stale, opt-in ({@code resolver.serve_stale => SECONDS}), in virtual time: off by
 * default (seed 000's "unavailable" stands); on, an expired positive answer younger than the limit
 * is given — TTL 30, EDE 3 (Stale Answer) — once the third attempt has failed, and counted; never
 * past the limit, never an expired NXDOMAIN.
 */
class ServeStaleTest {

    @TempDir
    Path tmp;

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Answers (A 192.0.2.5, TTL 300; NXDOMAIN for nx.*, negative TTL 60) until killed, then silence. */
    private static FakeUpstream upstream(AtomicBoolean alive) throws Exception {
        return new FakeUpstream((q, t) -> !alive.get() ? null
                : q.qname.startsWith("nx.") ? FakeUpstream.nxdomain(q) : FakeUpstream.a(q, 5));
    }

    /** The RFC 8914 INFO-CODE in {@code r}'s OPT record, or -1 without one. */
    static int ede(byte[] r) {
        int p = skipName(r, 12) + 4;
        int records = u16(r, 6) + u16(r, 8) + u16(r, 10);
        for (int i = 0; i < records; i++) {
            p = skipName(r, p);
            int type = u16(r, p);
            int rdlength = u16(r, p + 8);
            int rdata = p + 10;
            if (type == RrType.OPT) {
                for (int o = rdata; o + 4 <= rdata + rdlength; o += 4 + u16(r, o + 2)) {
                    if (u16(r, o) == 15) {
                        return u16(r, o + 4);
                    }
                }
            }
            p = rdata + rdlength;
        }
        return -1;
    }

    private static int u16(byte[] r, int at) {
        return ((r[at] & 0xFF) << 8) | (r[at + 1] & 0xFF);
    }

    private static int skipName(byte[] r, int p) {
        while (true) {
            int len = r[p] & 0xFF;
            if (len == 0) {
                return p + 1;
            }
            if ((len & 0xC0) == 0xC0) {
                return p + 2;
            }
            p += 1 + len;
        }
    }

    /** Asks {@code name} with EDNS; the upstream is dead, so three 2-s timeouts go by before the answer. */
    private static byte[] askThroughThreeTimeouts(ResolverHarness h, FakeUpstream up, DnsTestClient c, String name)
            throws Exception {
        int before = up.count();
        c.send(DnsTestClient.query(77, name, RrType.A, true, 1232));
        for (int attempt = 1; attempt <= 3; attempt++) {
            int n = before + attempt;
            await().atMost(WAIT).until(() -> up.count() >= n);
            if (attempt < 3) {
                assertThat(c.receive(50)).as("nothing before the third attempt fails").isNull();
            }
            h.advance(Duration.ofSeconds(2));
        }
        byte[] r = c.receive(10_000);
        assertThat(r).as("an answer after the third attempt").isNotNull();
        assertThat(up.count()).isEqualTo(before + 3);
        return r;
    }

    private void warm(ResolverHarness h, DnsTestClient c, String name, int rcode) throws Exception {
        c.send(DnsTestClient.query(1, name, RrType.A, true, 1232));
        assertThat(DnsTestClient.decode(c.receive(10_000)).rcode()).isEqualTo(rcode);
    }

    @Test
    void offByDefaultAnExpiredAnswerIsNotGiven() throws Exception {
        AtomicBoolean alive = new AtomicBoolean(true);
        try (FakeUpstream up = upstream(alive);
             ResolverHarness h = new ResolverHarness(tmp, 60, oneScope(up.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            assertThat(h.onLoop(() -> h.resolver().config.serveStale())).isZero();
            warm(h, c, "www.example.", RrType.NOERROR);
            h.advance(Duration.ofSeconds(301));
            alive.set(false);
            byte[] r = askThroughThreeTimeouts(h, up, c, "www.example.");
            assertThat(DnsTestClient.decode(r).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(ede(r)).as("No Reachable Authority").isEqualTo(22);
            assertThat(h.snapshot().staleAnswers()).isZero();
        }
    }

    @Test
    void onAnExpiredPositiveAnswerGoesOutWithTtl30AndEde3AfterTheThirdFailedAttempt() throws Exception {
        AtomicBoolean alive = new AtomicBoolean(true);
        try (FakeUpstream up = upstream(alive);
             ResolverHarness h = new ResolverHarness(tmp, 61, oneScope(up.address).withServeStale(3600));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            warm(h, c, "www.example.", RrType.NOERROR);
            // fresh while the TTL runs: the cache answers, no attempt
            h.advance(Duration.ofSeconds(100));
            alive.set(false);
            warm(h, c, "www.example.", RrType.NOERROR);
            assertThat(up.count()).isEqualTo(1);
            // 100 s past its TTL, the upstream dead: three attempts, then the stale answer
            h.advance(Duration.ofSeconds(300));
            byte[] r = askThroughThreeTimeouts(h, up, c, "www.example.");
            Message m = DnsTestClient.decode(r);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(m.answer).singleElement().satisfies(rr -> {
                assertThat(rr.type()).isEqualTo(RrType.A);
                assertThat(rr.ttl()).isEqualTo(30);
                assertThat(rr.rdata()).containsExactly(192, 0, 2, 5);
            });
            assertThat(ede(r)).as("RFC 8914 Stale Answer").isEqualTo(3);
            assertThat(h.snapshot().staleAnswers()).isEqualTo(1);
            assertThat(h.snapshot().unavailable()).isZero();
            assertThat(h.engine.snapshot().metrics()).anySatisfy(x -> {
                assertThat(x.name()).isEqualTo("lookout_resolver_stale_answers_total");
                assertThat(x.value()).isEqualTo(1.0);
            });
            assertThat(h.snapshot().recentTraces()).last().satisfies(t -> assertThat(t.source()).isEqualTo("stale"));
        }
    }

    @Test
    void neverPastTheLimitNorForAnExpiredNxdomain() throws Exception {
        AtomicBoolean alive = new AtomicBoolean(true);
        try (FakeUpstream up = upstream(alive);
             ResolverHarness h = new ResolverHarness(tmp, 62, oneScope(up.address).withServeStale(60));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            warm(h, c, "old.example.", RrType.NOERROR); // TTL 300
            warm(h, c, "nx.example.", RrType.NXDOMAIN); // negative TTL 60
            alive.set(false);
            // t = 90: the NXDOMAIN expired 36 s before the third attempt failed, within the limit: not served
            h.advance(Duration.ofSeconds(90));
            byte[] nx = askThroughThreeTimeouts(h, up, c, "nx.example.");
            assertThat(DnsTestClient.decode(nx).rcode()).isEqualTo(RrType.SERVFAIL);
            // t = 344: the positive answer 50 s past its TTL when the third attempt fails: served
            h.advance(Duration.ofSeconds(344 - 96));
            byte[] within = askThroughThreeTimeouts(h, up, c, "old.example.");
            assertThat(DnsTestClient.decode(within).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(ede(within)).isEqualTo(3);
            // t = 355: 61 s past it, beyond the 60-s limit: unavailable
            h.advance(Duration.ofSeconds(5));
            byte[] past = askThroughThreeTimeouts(h, up, c, "old.example.");
            assertThat(DnsTestClient.decode(past).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(ede(past)).isEqualTo(22);
            assertThat(h.snapshot().staleAnswers()).isEqualTo(1);
            assertThat(h.snapshot().unavailable()).isEqualTo(2);
        }
    }
}
