package lookout.console;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lookout.console.cli.Headless;
import lookout.console.remote.ControlClient;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.TestEngine;
import lookout.console.remote.Token;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.EngineOptions;

/**
 * A headless engine on loopback as the service runs (the launcher's own start path, real time),
 * its HTTP listener on {@code 127.0.0.1:0} serving the control API, its state beside the file: the
 * engine's own operator token ({@code state/control.token}) and a viewer token ({@code alice}).
 */
final class AttachedEngine implements AutoCloseable {

    final Path dir;
    final Path file;
    final Headless headless;
    final String url;
    final Path operatorToken;
    final Path viewerToken;

    AttachedEngine(Path dir, String name) throws Exception {
        this.dir = dir;
        file = dir.resolve("lookout.conf");
        viewerToken = Files.writeString(dir.resolve("viewer.token"), TestEngine.VIEWER_SECRET + "\n");
        Files.writeString(file, TestEngine.config(TestEngine.statusSection(name), "state_dir => state\n"));
        headless = Headless.start(file, EngineOptions.defaults().withEnvironment(Map.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        if (headless == null) {
            throw new IllegalStateException("the test configuration did not load");
        }
        url = "http://127.0.0.1:" + TestEngine.port(headless.engine());
        operatorToken = dir.resolve("state/control.token");
    }

    /** A remote engine over the API, as {@code lookout --attach URL --token-file F} builds it. */
    RemoteEngine attach(Path tokenFile) throws Exception {
        ControlClient c = new ControlClient(EngineUrl.parse(url), tokenFile == null ? null : Token.read(tokenFile));
        return new RemoteEngine(c, c.identity(), new SystemTimer("fx-remote"));
    }

    /** The engine's audit log, oldest first. */
    List<AuditRecord> audit() {
        return headless.engine().audit(1000);
    }

    /** Requests the listener answered for {@code route}, whatever their result. */
    long requests(String route) {
        return (long) headless.engine().snapshot().metrics().stream()
                .filter(m -> m.name().equals("lookout_control_requests_total") && route.equals(m.labels().get("route")))
                .mapToDouble(lookout.engine.api.Metric::value).sum();
    }

    @Override
    public void close() {
        headless.stop();
    }
}
