package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resolver's own events folded at the source: by state per upstream address, not one per failure. */
class DemotionEventsTest {

    @TempDir
    Path tmp;

    static final InetSocketAddress A = new InetSocketAddress("192.0.2.53", 53);
    static final InetSocketAddress B = new InetSocketAddress("192.0.2.54", 53);
    static final long S = 1_000_000_000L;

    @Test
    void oneDemotionASummaryAMinuteAndOneRestoration() {
        List<EngineEvent> out = new ArrayList<>();
        DemotionEvents fold = new DemotionEvents(out::add, () -> Instant.EPOCH);
        // a failure every second for five minutes, the first starting the mark
        fold.demoted(A, "timeout", "no matching reply within 2 s", false, 0);
        for (int t = 1; t <= 300; t++) {
            fold.demoted(A, t % 10 == 0 ? "rcode" : "timeout", "x", true, t * S);
        }
        fold.restored(A, "NOERROR reply");
        assertThat(out).hasSize(1 + 5 + 1);
        assertThat(out.get(0)).isInstanceOfSatisfying(EngineEvent.UpstreamDemoted.class, d -> {
            assertThat(d.address()).isEqualTo("192.0.2.53:53");
            assertThat(d.reason()).isEqualTo("timeout: no matching reply within 2 s");
            assertThat(d.until()).isEqualTo(Instant.EPOCH.plusSeconds(30));
            assertThat(d.renewed()).isFalse();
        });
        for (int i = 1; i <= 5; i++) {
            EngineEvent.UpstreamStillFailing f = (EngineEvent.UpstreamStillFailing) out.get(i);
            assertThat(f.window()).isEqualTo(Duration.ofSeconds(60));
            assertThat(f.counts()).containsEntry("timeout", 54L).containsEntry("rcode", 6L);
            assertThat(f.severity()).isEqualTo(lookout.engine.api.Severity.WARNING);
            assertThat(f.message()).isEqualTo("upstream 192.0.2.53:53 still failing: 54 timeout, 6 rcode in the last 60 s");
        }
        assertThat(out.get(6)).isInstanceOfSatisfying(EngineEvent.UpstreamRestored.class,
                r -> assertThat(r.how()).isEqualTo("NOERROR reply"));
        assertThat(fold.demotedCount()).isZero();
    }

    @Test
    void aNewMarkAfterTheLastOneEndedIsANewEpisodeAndAddressesAreApart() {
        List<EngineEvent> out = new ArrayList<>();
        DemotionEvents fold = new DemotionEvents(out::add, () -> Instant.EPOCH);
        fold.demoted(A, "timeout", null, false, 0);
        fold.demoted(B, "rcode", "SERVFAIL", false, 0);
        fold.restored(A, "mark expired");
        fold.demoted(A, "timeout", null, false, 40 * S);
        assertThat(out).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("UpstreamDemoted", "UpstreamDemoted", "UpstreamRestored", "UpstreamDemoted");
        // a reload that drops B forgets it without an event
        fold.retainOnly(Set.of(A));
        assertThat(fold.demotedCount()).isEqualTo(1);
        assertThat(out).hasSize(4);
    }

    /**
     * One dead upstream, 2 000 questions in 10 s (virtual time): every attempt times out, 6 000
     * demotions counted exactly, and a handful of events about it — not one per failure.
     */
    @Test
    void aDeadUpstreamUnderLoadIsAFewEventsAndExactCounts() throws Exception {
        InetSocketAddress dead = new InetSocketAddress("127.0.0.1", 9);
        try (ResolverHarness h = new ResolverHarness(tmp, 70, oneScope(dead))) {
            InFlightCeilingTest.Blackhole hole = new InFlightCeilingTest.Blackhole();
            h.onLoop(() -> {
                h.service.useSockets(hole);
                return null;
            });
            for (int tick = 0; tick < 100; tick++) { // 20 questions every 100 ms for 10 s
                int base = tick * 20;
                h.onLoop(() -> {
                    for (int i = 0; i < 20; i++) {
                        h.resolver().question(ClientQuery.local("q" + (base + i) + ".example.", RrType.A), r -> { }, "test", null);
                    }
                    return null;
                });
                h.advance(Duration.ofMillis(100));
            }
            h.advance(Duration.ofSeconds(7)); // the last ones' third attempts time out
            ResolverSnapshot s = h.snapshot();
            assertThat(s.unavailable()).isEqualTo(2000);
            assertThat(s.upstreamFailed().get("timeout")).isEqualTo(6000);
            assertThat(s.demotions()).isEqualTo(6000);
            assertThat(hole.opened).hasSize(6000);
            h.advance(Duration.ofSeconds(31)); // the mark runs out
            List<EngineEvent> about = h.events.stream().filter(e -> e.message().contains("127.0.0.1:9")).toList();
            assertThat(about).hasSizeBetween(2, 10);
            assertThat(about.get(0)).isInstanceOf(EngineEvent.UpstreamDemoted.class);
            assertThat(about.get(about.size() - 1)).isInstanceOfSatisfying(EngineEvent.UpstreamRestored.class,
                    r -> assertThat(r.how()).isEqualTo("mark expired"));
            assertThat(h.demoted(dead)).isFalse();
        }
    }
}
