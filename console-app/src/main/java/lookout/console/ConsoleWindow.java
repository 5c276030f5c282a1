package lookout.console;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import javafx.util.Duration;
import lookout.console.configpane.ConfigView;
import lookout.console.configpane.ConfigViewModel;
import lookout.console.events.EventsView;
import lookout.console.events.EventsViewModel;
import lookout.console.gateway.EngineGateway;
import lookout.console.main.MainView;
import lookout.console.main.MainViewModel;
import lookout.console.pools.PoolsView;
import lookout.console.pools.PoolsViewModel;
import lookout.console.pva.PvaView;
import lookout.console.pva.PvaViewModel;
import lookout.console.resolver.ResolverView;
import lookout.console.resolver.ResolverViewModel;
import lookout.console.theme.Theme;
import lookout.engine.api.Engine;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * Builds the console around an engine: the gateway, one view model per pane, the main window.
 * {@link LookoutApp} uses it with the real engine, the FX tests with one on virtual time.
 *
 * <p>Concurrency: construct and call on the FX thread.
 */
public final class ConsoleWindow implements AutoCloseable {

    public static final String RESOLVER = "Resolver";
    public static final String POOLS = "Pools";
    public static final String PVA = "PVA";
    public static final String CONFIGURATION = "Configuration";
    public static final String EVENTS = "Events";

    private static final int[] ICON_SIZES = {16, 24, 32, 48, 64, 128, 256, 512};

    private final EngineGateway gateway;
    private final ExecutorService parser;
    private final MainViewModel mainVm = new MainViewModel();
    private final ConfigViewModel configVm;
    private final EventsViewModel eventsVm = new EventsViewModel();
    private final ResolverViewModel resolverVm;
    private final PoolsViewModel poolsVm;
    private final PvaViewModel pvaVm;
    private final Scene scene;
    private final MainView mainView;
    private final Timeline ageTicker;
    private Theme theme = Theme.DARK;
    /** UI thread: set once the history store is chosen. */
    private boolean historyKept;

