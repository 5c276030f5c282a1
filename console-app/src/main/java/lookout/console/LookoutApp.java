package lookout.console;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.application.Application;
import javafx.stage.Stage;
import lookout.console.cli.Attach;
import lookout.console.fleet.FleetWindow;
import lookout.console.remote.RemoteEngine;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * The JavaFX application.
 *
 * <p>Contract with the launcher ({@link Main}): {@link #launchConsole} opens the console on a
 * configuration file, or on the embedded default when the path is null (asking first, when a
 * local service already answers on the default status port, whether to attach to it instead);
 * {@link #launchAttached} on a running engine; {@link #launchFleet} the fleet view. Each returns
 * when its window closes. Once the first frame is on screen the app prints one line
 * {@code lookout: first frame after N ms} (N from JVM start) to standard output.
 */
public final class LookoutApp extends Application {

    private static volatile Path configPath;
    private static volatile EngineOptions options = EngineOptions.defaults();
    /** A Lookout service answering on the default status port, found before the launch, or null. */
    private static volatile Attach.LocalService localService;
    /** {@code --attach URL}: the engine to open the console on, or null. */
    private static volatile RemoteEngine attachTo;
    /** {@code --attach URL URL…} / {@code --fleet}: the engines of the fleet view, or null. */
    private static volatile List<Attach.Target> fleet;

    private Engine engine;
    private ConsoleWindow window;
    private FleetWindow fleetWindow;

    public static void launchConsole(Path config, EngineOptions engineOptions) {
        launchConsole(config, engineOptions, null);
    }

    /** The embedded console; {@code service}: a local service was found, so ask whether to attach instead. */
    public static void launchConsole(Path config, EngineOptions engineOptions, Attach.LocalService service) {
        configPath = config;
        options = engineOptions;
        localService = service;
        Application.launch(LookoutApp.class);
    }

    /** The console on a running engine (checked by the launcher); returns when the window closes. */
    public static void launchAttached(RemoteEngine remote) {
        attachTo = remote;
        Application.launch(LookoutApp.class);
    }

    /** The fleet view; returns when its window closes. */
    public static void launchFleet(List<Attach.Target> targets) {
        fleet = List.copyOf(targets);
        Application.launch(LookoutApp.class);
    }

    @Override
    public void start(Stage stage) {
        if (fleet != null) {
            fleetWindow = new FleetWindow(fleet, LookoutApp::openAttached);
            reportFirstFrame(fleetWindow.scene());
            fleetWindow.show(stage);
            return;
        }
        if (attachTo != null) {
            startAttached(stage, attachTo);
            return;
        }
        Attach.LocalService service = localService;
        if (service != null && !askRunEmbedded(service)) {
            startAttached(stage, service.attach());
            return;
        }
        startEmbedded(stage);
    }

    /**
     * A service answers on the default status port, where the embedded default would listen too:
     * the operator chooses. True: run the embedded engine anyway.
     */
    static boolean askRunEmbedded(Attach.LocalService service) {
        javafx.scene.control.ButtonType attach = new javafx.scene.control.ButtonType("Attach",
                javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        javafx.scene.control.ButtonType embedded = new javafx.scene.control.ButtonType("Run embedded",
                javafx.scene.control.ButtonBar.ButtonData.OTHER);
        javafx.scene.control.Alert a = new javafx.scene.control.Alert(javafx.scene.control.Alert.AlertType.CONFIRMATION,
                "", attach, embedded);
        a.setTitle("Lookout");
        a.setHeaderText("A Lookout engine is already running here: " + service.identity().describe() + " at "
                + service.client().url() + ".");
        a.setContentText("Attach opens this console on it (nothing else starts). Run embedded starts this console's own"
                + " engine on the embedded default, whose ports that engine probably holds already.");
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(attach)).setId("attachLocal");
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(embedded)).setId("runEmbedded");
        return a.showAndWait().map(b -> b == embedded).orElse(false);
    }

    private void startAttached(Stage stage, RemoteEngine remote) {
        engine = remote;
        window = new ConsoleWindow(remote, new ConfigLoader(System.getenv()), lookout.console.widgets.Layout.forUser(System.getenv()));
        reportFirstFrame(window.scene());
        window.attach();
        window.show(stage);
    }

    /** The fleet's drill-down: a full console on one engine, in a window of its own. */
    private static void openAttached(RemoteEngine remote) {
        ConsoleWindow w = new ConsoleWindow(remote, new ConfigLoader(System.getenv()));
        w.attach();
        Stage s = new Stage();
        s.setOnHidden(e -> {
            w.close();
            remote.stop();
        });
        w.show(s);
    }

    private void startEmbedded(Stage stage) {
        ConfigLoader loader = new ConfigLoader(System.getenv());
        Path path = configPath;
        String name = path == null ? ConfigLoader.EMBEDDED_NAME : path.toString();
        ConfigResult initial = load(loader, path, name);
        String text = initial.ok() ? initial.config().source().text() : readQuietly(path);

        engine = Engines.create(options);
        window = new ConsoleWindow(engine, loader, lookout.console.widgets.Layout.forUser(System.getenv()));
        reportFirstFrame(window.scene());
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
    private static void reportFirstFrame(javafx.scene.Scene scene) {
        Runnable[] self = new Runnable[1];
        boolean[] done = new boolean[1];
        self[0] = () -> {
            if (!done[0] && scene.getWindow() != null && scene.getWindow().isShowing()) {
                done[0] = true;
                long ms = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
                System.out.println("lookout: first frame after " + ms + " ms");
                System.out.flush();
                javafx.application.Platform.runLater(() -> scene.removePostLayoutPulseListener(self[0]));
            }
        };
        scene.addPostLayoutPulseListener(self[0]);
    }

    @Override
    public void stop() {
        if (fleetWindow != null) {
            fleetWindow.close();
        }
        if (window != null) {
            window.close();
        }
        if (engine != null) {
            engine.stop(); // an attached engine: this console disconnects, the engine runs on
        }
    }
}
