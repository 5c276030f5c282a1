package lookout.engine.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Folding by subject, in the events' own time. */
class EventFoldTest {

    private final List<String> lines = new ArrayList<>();
    private final EventFold fold = new EventFold((level, m) -> lines.add(level + " " + m));
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static EngineEvent demoted(long ms) {
        return new EngineEvent.UpstreamDemoted(T0.plusMillis(ms), "192.0.2.53:53", "timeout",
                T0.plusMillis(ms + 30_000), ms > 0);
    }

    private List<String> at(Level level) {
        return lines.stream().filter(l -> l.startsWith(level.name())).toList();
    }

    @Test
    void aPersistentFailureIsOneWarningASummaryAMinuteAndOneRecovery() {
        // 3 minutes of a demotion every 50 ms: 3 600 events
        for (long ms = 0; ms < 180_000; ms += 50) {
            assertThat(fold.offer(demoted(ms))).isTrue();
        }
        assertThat(fold.failing()).isEqualTo(1);
        List<String> warnings = at(Level.WARNING);
        assertThat(warnings).hasSize(3);
        assertThat(warnings.get(0)).isEqualTo("WARNING upstream 192.0.2.53:53 failing: timeout (demoted until "
                + "2026-01-01T00:00:30Z)");
        assertThat(warnings.get(1)).isEqualTo("WARNING upstream 192.0.2.53:53 still failing: 1 200 timeouts in the last 60 s");
        assertThat(fold.offer(new EngineEvent.UpstreamRestored(T0.plusSeconds(200), "192.0.2.53:53", "NOERROR reply")))
                .isTrue();
        assertThat(at(Level.INFO)).containsExactly("INFO upstream 192.0.2.53:53 recovered after 3 min 20 s (3 600 failures)");
        assertThat(fold.failing()).isZero();
        // a restoration of something that was not failing is the caller's to show
        assertThat(fold.offer(new EngineEvent.UpstreamRestored(T0.plusSeconds(300), "192.0.2.53:53", "NOERROR reply")))
                .isFalse();
    }

    @Test
    void aMarkRunningOutIsNoRecoveryAndALongQuietSpellStartsAgain() {
        fold.offer(demoted(0));
        fold.offer(new EngineEvent.UpstreamRestored(T0.plusSeconds(30), "192.0.2.53:53", "mark expired"));
        assertThat(at(Level.INFO)).isEmpty();
        assertThat(at(Level.DEBUG)).singleElement().asString().contains("mark ran out");
        fold.offer(demoted(40_000)); // soon after: the same failure
        assertThat(at(Level.WARNING)).hasSize(1);
        fold.offer(new EngineEvent.UpstreamRestored(T0.plusSeconds(70), "192.0.2.53:53", "mark expired"));
        fold.offer(demoted(600_000)); // long after: a new failure
        assertThat(at(Level.WARNING)).hasSize(2);
        assertThat(at(Level.WARNING).get(1)).contains(" failing: timeout");
    }

    @Test
    void monitorsPoolsAndPvaServersFoldTooAndOtherEventsAreLeftAlone() {
        assertThat(fold.offer(new EngineEvent.MonitorStateChanged(T0, "127.0.0.2", "tcp", "UP", "DOWN"))).isTrue();
        assertThat(fold.offer(new EngineEvent.MonitorStateChanged(T0.plusSeconds(5), "127.0.0.2", "tcp", "DOWN", "UP")))
                .isTrue();
        assertThat(fold.offer(new EngineEvent.PoolFailover(T0, "www", "v4", true))).isTrue();
        assertThat(fold.offer(new EngineEvent.PvaServerLost(T0, "0a", "127.0.0.1:5075"))).isTrue();
        assertThat(fold.offer(new EngineEvent.PvaServerFound(T0.plusSeconds(9), "0a", "127.0.0.1:5075", "beacon")))
                .isTrue();
        assertThat(fold.offer(new EngineEvent.PvaServerFound(T0.plusSeconds(9), "0b", "127.0.0.1:6075", "beacon")))
                .isFalse();
        assertThat(fold.offer(new EngineEvent.EngineStarted(T0, 1))).isFalse();
        assertThat(at(Level.INFO)).containsExactly("INFO monitor 127.0.0.2/tcp recovered after 5 s (1 failure)",
                "INFO PVA server 127.0.0.1:5075 recovered after 9 s (1 failure)");
        assertThat(fold.failing()).isEqualTo(1); // the pool
    }
}
