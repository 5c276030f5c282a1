package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sliding counter window at extreme clocks (caffeine's TimerWheelTest habit). */
class CounterWindowTest {

    static final long S = 1_000_000_000L;

    @ParameterizedTest
    @ValueSource(longs = {0L, Long.MAX_VALUE - 30 * 1_000_000_000L, Long.MIN_VALUE, -1L})
    void growthOverTheLastMinuteFromBoundedSamples(long t0) {
        CounterWindow w = new CounterWindow(60 * S, S);
        assertThat(w.observe(t0, 100)).isZero();
        assertThat(w.observe(t0 + 250_000_000L, 105)).isEqualTo(5); // between steps: no new sample
        for (int i = 1; i <= 600; i++) {
            w.observe(t0 + i * S / 4, 105 + i);
        }
        // 150 s later: only the last minute counts (4 per second)
        assertThat(w.observe(t0 + 150 * S, 705)).isBetween(236L, 244L);
        assertThat(w.size()).isLessThanOrEqualTo(62);
        assertThat(w.observe(t0 + 400 * S, 705)).isZero();
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, Long.MAX_VALUE})
    void aCounterThatGoesDownStartsAgain(long t0) {
        CounterWindow w = new CounterWindow(60 * S, S);
        w.observe(t0, 50);
        assertThat(w.observe(t0 + 2 * S, 3)).isZero();
        assertThat(w.observe(t0 + 4 * S, 7)).isEqualTo(4);
    }
}
