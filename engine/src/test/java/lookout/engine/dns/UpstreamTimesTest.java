package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.config;
import static lookout.engine.dns.ResolverHarness.scope;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's "last success / last failure" per upstream: engine times (virtual), per address. */
class UpstreamTimesTest {

    @TempDir
    Path tmp;

    @Test
    void lastSuccessAndLastFailureAreTheEngineTimesOfTheAttemptsThatEndedSo() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> q.qname.startsWith("bad.")
                ? FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()) : FakeUpstream.a(q, 1));
             ResolverHarness h = new ResolverHarness(tmp, 93, config(List.of(scope("lan", List.of(), true, a.address)),
                     List.of(), List.of()));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            assertThat(h.snapshot().upstreams()).isEmpty();

            Instant okAt = h.clock.now();
            assertThat(c.ask("ok.example.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
            ResolverSnapshot.Upstream u = h.snapshot().upstreams().get(0);
            assertThat(u.lastSuccess()).isEqualTo(okAt);
            assertThat(u.lastFailure()).isNull();

            h.advance(Duration.ofSeconds(7));
            Instant badAt = h.clock.now();
            assertThat(c.ask("bad.example.", RrType.A).rcode()).isEqualTo(RrType.SERVFAIL);
            u = h.snapshot().upstreams().get(0);
            assertThat(u.lastFailure()).isEqualTo(badAt);
            assertThat(u.lastSuccess()).as("unchanged by the failure").isEqualTo(okAt);
            assertThat(u.failed()).isPositive();
        }
    }
}
