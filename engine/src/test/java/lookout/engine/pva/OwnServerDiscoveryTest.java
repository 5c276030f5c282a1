package lookout.engine.pva;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.Test;
import lookout.engine.boot.Engines;

/**
 * The embedded default's promise (issue 7): the engine's own PVA server is found by the
 * engine's own PVA client through its beacons, although both share the broadcast port and the
 * kernel hands a unicast beacon to the server's more specific bind.
 */
class OwnServerDiscoveryTest {

    @Test
    void theEnginesOwnServerIsFoundThroughItsBeacons() throws Exception {
        int udp = freeUdpPort();
        int tcp = freeTcpPort();
        String text = """
                resolver => { listen => [ 127.0.0.1:0 ] }
                pva => {
                  addr_list => [ 127.0.0.1 ]
                  auto_addr_list => false
                  beacon_addr_list => [ 127.0.0.1 ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                  server => { enable => true, name_server => true }
                }
                """.formatted(udp, tcp);
        Path dir = Files.createTempDirectory("lookout-own-server");
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "own.conf", dir);
        assertThat(r.problems()).isEmpty();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(7), dir)
                     .withPvaForwarding(false))) {
            engine.start(r.config());
            String guid = engine.snapshot().pvaServer().guid();
            // seed 002 §4: beacons every 15 s for the first ten; one interval is enough.
            clock.advance(Duration.ofSeconds(16));
            await().atMost(Duration.ofSeconds(10)).until(() -> serverCount(engine.snapshot()) > 0);
            EngineSnapshot s = engine.snapshot();
            assertThat(s.pva().servers()).anySatisfy(server -> {
                assertThat(server.guid()).isEqualTo(guid);
                assertThat(server.endpoint()).endsWith(":" + tcp);
            });
        }
    }

    private static int serverCount(EngineSnapshot s) {
        return s.pva() == null ? 0 : s.pva().servers().size();
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
