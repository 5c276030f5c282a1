package lookout.engine.control;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.List;
import java.util.TreeMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.json.JsonReader;
import lookout.engine.status.StatusService;
import lookout.engine.testing.VirtualScheduler;

/**
 * An engine on a configuration file in a temporary directory, its HTTP listener on
 * 127.0.0.1:0, its state beside the file: what the control API tests talk to over real loopback
 * HTTP. Engine time is virtual; HTTP waits are real and bounded.
 */
final class ControlHarness implements AutoCloseable {

    final Path dir;
    final Path file;
    final Path state;
    final VirtualScheduler clock = new VirtualScheduler();
    Engine engine;
    URI base;

    ControlHarness(Path dir, String extra) throws IOException {
        this.dir = dir;
        this.file = dir.resolve("lookout.conf");
        this.state = dir.resolve("state");
        Files.writeString(file, text(extra));
        start();
    }

    /** A valid text: a resolver and PVA on loopback (free ports), the listener, {@code extra} last. */
    static String text(String extra) throws IOException {
        try (DatagramSocket d = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return """
                    # a test engine
                    resolver => { listen => [ 127.0.0.1:0 ], cache_size => 1000 }
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
                    """.formatted(d.getLocalPort(), s.getLocalPort()) + extra;
        }
    }

    void start() {
        ConfigResult r = new ConfigLoader(Map.of()).load(file);
        if (!r.ok()) {
            throw new IllegalStateException("test configuration invalid: " + r.problems());
        }
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), null).withPvaForwarding(false));
        engine.start(r.config());
        InetSocketAddress a = clock.call(() -> ((DefaultEngine) engine).runningService(StatusService.class).boundAddress());
        base = URI.create("http://127.0.0.1:" + a.getPort());
    }

    String token() throws IOException {
        return Files.readString(state.resolve("control.token")).strip();
    }

    /** What a request got back (java.net.http is not readable from the engine module's tests). */
    record Reply(int statusCode, Map<String, List<String>> headerMap, String body) {
        java.util.Optional<String> header(String name) {
            List<String> v = headerMap.get(name.toLowerCase(java.util.Locale.ROOT));
            return v == null || v.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(v.get(0));
        }
    }

    Reply get(String path, String token) throws IOException {
        return send("GET", path, token, null);
    }

    Reply post(String path, String token, String json) throws IOException {
        return send("POST", path, token, json);
    }

    Reply send(String method, String path, String token, String body) throws IOException {
        return send(base, method, path, token, body);
    }

    static Reply send(URI base, String method, String path, String token, String body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) base.resolve(path).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(30_000);
        c.setRequestMethod(method);
        if (token != null) {
            c.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (body != null) {
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            try (OutputStream out = c.getOutputStream()) {
                out.write(body.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the server may answer (400) and close before the whole body is sent
            }
        }
        int code = c.getResponseCode();
        InputStream in = code >= 400 ? c.getErrorStream() : c.getInputStream();
        String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        Map<String, List<String>> headers = new TreeMap<>();
        c.getHeaderFields().forEach((k, v) -> {
            if (k != null) {
                headers.put(k.toLowerCase(java.util.Locale.ROOT), v);
            }
        });
        return new Reply(code, headers, text);
    }

    static Map<String, Object> json(Reply r) throws JsonReader.JsonException {
        return JsonReader.parseObject(r.body());
    }

    /** {@code {"text": ...}} plus members. */
    static String applyBody(String text, String more) {
        StringBuilder b = new StringBuilder("{\"text\":");
        lookout.engine.json.JsonWriter.string(b, text);
        if (more != null && !more.isEmpty()) {
            b.append(',').append(more);
        }
        return b.append('}').toString();
    }

    void stop() {
        if (engine != null) {
            engine.stop();
        }
    }

    @Override
    public void close() {
        stop();
        clock.close();
    }
}
