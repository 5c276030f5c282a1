package lookout.engine.pva.beacon;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import lookout.engine.pva.wire.Guid;
import org.junit.jupiter.api.Test;

class ServerTableTest {

    static final long S = TimeUnit.SECONDS.toNanos(1);
    static final Guid G1 = Guid.parse("000000000000000000000001");
    static final Guid G2 = Guid.parse("000000000000000000000002");

    static ServerTable.Key key(int i) {
        return new ServerTable.Key(InetSocketAddress.createUnresolved("10.0." + (i >> 8) + "." + (i & 255), 5075), "tcp");
    }

    static final InetSocketAddress SENDER = InetSocketAddress.createUnresolved("10.0.0.1", 5076);

    @Test
    void createRefreshExpire() {
        for (long t0 : new long[] {Long.MIN_VALUE / 2, 0, Long.MAX_VALUE / 2}) {
            ServerTable t = new ServerTable();
            assertThat(t.observe(key(1), G1, 2, SENDER, ServerTable.Via.BEACON, t0).outcome())
                    .isEqualTo(ServerTable.Outcome.NEW);
            ServerTable.Observation o = t.observe(key(1), G1, 2, SENDER, ServerTable.Via.BEACON, t0 + 15 * S);
            assertThat(o.outcome()).isEqualTo(ServerTable.Outcome.REFRESHED);
            assertThat(o.entry().beacons()).isEqualTo(2);
            assertThat(o.entry().observedPeriod()).isEqualTo(15 * S);
            assertThat(o.entry().firstSeen()).isEqualTo(t0);
            t.observe(key(1), G1, 2, SENDER, ServerTable.Via.DISCOVERY, t0 + 20 * S);
            assertThat(t.get(key(1)).discoveryReplies()).isEqualTo(1);
            assertThat(t.get(key(1)).beacons()).isEqualTo(2);
            // 360 s after the last word it is still there; after that it is lost
            assertThat(t.expire(t0 + 380 * S)).isEmpty();
            assertThat(t.expire(t0 + 380 * S + 1)).extracting(ServerTable.Entry::key).containsExactly(key(1));
            assertThat(t.size()).isZero();
        }
    }

    @Test
    void guidOrVersionChangeIsARestart() {
        ServerTable t = new ServerTable();
        t.observe(key(1), G1, 2, SENDER, ServerTable.Via.BEACON, 0);
        ServerTable.Observation o = t.observe(key(1), G2, 2, SENDER, ServerTable.Via.BEACON, S);
        assertThat(o.outcome()).isEqualTo(ServerTable.Outcome.RESTARTED);
        assertThat(o.previousGuid()).isEqualTo(G1);
        assertThat(o.entry().guid()).isEqualTo(G2);
        assertThat(o.entry().restarts()).isEqualTo(1);
        assertThat(t.observe(key(1), G2, 3, SENDER, ServerTable.Via.BEACON, 2 * S).outcome())
                .isEqualTo(ServerTable.Outcome.RESTARTED);
        // a different protocol on the same endpoint is another server
        assertThat(t.observe(new ServerTable.Key(key(1).endpoint(), "tls"), G2, 3, SENDER,
                ServerTable.Via.BEACON, 3 * S).outcome()).isEqualTo(ServerTable.Outcome.NEW);
    }

    @Test
    void theTwentyThousandAndFirstIsRefused() {
        ServerTable t = new ServerTable();
        for (int i = 0; i < 20_000; i++) {
            assertThat(t.observe(key(i), G1, 2, SENDER, ServerTable.Via.BEACON, 0).outcome())
                    .isEqualTo(ServerTable.Outcome.NEW);
        }
        ServerTable.Observation o = t.observe(key(20_000), G1, 2, SENDER, ServerTable.Via.BEACON, 0);
        assertThat(o.outcome()).isEqualTo(ServerTable.Outcome.REFUSED);
        assertThat(t.refused()).isEqualTo(1);
        assertThat(t.size()).isEqualTo(20_000);
        // known servers are still tracked
        assertThat(t.observe(key(5), G1, 2, SENDER, ServerTable.Via.BEACON, S).outcome())
                .isEqualTo(ServerTable.Outcome.REFRESHED);
    }
}
