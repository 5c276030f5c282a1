package lookout.engine.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promtool check metrics} (the Prometheus project's own linter, Debian package
 * {@code prometheus}) accepts {@code /metrics} of an engine that has every section: upstreams,
 * zones, weighted pools with monitors, PVA, the listener.
 */
class PrometheusLintTest {

    @TempDir
    Path dir;

    @Test
    void promtoolAcceptsTheMetrics() throws Exception {
        assumeTrue(promtool(), "promtool (Debian package prometheus) is needed");
        int udp;
        int tcp;
        int dead;
        try (DatagramSocket d = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             DatagramSocket u = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            udp = d.getLocalPort();
            tcp = s.getLocalPort();
            dead = u.getLocalPort();
        }
        Path f = dir.resolve("lookout.conf");
        Files.writeString(f, """
                resolver => {
                  listen => [ 127.0.0.1:0 ]
                  scopes => { lan => { default => true, servers => [ 127.0.0.1:%d ] } }
                }
                zones => { lookout.test => { text => "
                $TTL 300
                @ SOA ns1 hostmaster 1 7200 1800 604800 300
                @ NS ns1
                ns1 A 127.0.0.1
                www 300 DYNA weighted!demo
                " } }
                service_types => { demo_tcp => { plugin => tcp_connect, port => %d, interval => 5, timeout => 2 } }
                plugins => { weighted => { service_types => demo_tcp, demo => { a = [ 127.0.0.1, 10 ], b = [ 127.0.0.2, 5 ] } } }
                pva => {
                  addr_list => [ 127.0.0.1 ]
                  auto_addr_list => false
                  beacon_addr_list => [ 127.0.0.1 ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                }
                status => { listen => 127.0.0.1:0 }
                state_dir => state
                """.formatted(dead, tcp, udp, tcp));
        ConfigResult r = new ConfigLoader(Map.of()).load(f);
        assertThat(r.problems()).isEmpty();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(3), null).withPvaForwarding(false))) {
            engine.start(r.config());
            InetSocketAddress a = clock.call(() -> ((DefaultEngine) engine).runningService(StatusService.class)
                    .boundAddress());
            engine.resolve("www.lookout.test", "A").get(10, TimeUnit.SECONDS);
            engine.resolve("example.org", "A");
            clock.advance(java.time.Duration.ofSeconds(10));
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + a.getPort() + "/metrics").toURL()
                    .openConnection();
            String metrics = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(metrics).contains("lookout_resolver_upstream_latency_seconds")
                    .contains("lookout_pools_failover").contains("lookout_pva_servers");
            Path out = dir.resolve("metrics.txt");
            Files.writeString(out, metrics);
            Process p = new ProcessBuilder("promtool", "check", "metrics").redirectInput(out.toFile())
                    .redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("promtool check metrics said:%n%s", said).isZero();
        }
    }

    private static boolean promtool() {
        try {
            Process p = new ProcessBuilder("promtool", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
