package lookout.engine.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.Metric;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.StatusConfig;
import lookout.engine.core.TestServiceContext;
import lookout.engine.core.SnapshotBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The endpoint over real loopback HTTP, with a fake context whose snapshot is a fixed value. */
class StatusServiceTest {

    private final VirtualScheduler scheduler = new VirtualScheduler();
    private final AtomicInteger snapshots = new AtomicInteger();
    private volatile RuntimeException snapshotFailure;
    private final StatusService service = new StatusService();

    /** What a request got back (java.net.http is not readable from the engine module's tests). */
    record Reply(int statusCode, Map<String, List<String>> headers, String body) {
        java.util.Optional<String> header(String name) {
            return headers.entrySet().stream().filter(e -> name.equalsIgnoreCase(e.getKey()))
                    .map(e -> e.getValue().get(0)).findFirst();
        }
    }

    private final TestServiceContext ctx = new TestServiceContext(scheduler, RandomGenerator.of("L64X128MixRandom"),
            Path.of("target"), Map.of()) {
        @Override
        public EngineSnapshot engineSnapshot() {
            if (snapshotFailure != null) {
                throw snapshotFailure;
            }
            snapshots.incrementAndGet();
            // The engine contract: snapshots are built on the loop; so does this fake.
            return StatusServiceTest.this.scheduler.call(() -> {
                SnapshotBuilder b = new SnapshotBuilder();
                b.metric(new Metric("lookout_demo_total", "Demo \"help\"", "counter", Map.of("who", "a\"b"), 7));
                service.contribute(b);
                return new EngineSnapshot(EngineState.RUNNING, StatusServiceTest.this.scheduler.now(), Instant.EPOCH, null, null, null,
                        null, null, metricsOf(b), List.of(new EngineEvent.EngineStarted(Instant.EPOCH, 1)));
            });
        }
    };

    private static Config config(InetSocketAddress listen) {
        return new Config(ConfigSource.of("test.conf", Path.of("."), ""), null, Map.of(), Map.of(), null, null,
                new StatusConfig(listen), Path.of("state"));
    }

    private void start(InetSocketAddress listen) {
        scheduler.call(() -> {
            service.start(ctx, config(listen));
            return null;
        });
    }

    @AfterEach
    void stop() {
        scheduler.call(() -> {
            service.stop();
            return null;
        });
        ctx.close();
    }

    private Reply get(InetSocketAddress a, String path) throws Exception {
        return send(a, path, "GET", null);
    }

    private Reply send(InetSocketAddress a, String path, String method, String body) throws Exception {
        HttpURLConnection c = (HttpURLConnection) uri(a, path).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(10_000);
        c.setRequestMethod(method);
        if (body != null) {
            c.setDoOutput(true);
            try (OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            }
        }
        int code = c.getResponseCode();
        InputStream in = code >= 400 ? c.getErrorStream() : c.getInputStream();
        String text = in == null ? "" : readAll(in);
        return new Reply(code, c.getHeaderFields(), text);
    }

