package lookout.console.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RateHistoryTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void onePointPerElapsedSecondWithTheRateOverThatSpan() {
        RateHistory h = new RateHistory();
        h.sample(T0, 100);
        h.sample(T0.plusMillis(250), 110); // under a second: no point yet
        assertThat(h.size()).isZero();
        h.sample(T0.plusMillis(1000), 130);
        h.sample(T0.plusMillis(3000), 150);
        assertThat(h.size()).isEqualTo(2);
        assertThat(h.get(0)).isEqualTo(30.0);
        assertThat(h.get(1)).isEqualTo(10.0);
    }

    @Test
    void keepsTenMinutesOldestFirst() {
        RateHistory h = new RateHistory();
        for (int i = 0; i < RateHistory.POINTS + 5; i++) {
            h.add(i);
        }
        assertThat(h.size()).isEqualTo(RateHistory.POINTS);
        assertThat(h.get(0)).isEqualTo(5.0);
        assertThat(h.get(RateHistory.POINTS - 1)).isEqualTo(RateHistory.POINTS + 4.0);
    }

    @Test
    void aCounterThatGoesBackStartsAfresh() {
        RateHistory h = new RateHistory();
        h.sample(T0, 100);
        h.sample(T0.plusSeconds(1), 5);
        h.sample(T0.plusSeconds(2), 15);
        assertThat(h.size()).isEqualTo(1);
        assertThat(h.get(0)).isEqualTo(10.0);
    }
}
