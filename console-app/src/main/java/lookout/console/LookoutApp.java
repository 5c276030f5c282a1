package lookout.console;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.application.Application;
import javafx.stage.Stage;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * The JavaFX application.
 *
 * <p>Contract with the launcher ({@link Main}): {@link #launchConsole(Path)} opens the console on
 * a configuration file, or on the embedded default when the path is null, and returns when the
 * window closes. Once the first frame is on screen the app prints one line
 * {@code lookout: first frame after N ms} (N from JVM start) to standard output.
 */
public final class LookoutApp extends Application {

    private static volatile Path configPath;
    private static volatile EngineOptions options = EngineOptions.defaults();

    private Engine engine;
    private ConsoleWindow window;

    public static void launchConsole(Path config, EngineOptions engineOptions) {
        configPath = config;
        options = engineOptions;
        Application.launch(LookoutApp.class);
    }

    @Override
    public void start(Stage stage) {
        ConfigLoader loader = new ConfigLoader(System.getenv());
        Path path = configPath;
        String name = path == null ? ConfigLoader.EMBEDDED_NAME : path.toString();
        ConfigResult initial = load(loader, path, name);
        String text = initial.ok() ? initial.config().source().text() : readQuietly(path);

        engine = Engines.create(options);
        window = new ConsoleWindow(engine, loader);
        reportFirstFrame(window);
        window.open(initial, name, text);
        window.show(stage);
    }

    private static ConfigResult load(ConfigLoader loader, Path path, String name) {
        try {
            return path == null ? loader.embeddedDefault() : loader.load(path);
        } catch (RuntimeException e) {
            // The loader promises never to throw for bad input; if it does, the console still opens.
            return new ConfigResult(null, List.of(new ConfigProblem(name, 1, 1, "",
                    "the configuration could not be loaded: " + e)));
        }
    }

    private static String readQuietly(Path path) {
        if (path == null) {
            return "";
        }
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** Prints the first-frame line once, on the first pulse after the window is showing. */
    private static void reportFirstFrame(ConsoleWindow w) {
        Runnable[] self = new Runnable[1];
        boolean[] done = new boolean[1];
        self[0] = () -> {
            if (!done[0] && w.scene().getWindow() != null && w.scene().getWindow().isShowing()) {
                done[0] = true;
                long ms = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
                System.out.println("lookout: first frame after " + ms + " ms");
                System.out.flush();
                javafx.application.Platform.runLater(() -> w.scene().removePostLayoutPulseListener(self[0]));
            }
        };
        w.scene().addPostLayoutPulseListener(self[0]);
    }

    @Override
    public void stop() {
        if (window != null) {
            window.close();
        }
        if (engine != null) {
            engine.stop();
        }
    }
}
