package lookout.engine.dns.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one reader of wire names, on fixed bytes, hostile ones included (netty's DnsResponseTest loop). */
class WireNameTest {

    /** Collects labels as text. */
    private static final class Collect implements WireName.Labels {
        final List<String> labels = new ArrayList<>();

        @Override
        public boolean label(byte[] m, int offset, int length) {
            labels.add(new String(m, offset, length, java.nio.charset.StandardCharsets.ISO_8859_1));
            return true;
        }
    }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void followsPointersBackwardsAndReturnsTheOffsetAfterTheFirstOne() {
        // 0: "a.b." ; 5: "c" + pointer to 0 ; 9: next byte
        byte[] m = bytes(1, 'a', 1, 'b', 0, 1, 'c', 0xC0, 0, 0x55);
        Collect c = new Collect();
        assertThat(WireName.read(m, m.length, 5, true, c)).isEqualTo(9);
        assertThat(c.labels).containsExactly("c", "a", "b");
        assertThat(WireName.read(m, m.length, 0, true, new Collect())).isEqualTo(5);
        // the fast read follows no pointer
        assertThat(WireName.read(m, m.length, 5, false, new Collect())).isEqualTo(WireName.COMPRESSED);
    }

    @Test
    void refusesLoopsForwardPointersRetiredLabelTypesAndOverruns() {
        assertThat(WireName.read(bytes(0xC0, 0), 2, 0, true, new Collect())).isEqualTo(WireName.BAD_POINTER); // itself
        assertThat(WireName.read(bytes(0xC0, 2, 0), 3, 0, true, new Collect())).isEqualTo(WireName.BAD_POINTER); // forward
        // two pointers pointing at each other: the second points forward of the first's target
        assertThat(WireName.read(bytes(0xC0, 2, 0xC0, 0), 4, 2, true, new Collect())).isEqualTo(WireName.BAD_POINTER);
        assertThat(WireName.read(bytes(0xC0), 1, 0, true, new Collect())).isEqualTo(WireName.POINTER_CUT);
        assertThat(WireName.read(bytes(0x41, 'x', 0), 3, 0, true, new Collect())).isEqualTo(WireName.LABEL_TYPE);
        assertThat(WireName.read(bytes(3, 'a', 'b'), 3, 0, true, new Collect())).isEqualTo(WireName.LABEL_PAST);
        assertThat(WireName.read(bytes(1, 'a'), 2, 0, true, new Collect())).isEqualTo(WireName.RUNS_PAST);
        assertThat(WireName.read(bytes(1, 'a', 0), 2, 0, true, new Collect())).as("bounds, not the array").isEqualTo(WireName.RUNS_PAST);
    }

    @Test
    void aChainOfPointersEndsAt64Jumps() {
        // each pointer points at the one before it; the first at a root label
        byte[] m = new byte[1 + 2 * 70];
        for (int i = 0; i < 70; i++) {
            int at = 1 + 2 * i;
            m[at] = (byte) 0xC0;
            m[at + 1] = (byte) (i == 0 ? 0 : at - 2);
        }
        assertThat(WireName.read(m, m.length, 1 + 2 * 63, true, new Collect())).isEqualTo(1 + 2 * 63 + 2); // 64 jumps
        assertThat(WireName.read(m, m.length, 1 + 2 * 64, true, new Collect())).isEqualTo(WireName.BAD_POINTER); // 65
    }

    @Test
    void aNameHasAtMost255BytesWithItsRoot() {
        // four labels of 63 (256 bytes) and three of 63 plus one of 61 (254 + root = 255)
        byte[] ok = new byte[255];
        byte[] tooLong = new byte[257];
        for (byte[] m : new byte[][] {ok, tooLong}) {
            int p = 0;
            for (int i = 0; i < 4; i++) {
                int l = m == ok && i == 3 ? 61 : 63;
                m[p++] = (byte) l;
                for (int k = 0; k < l; k++) {
                    m[p++] = 'x';
                }
            }
        }
        assertThat(WireName.read(ok, ok.length, 0, true, new Collect())).isEqualTo(255);
        assertThat(WireName.read(tooLong, tooLong.length, 0, true, new Collect())).isEqualTo(WireName.TOO_LONG);
    }

    @Test
    void aSinkMayDecline() {
        byte[] m = bytes(1, 'a', 1, '.', 0);
        WireName.Labels noDots = (b, off, len) -> b[off] != '.';
        assertThat(WireName.read(m, m.length, 0, false, noDots)).isEqualTo(WireName.DECLINED);
        assertThat(WireName.problem(WireName.RUNS_PAST, "its bounds")).isEqualTo("name runs past its bounds");
    }
}
