package lookout.console;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.console.cli.Headless;
import lookout.console.remote.ControlClient;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.FakeControlServer;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.TestEngine;
import lookout.console.remote.Token;
import lookout.engine.api.EngineOptions;

/**
 * A headless engine on loopback (the launcher's own start path, real time, its real HTTP status
 * listener) with the control API in front of it (the contract's fake until the engine serves it:
 * reads of {@code /status} go to the engine's listener), and token files for an operator and a viewer.
 */
final class AttachedEngine implements AutoCloseable {

    final Path dir;
    final Path file;
    final Headless headless;
    final FakeControlServer server;
    final Path operatorToken;
    final Path viewerToken;

    AttachedEngine(Path dir, String name) throws Exception {
        this.dir = dir;
        int statusPort = TestEngine.freeTcpPort();
        file = dir.resolve("lookout.conf");
        Files.writeString(file, TestEngine.config(statusPort, "state_dir => state\n"));
        headless = Headless.start(file, EngineOptions.defaults().withEnvironment(Map.of()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        if (headless == null) {
            throw new IllegalStateException("the test configuration did not load");
        }
        server = new FakeControlServer(headless.engine(), java.net.URI.create("http://127.0.0.1:" + statusPort), name)
                .configFile(file.toString())
                .token("fx-operator-secret", "operator", "operator")
                .token("fx-viewer-secret", "alice", "viewer");
        operatorToken = Files.writeString(dir.resolve("operator.token"), "fx-operator-secret\n");
        viewerToken = Files.writeString(dir.resolve("viewer.token"), "fx-viewer-secret\n");
    }

    /** A remote engine over the API, as {@code lookout --attach URL --token-file F} builds it. */
    RemoteEngine attach(Path tokenFile) throws Exception {
        ControlClient c = new ControlClient(EngineUrl.parse(server.url()), tokenFile == null ? null : Token.read(tokenFile));
        return new RemoteEngine(c, c.identity(), new SystemTimer("fx-remote"));
    }

    @Override
    public void close() {
        server.close();
        headless.stop();
    }
}
