package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.seams.DynamicRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Monitors in virtual time against real loopback peers: intervals, timeouts and anti-flap counts
 * run on the virtual clock; each probe's I/O is real and awaited (bounded).
 */
class MonitorProbeTest {

    @TempDir
    Path state;

    private static PoolsSnapshot.PoolMonitor monitor(TestContext ctx, PoolsService svc, String name) {
        return ctx.call(() -> svc.snapshot().monitors().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow());
    }

    /** Advances one interval and waits (real time, bounded) for the probe it starts to report. */
    private static PoolsSnapshot.PoolMonitor step(TestContext ctx, PoolsService svc, String name, int interval) {
        long before = monitor(ctx, svc, name).probes();
        ctx.scheduler.advance(Duration.ofSeconds(interval));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> monitor(ctx, svc, name).probes() == before + 1);
        return monitor(ctx, svc, name);
    }

    @Test
    void tcpConnectAgainstAListenerThatClosesAndReopens() throws Exception {
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        int port = listener.getLocalPort();
        String text = """
                service_types => { tcp => { plugin => tcp_connect, port => %d } }
                plugins => { weighted => { service_types => tcp
                  r => { a => [ 127.0.0.1, 1 ], b => [ 127.0.0.2, 1 ] }
                } }
                """.formatted(port);
        try (TestContext ctx = new TestContext(state, 1)) {
            PoolsService svc = new PoolsService();
            ctx.call(() -> {
                svc.start(ctx, TestContext.config(text));
                return null;
            });
            String name = "127.0.0.1/tcp";
            // the first probe runs at once and sets the state directly (gdnsd's initial round)
            ctx.scheduler.runPending();
            await().atMost(Duration.ofSeconds(10)).until(() -> monitor(ctx, svc, name).probes() == 1);
            PoolsSnapshot.PoolMonitor m = monitor(ctx, svc, name);
            assertThat(m.monitoredState()).isEqualTo("UP");
            assertThat(m.ttl()).isEqualTo(100); // 10 s x down_thresh 10

            listener.close();
            for (int i = 1; i <= 9; i++) {
                m = step(ctx, svc, name, 10);
                assertThat(m.effectiveState()).as("failure %d", i).isEqualTo("UP");
                assertThat(m.failures()).isEqualTo(i);
                assertThat(m.ttl()).isEqualTo(10L * (10 - i));
            }
            m = step(ctx, svc, name, 10);
            assertThat(m.effectiveState()).isEqualTo("DOWN");
            assertThat(m.ttl()).isEqualTo(200); // 10 s x up_thresh 20
            assertThat(m.lastResult()).isEqualTo("fail");
            assertThat(ctx.events).filteredOn(e -> e instanceof EngineEvent.MonitorStateChanged c && c.to().equals("DOWN"))
                    .hasSize(2); // 127.0.0.2 has nothing listening from the start, 127.0.0.1 now

            // both DOWN: live 0 < ceil(2 x 0.5) -> failover, still answering
            DynamicRecords.Answer a = ctx.call(() -> svc.answer("r", 1, 300, 150));
            assertThat(a.failover()).isTrue();
            assertThat(a.addresses()).hasSize(1);

            try (ServerSocket reopened = new ServerSocket()) {
                reopened.setReuseAddress(true);
                reopened.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                for (int i = 1; i <= 19; i++) {
                    m = step(ctx, svc, name, 10);
                    assertThat(m.effectiveState()).as("pass %d", i).isEqualTo("DOWN");
                    assertThat(m.successes()).isEqualTo(i);
                }
                m = step(ctx, svc, name, 10);
                assertThat(m.effectiveState()).isEqualTo("UP");
                assertThat(m.successes()).isZero();
                assertThat(m.probes()).isEqualTo(31);
                assertThat(m.passes()).isEqualTo(21);
            }
            DynamicRecords.Answer up = ctx.call(() -> svc.answer("r", 1, 300, 150));
            assertThat(up.failover()).isFalse(); // 127.0.0.1 alone: live 1 >= ceil(1.0) = 1
            assertThat(up.addresses()).extracting(InetAddress::getHostAddress).containsExactly("127.0.0.1");
            assertThat(ctx.events).filteredOn(e -> e instanceof EngineEvent.PoolFailover).extracting(e -> ((EngineEvent.PoolFailover) e).inFailover())
                    .containsExactly(true, false);
            ctx.call(() -> {
                svc.stop();
                return null;
            });
        }
    }

    @Test
    void httpStatusAgainstAServerAnswering200Then503() throws IOException {
        TinyHttpServer server = new TinyHttpServer();
        AtomicInteger status = server.status;
        String text = """
                service_types => { web => { plugin => http_status, port => %d, url_path => /health,
                                            interval => 4, up_thresh => 3, ok_thresh => 2, down_thresh => 2 } }
                plugins => { weighted => { service_types => web
                  r => { a => [ 127.0.0.1, 1 ] }
                } }
                """.formatted(server.port());
        try (TestContext ctx = new TestContext(state, 2)) {
            PoolsService svc = new PoolsService();
            ctx.call(() -> {
                svc.start(ctx, TestContext.config(text));
                return null;
            });
            String name = "127.0.0.1/web";
            ctx.scheduler.runPending();
            await().atMost(Duration.ofSeconds(10)).until(() -> monitor(ctx, svc, name).probes() == 1);
            assertThat(monitor(ctx, svc, name).monitoredState()).isEqualTo("UP");
            // one failure, then ok_thresh 2 passes clear it
            status.set(503);
            PoolsSnapshot.PoolMonitor m = step(ctx, svc, name, 4);
            assertThat(m.failures()).isEqualTo(1);
            assertThat(m.ttl()).isEqualTo(4);
            status.set(200);
            step(ctx, svc, name, 4);
            m = step(ctx, svc, name, 4);
            assertThat(m.failures()).isZero();
            assertThat(m.ttl()).isEqualTo(8);
            // two 503s: DOWN
            status.set(503);
            step(ctx, svc, name, 4);
            m = step(ctx, svc, name, 4);
            assertThat(m.effectiveState()).isEqualTo("DOWN");
            assertThat(m.ttl()).isEqualTo(12); // 4 s x up_thresh 3
            // three 200s: UP
            status.set(200);
            step(ctx, svc, name, 4);
            assertThat(step(ctx, svc, name, 4).effectiveState()).isEqualTo("DOWN");
            assertThat(step(ctx, svc, name, 4).effectiveState()).isEqualTo("UP");
            assertThat(server.requestLines).hasSize(9).allMatch(l -> l.equals("GET /health HTTP/1.0"));
            ctx.call(() -> {
                svc.stop();
                return null;
            });
        } finally {
            server.close();
        }
    }

    @Test
    void httpStatusWithVhostAndOkCodes() throws IOException {
        try (TinyHttpServer server = new TinyHttpServer()) {
            server.status.set(204);
            String text = """
                    service_types => { web => { plugin => http_status, port => %d, url_path => /ready, vhost => www.example.org,
                                                ok_codes => [ 200, 204 ], down_thresh => 1 } }
                    plugins => { weighted => { service_types => web, r => { a => [ 127.0.0.1, 1 ] } } }
                    """.formatted(server.port());
            try (TestContext ctx = new TestContext(state, 4)) {
                PoolsService svc = new PoolsService();
                ctx.call(() -> {
                    svc.start(ctx, TestContext.config(text));
                    return null;
                });
                String name = "127.0.0.1/web";
                ctx.scheduler.runPending();
                await().atMost(Duration.ofSeconds(10)).until(() -> monitor(ctx, svc, name).probes() == 1);
                assertThat(monitor(ctx, svc, name).monitoredState()).isEqualTo("UP"); // 204 is in ok_codes
                assertThat(server.requestLines).containsExactly("GET /ready HTTP/1.1");
                assertThat(server.headerLines).contains("Host: www.example.org", "Connection: close", "User-Agent: gdnsd-monitor");
                server.status.set(200);
                assertThat(step(ctx, svc, name, 10).monitoredState()).isEqualTo("UP");
                server.status.set(404);
                assertThat(step(ctx, svc, name, 10).monitoredState()).isEqualTo("DOWN"); // down_thresh 1
                ctx.call(() -> {
                    svc.stop();
                    return null;
                });
            }
        }
    }

    @Test
    void aProbeThatNeverAnswersTimesOutOnTheVirtualClock() throws IOException {
        // a listener that accepts and never writes: the http_status probe waits for its timeout
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String text = """
                    service_types => { web => { plugin => http_status, port => %d, interval => 10, timeout => 3, down_thresh => 1 } }
                    plugins => { weighted => { service_types => web, r => { a => [ 127.0.0.1, 1 ] } } }
                    """.formatted(silent.getLocalPort());
            try (TestContext ctx = new TestContext(state, 3)) {
                PoolsService svc = new PoolsService();
                ctx.call(() -> {
                    svc.start(ctx, TestContext.config(text));
                    return null;
                });
                String name = "127.0.0.1/web";
                ctx.scheduler.runPending();
                ctx.scheduler.advance(Duration.ofSeconds(2));
                assertThat(monitor(ctx, svc, name).probes()).isZero(); // still waiting: no result before the timeout
                ctx.scheduler.advance(Duration.ofSeconds(1));
                PoolsSnapshot.PoolMonitor m = monitor(ctx, svc, name);
                assertThat(m.probes()).isEqualTo(1);
                assertThat(m.lastResult()).isEqualTo("timeout");
                assertThat(m.monitoredState()).isEqualTo("DOWN");
                ctx.call(() -> {
                    svc.stop();
                    return null;
                });
            }
        }
    }
}
