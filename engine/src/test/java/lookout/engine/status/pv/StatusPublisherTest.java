package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.pva.pvserve.HostedPv;
import lookout.engine.pva.pvserve.PvHost;
import lookout.engine.pva.pvserve.PvServeLimits;
import lookout.engine.status.pv.StatusModel.Reading;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;

/**
 * When a status PV posts (issue 15): on a change of its value or alarm, never more than the
 * caller's tick (four a second), and a heartbeat after 10 s of quiet that moves only the time
 * stamp.
 */
class StatusPublisherTest {

    static final long MS = 1_000_000L;

    private static List<Reading> readings(int demoted, int severity) {
        List<Reading> r = new ArrayList<>(new StatusModel().read(StatusModelTest.snapshot(
                StatusModelTest.resolver(0, 0, StatusModelTest.scope("corp", false, false)), StatusModelTest.pools(false),
                StatusModelTest.pva(0, 0), List.of(), null), 0, 0));
        r.set(StatusPvCatalog.ALL.indexOf(StatusPvCatalog.SERVERS_DEMOTED),
                severity == 0 ? Reading.of(demoted) : Reading.alarm(demoted, severity, "x"));
        return r;
    }

    @Test
    void postsOnChangeAndHeartbeatsAfterTenSecondsOfQuiet() {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            PvHost host = new PvHost(clock, PvServeLimits.DEFAULT);
            Instant t = Instant.parse("2026-01-01T00:00:00Z");
            long[] posts = clock.call(() -> {
                StatusPublisher p = new StatusPublisher(host, "P:", readings(0, 0), t, 0, 512);
                HostedPv pv = host.pv("P:resolver:servers_demoted");
                HostedPv version = host.pv("P:config:version");
                long[] out = new long[6];
                for (long now = 250 * MS; now < 9_000 * MS; now += 250 * MS) {
                    p.update(readings(0, 0), t, now); // nothing changes
                }
                out[0] = pv.posts();
                p.update(readings(1, StatusPvCatalog.MINOR), t, 9_000 * MS);
                out[1] = pv.posts();
                assertThat(((Object[]) pv.value()[1])[0]).isEqualTo(StatusPvCatalog.MINOR);
                p.update(readings(1, StatusPvCatalog.MINOR), t, 9_250 * MS);
                out[2] = pv.posts();
                p.update(readings(1, StatusPvCatalog.MINOR), t, 10_000 * MS); // config:version quiet for 10 s
                out[3] = version.posts();
                p.update(readings(0, 0), t, 10_250 * MS);
                out[4] = pv.posts();
                out[5] = (Integer) ((Object[]) pv.value()[1])[0];
                assertThat(host.published()).hasSize(StatusPvCatalog.ALL.size());
                p.withdraw();
                assertThat(host.published()).isEmpty();
                return out;
            });
            assertThat(posts[0]).isZero();
            assertThat(posts[1]).isEqualTo(1);
            assertThat(posts[2]).isEqualTo(1);
            assertThat(posts[3]).isEqualTo(1);
            assertThat(posts[4]).isEqualTo(2);
            assertThat(posts[5]).isZero(); // back to NO_ALARM
        }
    }
}
