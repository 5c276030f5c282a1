package lookout.console.remote;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.console.cli.Headless;
import lookout.engine.api.EngineOptions;

/**
 * For the README's screenshots (console-app/scripts/screenshots-attach.sh), until the engine serves
 * the control API itself: a headless engine on {@code CONFIG} (its own status listener at
 * {@code STATUS_PORT}) with the contract's stand-in on {@code 127.0.0.1:API_PORT} in front, the
 * token in {@code TOKEN_FILE} as the operator's. Runs until killed. Loopback only.
 *
 * <p>{@code DemoControlServer CONFIG STATUS_PORT API_PORT NAME TOKEN_FILE}
 */
public final class DemoControlServer {

    private DemoControlServer() {
    }

    public static void main(String[] args) throws Exception {
        Path config = Path.of(args[0]);
        int statusPort = Integer.parseInt(args[1]);
        int apiPort = Integer.parseInt(args[2]);
        String name = args[3];
        String token = Files.readString(Path.of(args[4]), StandardCharsets.UTF_8).strip();
        ByteArrayOutputStream problems = new ByteArrayOutputStream();
        Headless h = Headless.start(config, EngineOptions.defaults().withEnvironment(Map.of()),
                new PrintStream(problems, true, StandardCharsets.UTF_8));
        if (h == null) {
            System.err.print(problems.toString(StandardCharsets.UTF_8));
            System.exit(1);
        }
        FakeControlServer api = new FakeControlServer(h.engine(), URI.create("http://127.0.0.1:" + statusPort), name, apiPort)
                .configFile(config.toAbsolutePath().toString()).token(token, "operator", "operator");
        System.out.println("control API of " + name + " on " + api.url());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            api.close();
            h.stop();
        }));
        Thread.currentThread().join();
    }
}
