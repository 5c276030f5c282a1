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
    /** UI thread: the operator chose to close (after the unapplied-edits question, if any). */
    private boolean closing;
    private Stage stage;
    private final lookout.console.widgets.LayoutKeeper keeper;
    /** Writes the layout file: its own thread, let finish its last write on close. */
    private final ExecutorService layoutWriter;
    private final Map<String, Parent> paneRoots;

    public ConsoleWindow(Engine engine, ConfigLoader loader) {
        this(engine, loader, lookout.console.widgets.Layout.none());
    }

    /**
     * @param layout where the operator's layout and preferences are kept ({@code Layout.forUser}
     *               for the console's main window; {@code Layout.none()} keeps nothing)
     */
    public ConsoleWindow(Engine engine, ConfigLoader loader, lookout.console.widgets.Layout layout) {
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

            @Override
            public java.util.concurrent.CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
                return g.diagnosePv(name);
            }
        });

        Map<String, Parent> panes = new LinkedHashMap<>();
        panes.put(RESOLVER, ResolverView.load(resolverVm));
        panes.put(POOLS, PoolsView.load(poolsVm));
        panes.put(PVA, PvaView.load(pvaVm));
        panes.put(CONFIGURATION, ConfigView.load(configVm));
        panes.put(EVENTS, EventsView.load(eventsVm));
        this.paneRoots = panes;
        for (Parent p : panes.values()) {
            lookout.console.widgets.PaneKeys.labelMnemonics(p);
        }
        MainView.LoadedMain main = MainView.load(mainVm, panes, this::toggleTheme);
        this.mainView = main.view();
        this.layoutWriter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lookout-console-layout");
            t.setDaemon(true);
            return t;
        });
        this.keeper = new lookout.console.widgets.LayoutKeeper(layout, layoutWriter);
        // the window's bounds: where the operator left it, else from the screen (issue 17 item 2)
        this.bounds = lookout.console.widgets.Windows.choose(
                lookout.console.widgets.Windows.screenFor(keeper.savedBounds()), keeper.savedBounds());
        this.scene = new Scene(main.root(), bounds.width(), bounds.height());
        theme.applyTo(scene);
        mainView.onHelp(() -> lookout.console.main.HelpView.show(scene));
        keepLayout();

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
        configVm.sourceNameProperty().addListener((o, a, b) -> updateTitle());
        // the subnet proposal's note goes once its edit is applied or reverted
        configVm.dirtyProperty().addListener((o, was, dirty) -> {
            if (!dirty) {
                pvaVm.actionNote().clearIf(proposalNote);
            }
        });
    }

    private final lookout.console.widgets.Windows.Bounds bounds;
    /** The PVA pane's note that proposed an edit ({@link #proposeSubnet}), cleared with the edit. */
    private long proposalNote = -1;

    /**
     * The operator's layout: pane, theme, filters, every table's columns, split's dividers, tab
     * pane's selected tab and folded section restored from the user's file and followed from now on.
     */
    private void keepLayout() {
        javafx.beans.property.StringProperty pane = new javafx.beans.property.SimpleStringProperty(mainView.selected());
        pane.addListener((o, a, b) -> {
            if (b != null && paneRoots.containsKey(b) && !b.equals(mainView.selected())) {
                mainView.select(b);
            }
        });
        keeper.keep("pane", pane);
        mainView.onSelect(pane::set);
        javafx.beans.property.StringProperty themeName = new javafx.beans.property.SimpleStringProperty(theme.name());
        themeName.addListener((o, a, b) -> {
            for (Theme t : Theme.values()) {
                if (t.name().equals(b) && t != theme) {
                    theme = t;
                    theme.applyTo(scene);
                }
            }
        });
        keeper.keep("theme", themeName);
        themeProperty = themeName;
        keeper.keep("filter.events.text", eventsVm.filterTextProperty());
        javafx.beans.property.StringProperty severity = new javafx.beans.property.SimpleStringProperty(
                eventsVm.minimumSeverityProperty().get().name());
        severity.addListener((o, a, b) -> {
            for (lookout.engine.api.Severity v : lookout.engine.api.Severity.values()) {
                if (v.name().equals(b)) {
                    eventsVm.minimumSeverityProperty().set(v);
                }
            }
        });
        keeper.keep("filter.events.severity", severity);
        eventsVm.minimumSeverityProperty().addListener((o, a, b) -> severity.set(b == null ? null : b.name()));
        keeper.keep("filter.pva.servers", pvaVm.serverFilterProperty());
        for (Parent p : paneRoots.values()) {
            keeper.keepUnder(p);
        }
    }

    private javafx.beans.property.StringProperty themeProperty;

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
                if (e == null) {
                    showEarlierEvents(initial.config());
                }
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
     * Opens the console on an attached engine ({@code lookout --attach}): nothing is started; the
     * panes follow the engine's snapshots and events, the title names the engine and its file, and
     * a read-only console (a viewer's token, or none) disables every action and says why beside it.
     */
    public void attach() {
        lookout.console.remote.RemoteEngine r = gateway.remote();
        if (r == null) {
            throw new IllegalStateException("attach() needs an attached engine");
        }
        gateway.onConnection(c -> {
            mainVm.attachedTo(shortLabel());
            mainVm.onConnection(c.problem(), c.readOnly());
            readOnly(c.readOnly());
            updateTitle();
        });
        mainVm.attachedTo(shortLabel());
        readOnly(gateway.access().reason());
        gateway.open();
        ageTicker.play();
    }

    /** {@code NAME (FILE) at URL} of an attached engine, or null. */
    public String engineLabel() {
        lookout.console.remote.RemoteEngine r = gateway.remote();
        return r == null ? null : r.identity().describe() + " at " + r.url();
    }

    /** The engine's name for the status bar (the title has its file and URL). */
    private String shortLabel() {
        lookout.console.remote.RemoteEngine r = gateway.remote();
        String name = r.identity().engine();
        return name.isEmpty() ? r.url().toString() : name;
    }

    /** Every action that writes is disabled with this reason (null or empty: none). */
    private void readOnly(String reason) {
        String r = reason == null ? "" : reason;
        poolsVm.readOnlyProperty().set(r);
        pvaVm.readOnlyProperty().set(r);
        configVm.readOnlyProperty().set(r);
    }

    /**
     * "Lookout — FILE — embedded engine", or for an attached one "Lookout — NAME (FILE) at URL":
     * which configuration and which engine, wherever the window is (task bar, window list).
     */
    private void updateTitle() {
        if (stage != null) {
            stage.setTitle(title());
        }
    }

    /** The window's title (see {@link #updateTitle}). */
    public String title() {
        String label = engineLabel();
        if (label != null) {
            return "Lookout — " + label;
        }
        String file = configVm.sourceNameProperty().get();
        return "Lookout — " + (file == null || file.isEmpty() ? ConfigLoader.EMBEDDED_NAME : file) + " — embedded engine";
    }

    /**
     * Apply through the gateway; when it starts the engine (opened on an invalid file), the history
     * is kept from then on in the started configuration's state directory.
     */
    private java.util.concurrent.CompletableFuture<lookout.engine.api.ApplyOutcome> applyAndKeepHistory(ConfigResult r,
            lookout.engine.api.ApplyRequest request) {
        return gateway.apply(r, request).thenApply(res -> {
            if (res != null && res.applied() && r.config() != null) {
                keepHistoryIn(r.config());
                showEarlierEvents(r.config());
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
        // an attached engine's state directory is on its own host: no local history file for it
        if (historyKept || c.stateDir() == null || gateway.attached()) {
            return;
        }
        historyKept = true;
        configVm.useHistoryStore(new lookout.console.configpane.HistoryStore(c.stateDir()));
    }

    /** UI thread: the earlier runs' events were asked for (once). */
    private boolean earlierShown;

    /**
     * Once the engine runs: the events its journal keeps from earlier runs (STATE_DIR/events.log,
     * across restarts) go before this run's on the Events pane.
     */
    private void showEarlierEvents(lookout.engine.config.Config c) {
        if (earlierShown || gateway.attached()) {
            return; // an attached engine's event stream starts with what it keeps
        }
        earlierShown = true;
        String where = c.stateDir() == null ? "the engine's journal" : c.stateDir().resolve("events.log").toString();
        gateway.earlierEvents().thenAccept(earlier -> eventsVm.restore(earlier, where));
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
        proposalNote = pvaVm.actionNote().serial() + 1; // the note the PVA pane says next
        return "Proposed on the Configuration pane: check the diff, then Apply.";
    }

    /**
     * Puts the scene on {@code stage} with the title and the icon set; closing the window with
     * unapplied edits in the Configuration pane asks first (Save and apply / Discard / Cancel).
     */
    public void show(Stage stage) {
        this.stage = stage;
        stage.setTitle("Lookout");
        updateTitle();
        stage.setOnCloseRequest(e -> {
            if (!closing && configVm.dirtyProperty().get()) {
                e.consume();
                askBeforeClosing();
            }
        });
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
        lookout.console.widgets.Windows.show(stage, bounds);
        keeper.follow(stage);
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> keeper.flush());
    }

    /** The unapplied-edits question; Save and apply closes once the engine took them. */
    private void askBeforeClosing() {
        javafx.scene.control.ButtonType apply = new javafx.scene.control.ButtonType("Save and apply",
                javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        javafx.scene.control.ButtonType discard = new javafx.scene.control.ButtonType("Discard",
                javafx.scene.control.ButtonBar.ButtonData.NO);
        javafx.scene.control.Alert a = new javafx.scene.control.Alert(javafx.scene.control.Alert.AlertType.CONFIRMATION,
                "", apply, discard, javafx.scene.control.ButtonType.CANCEL);
        a.setTitle("Unapplied edits");
        a.setHeaderText("The Configuration pane has edits that are not applied.");
        String readOnly = configVm.readOnlyProperty().get();
        a.setContentText(readOnly.isEmpty()
                ? (gateway.configFile() == null
                        ? "Save and apply hands them to the engine, which applies them in memory only (the embedded"
                                + " default has no file)."
                        : "Save and apply hands them to the engine, which applies them and saves them to "
                                + gateway.configFile() + ".")
                        + " Discard drops them. Cancel keeps the window open."
                : "They cannot be applied from here (" + readOnly + "). Discard drops them; Cancel keeps the window open.");
        a.initOwner(stage);
        javafx.scene.control.Button applyButton = (javafx.scene.control.Button) a.getDialogPane().lookupButton(apply);
        applyButton.setId("closeApply");
        applyButton.setDisable(!readOnly.isEmpty());
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(discard)).setId("closeDiscard");
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(javafx.scene.control.ButtonType.CANCEL)).setId("closeCancel");
        a.showAndWait().ifPresent(choice -> {
            if (choice == discard) {
                closeNow();
            } else if (choice == apply) {
                mainView.select(CONFIGURATION);
                configVm.apply().whenComplete((res, err) -> {
                    if (err == null && res != null && res.applied()) {
                        closeNow();
                    }
                    // otherwise the Configuration pane says why, and the window stays
                });
            }
        });
    }

    private void closeNow() {
        closing = true;
        if (stage != null) {
            stage.close();
        }
    }

    public void toggleTheme() {
        theme = theme.other();
        theme.applyTo(scene);
        if (themeProperty != null) {
            themeProperty.set(theme.name());
        }
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

    public PoolsViewModel poolsViewModel() {
        return poolsVm;
    }

    public PvaViewModel pvaViewModel() {
        return pvaVm;
    }

    public MainViewModel mainViewModel() {
        return mainVm;
    }

    /** Where the operator's layout is kept. */
    public lookout.console.widgets.LayoutKeeper layoutKeeper() {
        return keeper;
    }

    @Override
    public void close() {
        keeper.close();
        ageTicker.stop();
        gateway.close();
        layoutWriter.shutdown(); // the layout's last write finishes
        parser.shutdownNow();
    }
}
