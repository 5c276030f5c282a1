package lookout.console.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.Metric;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.status.StatusService;
import lookout.engine.testing.VirtualScheduler;

/**
 * A real engine for the client tests, in virtual time, on a configuration file in a temporary
 * directory with its state beside it: a three-address weighted pool ({@code pool}: a 10, b 5, c 1
 * on 127.0.0.11–13), a resolver on an ephemeral port, no PVA server; optionally its HTTP listener
 * on {@code 127.0.0.1:0} serving the control API itself (docs/design/control.md), named, with the
 * engine's own operator token ({@code state/control.token}) and a viewer token ({@code alice}).
 * Engine time is virtual; the HTTP the clients speak to it is real, on loopback.
 */
public final class TestEngine implements AutoCloseable {

    public static final String POOLS = """
            plugins => {
              weighted => {
                up_thresh => 0.25
                pool => {
                  a = [ 127.0.0.11, 10 ]
                  b = [ 127.0.0.12, 5 ]
                  c = [ 127.0.0.13, 1 ]
                }
              }
            }
            """;

    /** The viewer token's text (in {@code viewer.token} beside the configuration). */
    public static final String VIEWER_SECRET = "alice-viewer-0123456789";

    public final VirtualScheduler clock = new VirtualScheduler();
    public final Engine engine;
    public final Path dir;
    public final Path file;
    public final Path state;
    public final String text;
    public final String name;

    private TestEngine(Path dir, String name) throws IOException {
        this.dir = dir;
        this.name = name;
        this.file = dir.resolve("lookout.conf");
        this.state = dir.resolve("state");
        if (name != null) {
            Files.writeString(dir.resolve("viewer.token"), VIEWER_SECRET + "\n");
        }
        this.text = config(name == null ? "" : statusSection(name), "state_dir => state\n");
        Files.writeString(file, text);
        ConfigResult r = new ConfigLoader(Map.of()).load(file);
        if (!r.ok()) {
            throw new IllegalStateException("test configuration: " + r.problems());
        }
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), null).withPvaForwarding(false));
        engine.start(r.config());
    }

    /** An engine on the pools configuration, without an HTTP listener. */
    public static TestEngine start(Path dir) throws IOException {
        return new TestEngine(dir, null);
    }

    /** An engine on the pools configuration whose HTTP listener serves the control API, called {@code name}. */
    public static TestEngine serving(Path dir, String name) throws IOException {
        return new TestEngine(dir, name);
    }

    /** The {@code status} section of a served engine: loopback, port 0, a name, the viewer token. */
    public static String statusSection(String name) {
        return "status => {\n  listen => 127.0.0.1:0\n  name => " + name + "\n"
                + "  tokens => { alice => { role => viewer, file => viewer.token } }\n}\n";
    }

    /** {@code http://127.0.0.1:PORT} of the engine's listener (the port it was given for 0). */
    public String url() {
        return "http://127.0.0.1:" + port(engine);
    }

    /** The port {@code engine}'s HTTP listener is bound to; asked on its loop. */
    public static int port(Engine engine) {
        CompletableFuture<InetSocketAddress> a = new CompletableFuture<>();
        engine.scheduler().execute(() -> {
            StatusService s = ((DefaultEngine) engine).runningService(StatusService.class);
            a.complete(s == null ? null : s.boundAddress());
        });
        try {
            InetSocketAddress bound = a.get(10, TimeUnit.SECONDS);
            if (bound == null) {
                throw new IllegalStateException("the engine has no HTTP listener");
            }
            return bound.getPort();
        } catch (Exception e) {
            throw new IllegalStateException("the listener's port: " + e, e);
        }
    }

    /** The engine's own operator token file. */
    public Path operatorToken() {
        return state.resolve("control.token");
    }

    /** The viewer token file. */
    public Path viewerToken() {
        return dir.resolve("viewer.token");
    }

    /** The audit log as the engine reads it back, oldest first. */
    public List<AuditRecord> audit() {
        return engine.audit(10_000);
    }

    /** Every request the listener answered, from {@code lookout_control_requests_total}. */
    public long requestsAnswered() {
        return (long) engine.snapshot().metrics().stream().filter(m -> m.name().equals("lookout_control_requests_total"))
                .mapToDouble(Metric::value).sum();
    }

    /** Requests answered for {@code route} with {@code result} ({@code ok}, {@code unauthorized}, ...). */
    public long requests(String route, String result) {
        return (long) engine.snapshot().metrics().stream().filter(m -> m.name().equals("lookout_control_requests_total")
                        && route.equals(m.labels().get("route")) && result.equals(m.labels().get("result")))
                .mapToDouble(Metric::value).sum();
    }

    /** Event streams open on the listener now. */
    public long openStreams() {
        return (long) engine.snapshot().metrics().stream().filter(m -> m.name().equals("lookout_control_event_streams"))
                .mapToDouble(Metric::value).sum();
    }

    /** Publishes {@code e} as the engine's own (through its journal, to every stream). */
    public void publish(EngineEvent e) {
        ((DefaultEngine) engine).publish(e);
    }

    /**
     * The test configuration: a resolver on an ephemeral port, the pools, PVA on fresh ports,
     * {@code status} (a section, or empty), then {@code extra} at the end (line numbers above it stay).
     */
    public static String config(String status, String extra) {
        return """
            # Lookout client test configuration
            resolver => {
              listen => [ 127.0.0.1:0 ]
            }
            %spva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              auto_beacon_addr_list => false
              beacon_addr_list => [ ]
              broadcast_port => %d
              server_port => %d
              server => { enable => false }
            }
            %s%s""".formatted(POOLS, freeUdpPort(), freeUdpPort(), status, extra);
    }

    public static int freeUdpPort() {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A TCP port nothing listens on (for "not there" and "connection refused"). */
    public static int freeTcpPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        engine.stop();
        clock.close();
    }
}