    public ConsoleWindow(Engine engine, ConfigLoader loader) {
        this.gateway = new EngineGateway(engine, Platform::runLater);
        this.parser = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lookout-console-parser");
            t.setDaemon(true);
            return t;
        });
        this.configVm = new ConfigViewModel(loader, parser, Platform::runLater, this::applyAndKeepHistory,
                gateway::candidateOdds);
        EngineGateway g = gateway;
        this.resolverVm = new ResolverViewModel(gateway::resolve);
        this.poolsVm = new PoolsViewModel(new PoolsViewModel.Commands() {
            @Override
            public java.util.concurrent.CompletableFuture<Void> force(String key, String state, java.time.Duration ttl) {
                return g.force(key, state, ttl);
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> release(String key) {
                return g.release(key);
            }

            @Override
            public java.util.concurrent.CompletableFuture<java.util.List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(
                    java.util.Map<String, String> hypothetical) {
                return g.whatIf(hypothetical);
            }
        });
        this.pvaVm = new PvaViewModel(new PvaViewModel.Commands() {
            @Override
            public java.util.concurrent.CompletableFuture<Void> searchPv(String name) {
                return g.searchPv(name);
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> dropPv(String name) {
                return g.dropPv(name);
            }

            @Override
            public java.util.concurrent.CompletableFuture<Boolean> searchNow() {
                return g.searchNow();
            }

            @Override
            public java.util.concurrent.CompletableFuture<Void> discoveryPing() {
                return g.discoveryPing();
            }
        });

        Map<String, Parent> panes = new LinkedHashMap<>();
        panes.put(RESOLVER, ResolverView.load(resolverVm));
        panes.put(POOLS, PoolsView.load(poolsVm));
        panes.put(PVA, PvaView.load(pvaVm));
        panes.put(CONFIGURATION, ConfigView.load(configVm));
        panes.put(EVENTS, EventsView.load(eventsVm));
        MainView.LoadedMain main = MainView.load(mainVm, panes, this::toggleTheme);
        this.mainView = main.view();
        // Never larger than the screen (a 1280x800 control-room side monitor, the headless test screen).
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        this.scene = new Scene(main.root(), Math.min(1400, screen.getWidth()), Math.min(860, screen.getHeight()));
        theme.applyTo(scene);

        gateway.onSnapshot(s -> {
            mainVm.onSnapshot(s, gateway.lastSnapshotNanos());
            configVm.onSnapshot(s);
            resolverVm.onSnapshot(s);
            poolsVm.onSnapshot(s);
            pvaVm.onSnapshot(s);
        });
        pvaVm.setSubnetProposer(this::proposeSubnet);
        gateway.onEvents(eventsVm::onEvents);
        gateway.onEvents(resolverVm::onEvents);
        gateway.onEvents(pvaVm::onEvents);
        gateway.onEvents(mainVm::onEvents);
        ageTicker = new Timeline(new KeyFrame(Duration.seconds(1), e -> mainVm.tick(System.nanoTime())));
        ageTicker.setCycleCount(Timeline.INDEFINITE);
    }

    /**
     * Opens the gateway and starts the engine on {@code initial} when it is valid. When it is not,
     * the engine stays stopped: the Configuration pane shows the file with its errors, and Apply
     * starts the engine once they are fixed (decision: never run something the operator did not
     * ask for; see docs/design/console.md).
     */
    public void open(ConfigResult initial, String initialName, String initialText) {
        gateway.open();
        ageTicker.play();
        if (initial.ok()) {
            keepHistoryIn(initial.config());
            gateway.start(initial.config()).whenComplete((v, e) -> {
                if (e != null) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    mainVm.engineNotRunning("start failed: " + cause.getMessage());
                    configVm.showUnstarted(initialName, initialText, List.of(new ConfigProblem(initialName, 1, 1, "",
                            "the engine could not start on this configuration: " + cause.getMessage())));
                    mainView.select(CONFIGURATION);
                }
            });
        } else {
            mainVm.engineNotRunning("the configuration has " + initial.problems().size() + " error"
                    + (initial.problems().size() == 1 ? "" : "s"));
            configVm.showUnstarted(initialName, initialText, initial.problems());
            mainView.select(CONFIGURATION);
        }
    }

    /**
     * Apply through the gateway; when it starts the engine (opened on an invalid file), the history
     * is kept from then on in the started configuration's state directory.
     */
    private java.util.concurrent.CompletableFuture<lookout.engine.api.ReloadResult> applyAndKeepHistory(ConfigResult r) {
        return gateway.apply(r).thenApply(res -> {
            if (res != null && res.applied() && r.config() != null) {
                keepHistoryIn(r.config());
            }
            return res;
        });
    }

    /**
     * The applied-version history lives in the engine's {@code state_dir} (SPEC: "forced states
     * (admin_state), history"), beside admin_state; the directory of the configuration the engine
     * was first started on this run (a later state_dir change takes effect at the next start).
     */
    private void keepHistoryIn(lookout.engine.config.Config c) {
        if (historyKept || c.stateDir() == null) {
            return;
        }
        historyKept = true;
        configVm.useHistoryStore(new lookout.console.configpane.HistoryStore(c.stateDir()));
    }

    /**
     * The PVA pane's "point at a subnet": edits the running text (or the editor's, when it holds
     * unapplied edits) and shows the result on the Configuration pane with its diff. Nothing is
     * applied until the operator does so there.
     */
    private String proposeSubnet(List<String> addresses, int port) {
        String list = "[ " + String.join(", ", addresses) + " ]";
        String text = configVm.textProperty().get();
        try {
            text = lookout.console.configedit.ConfigEdits.set(text, "pva.addr_list", list);
            text = lookout.console.configedit.ConfigEdits.set(text, "pva.auto_addr_list", "false");
            text = lookout.console.configedit.ConfigEdits.set(text, "pva.beacon_addr_list", list);
            text = lookout.console.configedit.ConfigEdits.set(text, "pva.auto_beacon_addr_list", "false");
            text = lookout.console.configedit.ConfigEdits.set(text, "pva.broadcast_port", Integer.toString(port));
        } catch (IllegalArgumentException e) {
            return "Cannot edit the configuration: " + e.getMessage();
        }
        configVm.textProperty().set(text);
        mainView.select(CONFIGURATION);
        configVm.diff();
        return "Proposed on the Configuration pane: check the diff, then Apply.";
    }

    /** Puts the scene on {@code stage} with the title and the icon set. */
    public void show(Stage stage) {
        stage.setTitle("Lookout");
        for (int size : ICON_SIZES) {
            try (InputStream in = ConsoleWindow.class.getResourceAsStream("icons/lookout-" + size + ".png")) {
                if (in != null) {
                    stage.getIcons().add(new Image(in));
                }
            } catch (java.io.IOException e) {
                // an icon is cosmetic; the window opens without it
            }
        }
        stage.setScene(scene);
        stage.show();
    }

    public void toggleTheme() {
        theme = theme.other();
        theme.applyTo(scene);
    }

    public Theme theme() {
        return theme;
    }

    public Scene scene() {
        return scene;
    }

    public MainView mainView() {
        return mainView;
    }

    public EngineGateway gateway() {
        return gateway;
    }

    public ConfigViewModel configViewModel() {
        return configVm;
    }

    public EventsViewModel eventsViewModel() {
        return eventsVm;
    }

    public PvaViewModel pvaViewModel() {
        return pvaVm;
    }

    public MainViewModel mainViewModel() {
        return mainVm;
    }

    @Override
    public void close() {
        ageTicker.stop();
        gateway.close();
        parser.shutdownNow();
    }
}
