package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.pva.beacon.ServerTable;
import lookout.engine.pva.wire.Guid;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Claims that follow their server's life, in virtual time: a server that beacons is believed on its
 * beacons; one that does not is connected to every check interval, and its names search again
 * from the cursor when that fails (§3.6).
 */
class ClaimChecksTest {

    static final Guid G = Guid.parse("0102030405060708090a0b0c");
    static final InetSocketAddress QUIET = new InetSocketAddress(InetAddress.getLoopbackAddress(), 6001);
    static final InetSocketAddress BEACONING = new InetSocketAddress(InetAddress.getLoopbackAddress(), 6002);

    final VirtualScheduler clock = new VirtualScheduler();
    final List<String> ring = new ArrayList<>();
    final List<EngineEvent> events = new ArrayList<>();
    final ChannelRegistry registry = new ChannelRegistry(new ChannelRegistry.Searching() {
        @Override
        public boolean fits(int utf8Length) {
            return true;
        }

        @Override
        public void begin(PvChannel c) {
        }

        @Override
        public void end(PvChannel c) {
        }

        @Override
        public void again(PvChannel c) {
            ring.add("again " + c.name);
        }
    }, (name, bytes) -> { }, new ClientCounters());
    final ServerTable servers = new ServerTable();
    /** Probes asked for, and how to answer each: null passes, anything else fails with that text. */
    final List<InetSocketAddress> probed = new ArrayList<>();
    final Map<InetSocketAddress, Consumer<String>> pending = new ConcurrentHashMap<>();
    final ClaimChecks checks = new ClaimChecks(clock, registry, servers, (e, done) -> {
        probed.add(e);
        pending.put(e, done);
    }, events::add);

    @AfterEach
    void close() {
        clock.close();
    }

    void resolve(String name, InetSocketAddress at) {
        clock.call(() -> {
            registry.resolved(registry.reference(name, PvChannel.REF_WATCHED), G, at);
            return null;
        });
    }

    void beacon(InetSocketAddress from) {
        beacon(from, G);
    }

    void beacon(InetSocketAddress from, Guid guid) {
        clock.call(() -> servers.observe(new ServerTable.Key(from, "tcp"), guid, 2, from, ServerTable.Via.BEACON,
                clock.nanoTime()));
    }

    PvaSnapshot.Claim claim(InetSocketAddress at) {
        return clock.call(checks::snapshot).stream().filter(c -> c.endpoint().endsWith(":" + at.getPort()))
                .findFirst().orElse(null);
    }

    @Test
    void beaconingServersAreBelievedAndQuietOnesAreConnectedTo() {
        clock.call(() -> {
            checks.configure(15, 30);
            return null;
        });
        resolve("quiet:a", QUIET);
        resolve("quiet:b", QUIET);
        resolve("beacon:a", BEACONING);
        beacon(BEACONING);
        assertThat(claim(QUIET).basis()).isEqualTo("reply");
        assertThat(claim(QUIET).names()).isEqualTo(2);
        assertThat(claim(BEACONING).basis()).isEqualTo("beacons");
        assertThat(claim(BEACONING).lastBeacon()).isNotNull();

        clock.advance(Duration.ofSeconds(15));
        // only the quiet one, once, and not again while that check is in flight
        assertThat(probed).containsExactly(QUIET);
        clock.advance(Duration.ofSeconds(15));
        assertThat(probed).containsExactly(QUIET);
        // it passes: believed on its check
        clock.call(() -> {
            pending.remove(QUIET).accept(null);
            return null;
        });
        clock.runPending();
        assertThat(claim(QUIET).basis()).isEqualTo("check");
        assertThat(claim(QUIET).lastCheckResult()).isEqualTo("ok");
        // the beaconing one falls silent for more than 30 s: checked too
        beacon(BEACONING);
        clock.advance(Duration.ofSeconds(30));
        assertThat(probed).doesNotContain(BEACONING);
        clock.advance(Duration.ofSeconds(15));
        assertThat(probed).contains(BEACONING);
        // the quiet one fails its next check: its names search again, from the cursor
        clock.call(() -> {
            pending.remove(QUIET).accept("connection refused");
            return null;
        });
        clock.runPending();
        assertThat(ring).containsExactlyInAnyOrder("again quiet:a", "again quiet:b");
        assertThat(claim(QUIET)).isNull();
        assertThat(clock.call(() -> registry.lookup("quiet:a"))).isNull();
        assertThat(clock.call(() -> registry.lookup("beacon:a"))).isNotNull();
        assertThat(events).singleElement().satisfies(e -> assertThat(e.message())
                .isEqualTo("PVA server at 127.0.0.1:6001 did not pass its check (connection refused): its 2 names are"
                        + " searched again"));
        assertThat(checks.failures()).isEqualTo(1);
    }

    @Test
    void aReloadMovesTheTimer() {
        resolve("quiet:a", QUIET);
        clock.call(() -> {
            checks.configure(60, 30);
            return null;
        });
        clock.advance(Duration.ofSeconds(59));
        assertThat(probed).isEmpty();
        clock.call(() -> {
            checks.configure(5, 30);
            return null;
        });
        clock.advance(Duration.ofSeconds(5));
        assertThat(probed).containsExactly(QUIET);
        clock.call(() -> {
            checks.stop();
            return null;
        });
        clock.call(() -> {
            pending.remove(QUIET).accept("refused");
            return null;
        });
        // stopped: a late answer changes nothing
        assertThat(clock.call(() -> registry.lookup("quiet:a"))).isNotNull();
    }

    @Test
    void anotherServersBeaconsAtTheClaimedEndpointVouchForNothing() {
        // issue 25: the engine's own server beaconed the default TCP port, which a core-pva server
        // (no beacons) held and had claimed names for; those beacons kept its claims unchecked
        // after it was killed
        Guid other = Guid.parse("aaaaaaaaaaaaaaaaaaaaaaaa");
        clock.call(() -> {
            checks.configure(15, 30);
            return null;
        });
        resolve("quiet:a", BEACONING);
        beacon(BEACONING, other);
        assertThat(claim(BEACONING).basis()).isEqualTo("reply");
        assertThat(claim(BEACONING).lastBeacon()).isNull();
        clock.advance(Duration.ofSeconds(15));
        assertThat(probed).containsExactly(BEACONING);
        clock.call(() -> {
            pending.remove(BEACONING).accept("connection refused");
            return null;
        });
        clock.runPending();
        assertThat(clock.call(() -> registry.lookup("quiet:a"))).isNull();
        assertThat(ring).containsExactly("again quiet:a");

        // resolved again by the server that beacons there: now its beacons are its own
        resolve("quiet:b", BEACONING);
        clock.call(() -> {
            registry.resolved(registry.reference("quiet:a", PvChannel.REF_WATCHED), other, BEACONING);
            return null;
        });
        // two GUIDs rest on one endpoint: no beacon vouches for both
        beacon(BEACONING, other);
        assertThat(claim(BEACONING).basis()).isEqualTo("check"); // its last check, not the beacons
        clock.call(() -> registry.withdrawOthers(other, BEACONING));
        assertThat(claim(BEACONING).basis()).isEqualTo("beacons");
        assertThat(claim(BEACONING).names()).isEqualTo(1);
    }
}
