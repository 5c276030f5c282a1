package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * seed 004: an upstream that answers every query with a valid header and question and a corrupt
 * additional section. CoreDNS retried it in a loop until its deadline; Lookout fails the attempt
 * like SERVFAIL and stops after three.
 */
class Seed004Test {

    @TempDir
    Path tmp;

    @Test
    void corruptReplyFromTheOnlyUpstreamIsServfailAfterExactlyThreeQueries() throws Exception {
        try (FakeUpstream broken = new FakeUpstream((q, t) -> FakeUpstream.corruptAdditional(q));
             ResolverHarness h = new ResolverHarness(tmp, 40, oneScope(broken.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "n.example.", RrType.AAAA, true, 1232));
            byte[] r = c.receive(10_000);
            assertThat(r).isNotNull();
            Message m = DnsTestClient.decode(r);
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(broken.count()).isEqualTo(3);
            // nothing more is sent: not in virtual time past every deadline, not in real time
            h.advance(Duration.ofSeconds(10));
            assertThat(c.receive(300)).isNull();
            assertThat(broken.count()).isEqualTo(3);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.upstreamFailed().get("malformed")).isEqualTo(3);
            assertThat(s.demotions()).isEqualTo(3);
            assertThat(s.unavailable()).isEqualTo(1);
            assertThat(s.cacheEntries()).isZero();
            assertThat(s.recentTraces()).isNotEmpty();
            assertThat(s.recentTraces().get(s.recentTraces().size() - 1).attempts())
                    .hasSize(3).allSatisfy(a -> assertThat(a.result()).startsWith("malformed"));
        }
    }

    @Test
    void withASecondHealthyUpstreamTheClientGetsTheHealthyAnswer() throws Exception {
        try (FakeUpstream broken = new FakeUpstream((q, t) -> FakeUpstream.corruptAdditional(q));
             FakeUpstream healthy = new FakeUpstream((q, t) -> FakeUpstream.a(q, 77));
             ResolverHarness h = new ResolverHarness(tmp, 41, oneScope(broken.address, healthy.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "n.example.", RrType.A, false, 0));
            Message m = DnsTestClient.decode(c.receive(10_000));
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(m.answer).hasSize(1);
            assertThat(m.answer.get(0).rdata()[3]).isEqualTo((byte) 77);
            assertThat(broken.count()).isEqualTo(1);
            assertThat(healthy.count()).isEqualTo(1);
            // the next question starts at the healthy one: the broken one is demoted
            c.send(DnsTestClient.query(2, "m.example.", RrType.A, false, 0));
            assertThat(DnsTestClient.decode(c.receive(10_000)).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(broken.count()).isEqualTo(1);
            assertThat(healthy.count()).isEqualTo(2);
        }
    }
}