    private static URI uri(InetSocketAddress a, String path) {
        return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + path);
    }

    @Test
    void statusIsTheSnapshotAsJson() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a = service.boundAddress();
        Reply r = get(a, "/status");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("content-type")).hasValue("application/json; charset=utf-8");
        assertThat(r.body()).startsWith("{\"state\":\"RUNNING\",\"takenAt\":\"2026-01-01T00:00:00Z\"")
                .contains("{\"type\":\"EngineStarted\"");
        assertThat(get(a, "/status?pretty").body()).startsWith("{\n  \"state\": \"RUNNING\",\n");
    }

    @Test
    void metricsIsPrometheusTextWithOwnCounters() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a = service.boundAddress();
        get(a, "/status");
        get(a, "/nope");
        Reply r = get(a, "/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("content-type")).hasValue(PrometheusWriter.CONTENT_TYPE);
        assertThat(r.body()).contains("# HELP lookout_demo_total Demo \"help\"\n"
                + "# TYPE lookout_demo_total counter\nlookout_demo_total{who=\"a\\\"b\"} 7\n");
        // Counted before this request's snapshot: one /status, one 404, this /metrics not yet.
        assertThat(r.body()).contains("lookout_status_requests_total{request=\"/status\"} 1\n")
                .contains("lookout_status_requests_total{request=\"not_found\"} 1\n")
                .contains("lookout_status_listening 1\n");
    }

    @Test
    void unknownPathIs404AndOtherMethodsAre405() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a = service.boundAddress();
        assertThat(get(a, "/").statusCode()).isEqualTo(404);
        Reply post = send(a, "/status", "POST", "x");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.header("allow")).hasValue("GET, HEAD");
        Reply head = send(a, "/metrics", "HEAD", null);
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(snapshots.get()).isEqualTo(1);
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a = service.boundAddress();
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /status HTTP/1.1\r\nHost: x\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String all = readAll(s.getInputStream());
            assertThat(all.split("HTTP/1.1 200 OK", -1)).hasSize(3);
            assertThat(all).contains("lookout_demo_total").contains("\"state\":\"RUNNING\"");
        }
    }

    @Test
    void oversizedRequestIsRefusedAndClosed() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress a = service.boundAddress();
        try (Socket s = new Socket(a.getAddress(), a.getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            String big = "x".repeat(StatusService.MAX_HEADER_SIZE + 100);
            out.write(("GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String all = readAll(s.getInputStream()); // returns at EOF: the server closed
            assertThat(all).doesNotContain("200 OK");
        }
        assertThat(snapshots.get()).isZero();
    }

    @Test
    void engineThatCannotAnswerGives503() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        snapshotFailure = new IllegalStateException("engine loop did not answer within 30 s");
        Reply r = get(service.boundAddress(), "/status");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).contains("did not answer");
    }

    @Test
    void reloadMovesTheEndpointAndNullClosesIt() throws Exception {
        start(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress first = service.boundAddress();
        InetSocketAddress next = new InetSocketAddress("127.0.0.2", 0);
        scheduler.call(() -> {
            service.apply(config(new InetSocketAddress("127.0.0.1", 0)), config(next));
            return null;
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> service.boundAddress() != null);
        InetSocketAddress second = service.boundAddress();
        assertThat(second.getAddress()).isEqualTo(InetAddress.getByName("127.0.0.2"));
        assertThat(get(second, "/status").statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> get(first, "/status")).isInstanceOf(IOException.class);

        scheduler.call(() -> {
            service.apply(config(next), config(null));
            return null;
        });
        assertThat(service.boundAddress()).isNull();
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThatThrownBy(() -> get(second, "/status")).isInstanceOf(IOException.class));
    }

    @Test
    void bindFailureAtStartAbortsAndOnReloadIsReported() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            InetSocketAddress busy = new InetSocketAddress("127.0.0.1", taken.getLocalPort());
            lastBusy = busy;
            assertThatThrownBy(() -> start(busy)).hasMessageContaining("cannot bind");

            start(new InetSocketAddress("127.0.0.1", 0));
            scheduler.call(() -> {
                service.apply(config(new InetSocketAddress("127.0.0.1", 0)), config(busy));
                return null;
            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !ctx.events.isEmpty());
            assertThat(ctx.events.get(0)).isInstanceOfSatisfying(EngineEvent.Notice.class,
                    n -> assertThat(n.message()).contains("cannot bind"));
            assertThat(service.boundAddress()).isNull();
        }
        // The port is free again: the same configuration applied again binds this time.
        InetSocketAddress retried = lastBusy;
        scheduler.call(() -> {
            service.apply(config(retried), config(retried));
            return null;
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> service.boundAddress() != null);
        assertThat(service.boundAddress().getPort()).isEqualTo(retried.getPort());
    }

    private InetSocketAddress lastBusy;

    /** The builder's metrics are read by DefaultEngine in its own package; tests reach in. */
    @SuppressWarnings("unchecked")
    private static List<Metric> metricsOf(SnapshotBuilder b) throws ReflectiveOperationException {
        java.lang.reflect.Field f = SnapshotBuilder.class.getDeclaredField("metrics");
        f.setAccessible(true);
        return (List<Metric>) f.get(b);
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) >= 0) {
            b.write(buf, 0, n);
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
