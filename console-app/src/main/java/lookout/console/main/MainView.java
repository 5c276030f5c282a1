package lookout.console.main;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.fxml.FXML;
import javafx.fxml.FXMLLoader;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.StackPane;
import lookout.console.widgets.IndicatorLabel;

/**
 * Controller of {@code MainView.fxml}: summary strip, navigation (Ctrl+1 … Ctrl+5), the selected
 * pane, status bar.
 */
public final class MainView {

    private final MainViewModel vm;
    private final Map<String, Parent> panes;
    private final Runnable toggleTheme;
    private Runnable help = () -> { };

    @FXML private BorderPane root;
    @FXML private FlowPane summaryStrip;
    @FXML private FlowPane statusItems;
    @FXML private ListView<String> nav;
    @FXML private StackPane content;
    @FXML private Button themeButton;

    /** @param panes navigation entries in order, name → root node */
    public MainView(MainViewModel vm, Map<String, Parent> panes, Runnable toggleTheme) {
        this.vm = vm;
        this.panes = new LinkedHashMap<>(panes);
        this.toggleTheme = toggleTheme;
    }

    public static LoadedMain load(MainViewModel vm, Map<String, Parent> panes, Runnable toggleTheme) {
        FXMLLoader loader = new FXMLLoader(MainView.class.getResource("MainView.fxml"));
        MainView view = new MainView(vm, panes, toggleTheme);
        loader.setController(view);
        try {
            Parent root = loader.load();
            return new LoadedMain(root, view);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The loaded root and its controller. */
    public record LoadedMain(Parent root, MainView view) {
    }

    @FXML
    private void initialize() {
        summaryStrip.getChildren().addAll(
                whole(IndicatorLabel.create(vm.resolverSummary(), "summaryResolver")),
                whole(IndicatorLabel.create(vm.poolsSummary(), "summaryPools")),
                whole(IndicatorLabel.create(vm.pvaSummary(), "summaryPva")),
                whole(IndicatorLabel.create(vm.configSummary(), "summaryConfig")));
        statusItems.getChildren().addAll(List.<Node>of(
                whole(IndicatorLabel.create(vm.connection(), "statusConnection")),
                whole(IndicatorLabel.create(vm.engineState(), "statusEngine")),
                whole(IndicatorLabel.create(vm.configVersion(), "statusVersion")),
                whole(IndicatorLabel.create(vm.lastReload(), "statusReload")),
                whole(IndicatorLabel.create(vm.dataAge(), "statusDataAge"))));

        nav.getItems().setAll(panes.keySet());
        nav.setFixedCellSize(30);
        for (Parent p : panes.values()) {
            p.setVisible(false);
            content.getChildren().add(p);
        }
        nav.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> show(b));
        nav.getSelectionModel().selectFirst();

        root.sceneProperty().addListener((o, a, scene) -> {
            if (scene == null) {
                return;
            }
            KeyCode[] digits = {KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4, KeyCode.DIGIT5,
                KeyCode.DIGIT6, KeyCode.DIGIT7, KeyCode.DIGIT8, KeyCode.DIGIT9};
            List<String> names = List.copyOf(panes.keySet());
            for (int i = 0; i < names.size() && i < digits.length; i++) {
                String name = names.get(i);
                scene.getAccelerators().put(new KeyCodeCombination(digits[i], KeyCombination.SHORTCUT_DOWN),
                        () -> {
                            select(name);
                            focusInto(name);
                        });
            }
            scene.getAccelerators().put(new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN,
                    KeyCombination.SHIFT_DOWN), toggleTheme);
            scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F1), () -> help.run());
        });
    }

    /**
     * A badge never drawn cut: its whole text, on a line of its own when the row is full (the flow
     * wraps); the text again in its tooltip.
     */
    private static javafx.scene.control.Label whole(javafx.scene.control.Label l) {
        l.setMinWidth(javafx.scene.control.Control.USE_PREF_SIZE);
        javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();
        tip.textProperty().bind(l.textProperty());
        tip.setWrapText(true);
        tip.setMaxWidth(600);
        l.setTooltip(tip);
        return l;
    }

    /** What the Help button and F1 open. */
    public void onHelp(Runnable r) {
        this.help = r;
    }

    /** The pane shown now. */
    public String selected() {
        return nav.getSelectionModel().getSelectedItem();
    }

    /** Called with the name of each pane shown from now on. */
    public void onSelect(java.util.function.Consumer<String> listener) {
        nav.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                listener.accept(b);
            }
        });
    }

    /**
     * From the keyboard, the focus goes with the pane: to its main table (or the editor), so that
     * the arrows, Enter (details), Ctrl+C and Ctrl+W work at once.
     */
    private void focusInto(String name) {
        Parent p = panes.get(name);
        if (p == null) {
            return;
        }
        for (String selector : new String[] {".tree-table-view", ".table-view", ".text-area"}) {
            Node n = p.lookup(selector);
            if (n != null && n.isFocusTraversable()) {
                n.requestFocus();
                if (n instanceof javafx.scene.control.TableView<?> t && t.getSelectionModel().isEmpty() && !t.getItems().isEmpty()) {
                    t.getSelectionModel().select(0);
                } else if (n instanceof javafx.scene.control.TreeTableView<?> t && t.getSelectionModel().isEmpty()
                        && t.getExpandedItemCount() > 0) {
                    t.getSelectionModel().select(0);
                }
                return;
            }
        }
    }

    /** Shows the named pane. */
    public void select(String name) {
        nav.getSelectionModel().select(name);
    }

    private void show(String name) {
        Parent target = panes.get(name);
        for (Parent p : panes.values()) {
            p.setVisible(p == target);
            p.setManaged(p == target);
        }
    }

    @FXML
    private void onHelp() {
        help.run();
    }

    @FXML
    private void onToggleTheme() {
        toggleTheme.run();
    }
}
