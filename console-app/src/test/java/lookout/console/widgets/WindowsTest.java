package lookout.console.widgets;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

/** Issue 17 item 2: the window's bounds from the screen and the saved layout, never 200 × 200. */
class WindowsTest {

    static final Rectangle2D SIDE_MONITOR = new Rectangle2D(0, 0, 1280, 800);

    @Test
    void withoutASavedLayoutTheWindowTakesMostOfTheScreenAndAtLeastAThousandBySevenHundred() {
        Windows.Bounds b = Windows.choose(SIDE_MONITOR, null);
        assertThat(b.width()).isEqualTo(1152);
        assertThat(b.height()).isEqualTo(760);
        assertThat(b.x()).isEqualTo(64);
        assertThat(b.y()).isEqualTo(20);
        Windows.Bounds big = Windows.choose(new Rectangle2D(0, 0, 3840, 2160), null);
        assertThat(big.width()).isEqualTo(1400);
        assertThat(big.height()).isEqualTo(900);
        Windows.Bounds small = Windows.choose(new Rectangle2D(0, 0, 900, 600), null);
        assertThat(small.width()).isEqualTo(900);
        assertThat(small.height()).isEqualTo(600);
    }

    @Test
    void aSavedLayoutIsUsedClampedToTheScreenAndIgnoredWhenOffIt() {
        Windows.Bounds saved = new Windows.Bounds(100, 50, 1111, 733, false);
        assertThat(Windows.choose(SIDE_MONITOR, saved)).isEqualTo(saved);
        Windows.Bounds tooBig = Windows.choose(SIDE_MONITOR, new Windows.Bounds(600, 300, 2000, 1000, true));
        assertThat(tooBig).isEqualTo(new Windows.Bounds(0, 0, 1280, 800, true));
        Windows.Bounds gone = Windows.choose(SIDE_MONITOR, new Windows.Bounds(5000, 3000, 1111, 733, false));
        assertThat(gone.width()).isEqualTo(1152); // the monitor it was on is not there: the default
        Windows.Bounds damaged = Windows.choose(SIDE_MONITOR, new Windows.Bounds(0, 0, 200 - 1, 100, false));
        assertThat(damaged.width()).isEqualTo(1152);
    }
}
