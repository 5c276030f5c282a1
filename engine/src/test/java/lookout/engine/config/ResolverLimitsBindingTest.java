package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The resolver's load settings as the file says them: the UDP receive buffer, serve-stale and the
 * TCP limits, their defaults, and each mistake reported at its file, line and column.
 */
class ResolverLimitsBindingTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    private ResolverConfig bind(String resolver) {
        ConfigResult r = loader.parse("resolver => {\n" + resolver + "\n}\n", "r.conf", Path.of("/etc/lookout"));
        assertThat(r.problems()).isEmpty();
        return r.config().resolver();
    }

    @Test
    void theDefaultsBufferABurstOfTheCeilingServeNothingStaleAndBoundTcp() {
        ResolverConfig rc = bind("");
        assertThat(rc.udpReceiveBuffer()).isEqualTo(4 * 1024 * 1024);
        assertThat(rc.serveStale()).as("off: seed 000's unavailable stands").isZero();
        assertThat(rc.tcpIdleTimeout()).isEqualTo(30);
        assertThat(rc.tcpClients()).isEqualTo(1024);
        assertThat(rc.tcpPipeline()).isEqualTo(64);
    }

    @Test
    void eachSettingIsTaken() {
        ResolverConfig rc = bind("""
                  udp_receive_buffer => 8m
                  serve_stale => 86400
                  tcp_idle_timeout => 10
                  tcp_clients => 16
                  tcp_pipeline => 4""");
        assertThat(rc.udpReceiveBuffer()).isEqualTo(8 * 1024 * 1024);
        assertThat(rc.serveStale()).isEqualTo(86_400);
        assertThat(rc.tcpIdleTimeout()).isEqualTo(10);
        assertThat(rc.tcpClients()).isEqualTo(16);
        assertThat(rc.tcpPipeline()).isEqualTo(4);
        assertThat(bind("udp_receive_buffer => 0").udpReceiveBuffer()).as("the system's default").isZero();
        assertThat(bind("udp_receive_buffer => 512k").udpReceiveBuffer()).isEqualTo(512 * 1024);
        assertThat(bind("udp_receive_buffer => 65536").udpReceiveBuffer()).isEqualTo(65_536);
    }

    @Test
    void mistakesAreReportedWhereTheyAre() {
        ConfigResult r = loader.parse("""
                resolver => {
                  udp_receive_buffer => 100
                  serve_stale => -1
                  tcp_idle_timeout => 0
                  tcp_clients => lots
                  tcp_pipeline => 5000
                }
                """, "r.conf", Path.of("/etc/lookout"));
        assertThat(r.ok()).isFalse();
        assertThat(r.problems()).extracting(Object::toString).satisfiesExactly(
                p -> assertThat(p).startsWith("r.conf:2:25: resolver.udp_receive_buffer: expected a size in bytes from 4096")
                        .contains("found '100'"),
                p -> assertThat(p).startsWith("r.conf:3:18: resolver.serve_stale").contains("0 to 604800"),
                p -> assertThat(p).startsWith("r.conf:4:23: resolver.tcp_idle_timeout").contains("1 to 3600"),
                p -> assertThat(p).startsWith("r.conf:5:18: resolver.tcp_clients").contains("1 to 65536"),
                p -> assertThat(p).startsWith("r.conf:6:19: resolver.tcp_pipeline").contains("1 to 1024"));
    }
}
