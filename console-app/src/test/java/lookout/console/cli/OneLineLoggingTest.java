package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;

class OneLineLoggingTest {

    @Test
    void oneLinePerRecordInUtc() {
        LogRecord r = new LogRecord(Level.WARNING, "upstream {0} demoted");
        r.setParameters(new Object[] {"192.0.2.53"});
        r.setLoggerName("lookout.resolver");
        r.setInstant(Instant.parse("2026-11-29T15:04:05.123Z"));
        assertThat(new OneLineLogging.OneLineFormatter().format(r))
                .isEqualTo("2026-11-29T15:04:05.123Z WARNING lookout.resolver: upstream 192.0.2.53 demoted\n");
    }

    @Test
    void aBlockedOutputNeverBlocksTheLoggerAndLossIsCounted() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<String> out = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler stuck = new java.util.logging.Handler() {
            @Override
            public void publish(LogRecord r) {
                try {
                    release.await(); // an output nobody reads
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                out.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        OneLineLogging.AsyncHandler h = new OneLineLogging.AsyncHandler(stuck, 4);
        long t0 = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            h.publish(new LogRecord(Level.INFO, "r" + i));
        }
        // 100 publishes against a blocked output return at once (bounded generously for CI).
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0)).isLessThan(java.time.Duration.ofSeconds(5));
        release.countDown();
        h.drain(java.time.Duration.ofSeconds(10));
        h.publish(new LogRecord(Level.INFO, "after"));
        h.drain(java.time.Duration.ofSeconds(10));
        // The queue holds four and the writer one more if it took a record while the loop ran
        // (r0 taken after r4 and r5 were dropped lets a later one in): the first four are
        // r0..r3, what is kept is written in publish order, then one note for the rest, then
        // "after".
        int kept = out.size() - 2;
        assertThat(kept).isBetween(4, 5);
        java.util.List<Integer> order = out.subList(0, kept).stream()
                .map(line -> Integer.parseInt(line.substring(1))).toList();
        assertThat(order.subList(0, 4)).containsExactly(0, 1, 2, 3);
        assertThat(order).isSorted();
        assertThat(out.get(kept)).isEqualTo((100 - kept) + " log records dropped: the log output did not keep up");
        assertThat(out.get(kept + 1)).isEqualTo("after");
        h.close();
    }

    @Test
    void levelsInTheOperatorsWords() {
        assertThat(OneLineLogging.levelName(Level.SEVERE)).isEqualTo("ERROR");
        assertThat(OneLineLogging.levelName(Level.FINE)).isEqualTo("DEBUG");
        assertThat(OneLineLogging.levelName(Level.FINEST)).isEqualTo("TRACE");
        assertThat(OneLineLogging.julLevel(Invocation.LogLevel.DEBUG)).isEqualTo(Level.FINE);
    }

    @Test
    void eventsAreDescribedWithoutTheirTimeAndAbnormalOnesWarn() {
        EngineEvent demoted = new EngineEvent.UpstreamDemoted(Instant.EPOCH, "192.0.2.53", "timeout",
                Instant.EPOCH.plusSeconds(30), false);
        assertThat(Headless.describe(demoted)).isEqualTo(
                "UpstreamDemoted address=192.0.2.53 reason=timeout until=1970-01-01T00:00:30Z renewed=false");
        assertThat(Headless.level(demoted)).isEqualTo(Level.WARNING);
        EngineEvent applied = new EngineEvent.ConfigApplied(Instant.EPOCH, 2, "ab", List.of("~ a: 1 -> 2"));
        assertThat(Headless.level(applied)).isEqualTo(Level.INFO);
        EngineEvent n = new EngineEvent.Notice(Instant.EPOCH, Subsystem.PVA_CLIENT, Severity.ERROR, "send failed");
        assertThat(Headless.describe(n)).isEqualTo("pva_client: send failed");
        assertThat(Headless.level(n)).isEqualTo(Level.SEVERE);
    }
}
