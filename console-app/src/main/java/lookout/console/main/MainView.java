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
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
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

    @FXML private BorderPane root;
    @FXML private HBox summaryStrip;
    @FXML private HBox statusBar;
    @FXML private Pane statusSpacer;
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
                IndicatorLabel.create(vm.resolverSummary(), "summaryResolver"),
                IndicatorLabel.create(vm.poolsSummary(), "summaryPools"),
                IndicatorLabel.create(vm.pvaSummary(), "summaryPva"),
                IndicatorLabel.create(vm.configSummary(), "summaryConfig"));
        int at = statusBar.getChildren().indexOf(statusSpacer);
        statusBar.getChildren().addAll(at, List.<Node>of(
                IndicatorLabel.create(vm.connection(), "statusConnection"),
                IndicatorLabel.create(vm.engineState(), "statusEngine"),
                IndicatorLabel.create(vm.configVersion(), "statusVersion"),
                IndicatorLabel.create(vm.lastReload(), "statusReload"),
                IndicatorLabel.create(vm.dataAge(), "statusDataAge")));

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
                        () -> select(name));
            }
            scene.getAccelerators().put(new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN,
                    KeyCombination.SHIFT_DOWN), toggleTheme);
        });
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
    private void onToggleTheme() {
        toggleTheme.run();
    }
}
