package lookout.console.configpane;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.time.Instant;
import java.util.List;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.EngineOptions;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lookout.engine.boot.Engines;

/**
 * The plain-words diff says the odds before → after, computed by a real engine (virtual time)
 * under its current forced states: a forced DOWN, then a weight change.
 */
class ConfigViewModelOddsTest {

    @TempDir
    Path tmp;

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String config(String pool, int broadcastPort, int serverPort) {
        return """
            resolver => { listen => [ 127.0.0.1:0 ] }
            plugins => { weighted => {
              %s
            } }
            pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ ],
                     auto_beacon_addr_list => false, broadcast_port => %d, server_port => %d,
                     server => { enable => false } }
            """.formatted(pool, broadcastPort, serverPort);
    }

    @Test
    void aWeightChangeSaysTheOddsNowAndAfterUnderTheCurrentForcedStates() throws Exception {
        int bp = freeUdpPort();
        int sp = freeUdpPort();
        String running = config("pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ], c => [ 192.0.2.3, 10 ] }", bp, sp);
        String candidate = config("pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 30 ], c => [ 192.0.2.3, 10 ] }", bp, sp);
        ConfigLoader loader = new ConfigLoader(Map.of());
        ConfigResult r = loader.parse(running, tmp.resolve("t.conf").toString(), tmp);
        assertThat(r.problems()).isEmpty();
        try (VirtualScheduler clock = new VirtualScheduler()) {
            Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(1), tmp.resolve("state")));
            engine.start(r.config());
            try {
                engine.force("192.0.2.1/*", "DOWN", null).get(10, TimeUnit.SECONDS);
                ConfigViewModel vm = new ConfigViewModel(loader, Runnable::run, Runnable::run,
                        (c, request) -> CompletableFuture.failedFuture(new AssertionError("nothing is applied here")),
                        engine::candidateOdds);
                vm.onSnapshot(engine.snapshot());
                vm.textProperty().set(candidate);

                vm.diff().get(10, TimeUnit.SECONDS);

                // by hand: a is forced DOWN; now b and c 10/20 each, after b 30/40 and c 10/40
                assertThat(vm.plainDiff())
                        .contains("odds of pool/ipv4/b (192.0.2.2): 50.0 % → 75.0 %",
                                "odds of pool/ipv4/c (192.0.2.3): 50.0 % → 25.0 %")
                        .noneMatch(l -> l.startsWith("odds of pool/ipv4/a"));
                assertThat(vm.plainDiff().get(0)).contains("weight", "10", "30");
            } finally {
                engine.stop();
            }
        }
    }

    @Test
    void withoutAnEngineTheDiffSaysTheOddsAreNotAvailable() throws Exception {
        int bp = freeUdpPort();
        int sp = freeUdpPort();
        ConfigLoader loader = new ConfigLoader(Map.of());
        String running = config("pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ] }", bp, sp);
        ConfigViewModel vm = new ConfigViewModel(loader, Runnable::run, Runnable::run,
                (c, request) -> CompletableFuture.failedFuture(new AssertionError("nothing is applied here")),
                c -> CompletableFuture.failedFuture(new IllegalStateException("engine not running")));
        vm.onSnapshot(new EngineSnapshot(EngineState.RUNNING, Instant.now(), Instant.now(),
                new ConfigStatus(1, "ab".repeat(32), "t.conf", Instant.now(), running, null), null, null, null, null,
                List.of(), List.of()));
        vm.textProperty().set(running.replace("192.0.2.2, 10", "192.0.2.2, 20"));
        vm.diff().get(10, TimeUnit.SECONDS);
        assertThat(vm.plainDiff()).contains("odds before → after not available: engine not running");
    }
}
