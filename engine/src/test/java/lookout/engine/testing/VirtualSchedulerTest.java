package lookout.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VirtualSchedulerTest {

    private final VirtualScheduler clock = new VirtualScheduler();

    @AfterEach
    void close() {
        clock.close();
    }

    @Test
    void timersFireOnlyWhenTimeIsAdvancedAndInDueOrder() {
        List<String> fired = new ArrayList<>();
        clock.schedule(() -> fired.add("b@2s"), 2, TimeUnit.SECONDS);
        clock.schedule(() -> fired.add("a@1s"), 1, TimeUnit.SECONDS);
        clock.schedule(() -> fired.add("c@2s"), 2, TimeUnit.SECONDS);

        clock.advance(Duration.ofMillis(999));
        assertThat(clock.call(() -> List.copyOf(fired))).isEmpty();

        clock.advance(Duration.ofMillis(1));
        assertThat(clock.call(() -> List.copyOf(fired))).containsExactly("a@1s");

        clock.advance(Duration.ofSeconds(5));
        assertThat(clock.call(() -> List.copyOf(fired))).containsExactly("a@1s", "b@2s", "c@2s");
    }

    @Test
    void aTimerSeesItsOwnDueTimeAsNow() {
        long start = clock.nanoTime();
        long[] seen = new long[1];
        clock.schedule(() -> seen[0] = clock.nanoTime(), 30, TimeUnit.SECONDS);
        clock.advance(Duration.ofMinutes(1));
        assertThat(seen[0] - start).isEqualTo(TimeUnit.SECONDS.toNanos(30));
        assertThat(clock.nanoTime() - start).isEqualTo(TimeUnit.MINUTES.toNanos(1));
        assertThat(Duration.between(Instant0.EPOCH, clock.now())).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void periodicTimerSurvivesAFailingRunAndStopsWhenCancelled() {
        int[] runs = new int[1];
        Scheduler.Cancellable c = clock.scheduleAtFixedRate(() -> {
            runs[0]++;
            if (runs[0] == 2) {
                throw new IllegalStateException("boom");
            }
        }, 1, 1, TimeUnit.SECONDS);
        clock.advance(Duration.ofSeconds(5));
        assertThat(clock.call(() -> runs[0])).isEqualTo(5);
        c.cancel();
        clock.advance(Duration.ofSeconds(5));
        assertThat(clock.call(() -> runs[0])).isEqualTo(5);
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void timersScheduledByTimersFireInTheSameAdvance() {
        List<Long> at = new ArrayList<>();
        long start = clock.nanoTime();
        clock.schedule(() -> {
            at.add(clock.nanoTime() - start);
            clock.schedule(() -> at.add(clock.nanoTime() - start), 10, TimeUnit.MILLISECONDS);
        }, 1, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(1010));
        assertThat(clock.call(() -> List.copyOf(at))).containsExactly(1_000_000_000L, 1_010_000_000L);
    }

    /**
     * Nanosecond clocks wrap (Scheduler: only differences are meaningful), so due times compare by
     * difference: a clock started 1.5 s before {@code Long.MAX_VALUE} runs its timers in due order,
     * each once, across the wrap.
     */
    @Test
    void timersFireOnceEachAndInDueOrderAcrossTheWrapOfTheClock() {
        long start = Long.MAX_VALUE - 1_500_000_000L;
        try (VirtualScheduler wrapping = new VirtualScheduler(Instant0.EPOCH, start)) {
            List<String> fired = new ArrayList<>();
            int[] ticks = new int[1];
            wrapping.schedule(() -> fired.add("c@3s"), 3, TimeUnit.SECONDS);
            wrapping.schedule(() -> fired.add("a@1s"), 1, TimeUnit.SECONDS);
            wrapping.schedule(() -> fired.add("b@2s"), 2, TimeUnit.SECONDS); // due past the wrap
            wrapping.scheduleAtFixedRate(() -> ticks[0]++, 1, 1, TimeUnit.SECONDS);

            wrapping.advance(Duration.ofMillis(1999));
            assertThat(wrapping.call(() -> List.copyOf(fired))).containsExactly("a@1s");
            assertThat(wrapping.call(() -> ticks[0])).isEqualTo(1);
            assertThat(wrapping.nanoTime()).isEqualTo(start + 1_999_000_000L).isNegative();

            wrapping.advance(Duration.ofSeconds(2));
            assertThat(wrapping.call(() -> List.copyOf(fired))).containsExactly("a@1s", "b@2s", "c@3s");
            assertThat(wrapping.call(() -> ticks[0])).isEqualTo(3);
            assertThat(wrapping.nanoTime() - start).isEqualTo(3_999_000_000L);
        }
    }

    @Test
    void tasksRunOnTheLoopThreadAndAdvanceFromTheLoopIsRefused() {
        assertThat(clock.inLoop()).isFalse();
        assertThat(clock.call(clock::inLoop)).isTrue();
        assertThatThrownBy(() -> clock.call(() -> {
            clock.advance(Duration.ofSeconds(1));
            return null;
        })).hasMessageContaining("deadlock");
    }

    /** The default virtual epoch. */
    private static final class Instant0 {
        static final java.time.Instant EPOCH = java.time.Instant.parse("2026-01-01T00:00:00Z");
    }
}
