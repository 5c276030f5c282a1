package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import lookout.engine.api.PvaServerSnapshot.SearchedName;
import org.junit.jupiter.api.Test;

/** The most-searched table: exact while it fits, bounded and cheap under a flood of one-off names. */
class TopNamesTest {

    private static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 5076);
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.2", 5076);

    @Test
    void countsAreExactWhileTheTableHasRoom() {
        TopNames t = new TopNames(16);
        for (int i = 0; i < 5; i++) {
            t.searched("pump:speed", A, i);
        }
        t.searched("pump:speed", B, 10);
        t.searched("valve:open", A, 11);
        List<SearchedName> top = t.top(10, 20, Instant.EPOCH);
        assertThat(top).extracting(SearchedName::name).containsExactly("pump:speed", "valve:open");
        assertThat(top.get(0).count()).isEqualTo(6);
        assertThat(top.get(0).lastClient()).isEqualTo("127.0.0.2:5076");
        assertThat(top.get(1).count()).isEqualTo(1);
        assertThat(t.admitEvery()).isEqualTo(1);
    }

    @Test
    void aFloodOfOneOffNamesStaysBoundedKeepsTheSteadyNameOnTopAndThrottlesAdmission() {
        TopNames t = new TopNames(64);
        long now = 0;
        int steady = 0;
        for (int i = 0; i < 200_000; i++) {
            if (i % 10 == 0) {
                t.searched("steady:pv", A, now++);
                steady++;
            } else {
                t.searched("flood:" + i, B, now++);
            }
            assertThat(t.size()).isLessThanOrEqualTo(64);
        }
        assertThat(t.admitEvery()).isGreaterThan(1).isLessThanOrEqualTo(64);
        List<SearchedName> top = t.top(1, now, Instant.EPOCH);
        assertThat(top.get(0).name()).isEqualTo("steady:pv");
        assertThat(top.get(0).count()).isBetween(1L, (long) steady);

        // the flood over: after 4 × capacity × stride searches without a decay, every new name counts again
        long window = 4L * 64 * t.admitEvery();
        for (int i = 0; i < window + 1; i++) {
            t.searched("steady:pv", A, now++);
        }
        assertThat(t.admitEvery()).isEqualTo(1);
        t.searched("newcomer:pv", A, now++);
        assertThat(t.top(100, now, Instant.EPOCH)).extracting(SearchedName::name).contains("newcomer:pv");
    }

    /**
     * A steady flood drawn from far more names than the table holds (the responder benchmark's
     * load: every search a miss) settles at the widest stride and stays there, so only one miss in
     * 64 makes an entry; the table stays bounded.
     */
    @Test
    void aSteadyFloodSettlesAtTheWidestStride() {
        TopNames t = new TopNames(64);
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        int widest = 0;
        for (int i = 0; i < 400_000; i++) {
            t.searched("flood:" + random.nextInt(100_000), B, i);
            assertThat(t.size()).isLessThanOrEqualTo(64);
            if (i >= 300_000) {
                widest += t.admitEvery() == 64 ? 1 : 0;
            }
        }
        assertThat(widest).as("searches of the last 100 000 at stride 64").isEqualTo(100_000);
    }
}
