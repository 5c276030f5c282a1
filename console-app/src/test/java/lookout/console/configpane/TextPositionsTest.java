package lookout.console.configpane;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextPositionsTest {

    private static final String TEXT = "abc\nde\n\nfghij";

    @Test
    void lineAndColumnAreOneBased() {
        assertThat(TextPositions.indexOf(TEXT, 1, 1)).isZero();
        assertThat(TextPositions.indexOf(TEXT, 2, 2)).isEqualTo(5);
        assertThat(TextPositions.indexOf(TEXT, 4, 3)).isEqualTo(10);
        assertThat(TEXT.charAt(TextPositions.indexOf(TEXT, 4, 3))).isEqualTo('h');
    }

    @Test
    void positionsPastTheEndAreClamped() {
        assertThat(TextPositions.indexOf(TEXT, 2, 99)).isEqualTo(6); // end of "de"
        assertThat(TextPositions.indexOf(TEXT, 99, 1)).isEqualTo(TEXT.length());
        assertThat(TextPositions.indexOf(TEXT, 3, 1)).isEqualTo(7); // the empty line
    }

    @Test
    void roundTrip() {
        for (int i = 0; i <= TEXT.length(); i++) {
            int[] lc = TextPositions.lineColumnOf(TEXT, i);
            assertThat(TextPositions.indexOf(TEXT, lc[0], lc[1])).as("index %d", i).isEqualTo(i);
        }
    }
}
