package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BeaconScheduleTest {

    private static List<Long> firstSends(long start, int count) {
        BeaconSchedule s = new BeaconSchedule(start);
        List<Long> at = new ArrayList<>();
        long now = start;
        for (int i = 0; i < count; i++) {
            assertThat(s.isDue(now)).isTrue();
            assertThat(s.isDue(now - 1)).isFalse();
            at.add(TimeUnit.NANOSECONDS.toSeconds(now - start));
            now += s.sent(now);
        }
        return at;
    }

    @Test
    void tenAtFifteenSecondsThenEvery180() {
        // seed 002 §4/§9: 15 s for the first ten, then 180 s
        assertThat(firstSends(0, 13)).containsExactly(0L, 15L, 30L, 45L, 60L, 75L, 90L, 105L, 120L, 135L,
                315L, 495L, 675L);
    }

    @Test
    void scheduleHoldsAtExtremeClocks() {
        assertThat(firstSends(Long.MAX_VALUE - TimeUnit.SECONDS.toNanos(20), 13))
                .isEqualTo(firstSends(0, 13));
        assertThat(firstSends(Long.MIN_VALUE, 13)).isEqualTo(firstSends(0, 13));
    }
}
