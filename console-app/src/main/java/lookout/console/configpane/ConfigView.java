package lookout.console.configpane;

import java.io.IOException;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;
import lookout.console.widgets.Fxml;

/** Controller of {@code ConfigView.fxml}; all logic is in {@link ConfigViewModel}. */
public final class ConfigView {

    private final ConfigViewModel vm;

    @FXML private javafx.scene.layout.VBox paneRoot;
    @FXML private Button validateButton;
    @FXML private Button diffButton;
    @FXML private Button applyButton;
    @FXML private Button revertButton;
    @FXML private Button compareButton;
    @FXML private Button rollBackButton;
    @FXML private Label messageLabel;
    @FXML private Label readOnlyLabel;
    @FXML private Label caretLabel;
    @FXML private TextArea editor;
    @FXML private TabPane sideTabs;
    @FXML private Tab problemsTab;
    @FXML private Tab diffTab;
    @FXML private Tab historyTab;
    @FXML private Label historyLabel;
    @FXML private ListView<ConfigProblem> problemList;
    @FXML private ListView<String> plainDiffList;
    @FXML private TextArea technicalDiffArea;
    @FXML private TableView<HistoryEntry> historyTable;
    @FXML private TableColumn<HistoryEntry, Long> versionColumn;
    @FXML private TableColumn<HistoryEntry, String> appliedColumn;
    @FXML private TableColumn<HistoryEntry, String> hashColumn;

    public ConfigView(ConfigViewModel vm) {
        this.vm = vm;
    }

    /** Loads the FXML with this controller and returns its root. */
    public static Parent load(ConfigViewModel vm) {
        return Fxml.load(new ConfigView(vm));
    }

    @FXML
    private void initialize() {
        editor.textProperty().bindBidirectional(vm.textProperty());
        lookout.console.widgets.NoteLabel.bind(messageLabel, vm.messageNote());
        editor.caretPositionProperty().addListener((o, a, b) -> showCaret());
        showCaret();

        problemList.setItems(vm.problems());
        problemList.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(ConfigProblem p, boolean empty) {
                super.updateItem(p, empty);
                getStyleClass().remove("problem-cell");
                if (empty || p == null) {
                    setText(null);
                } else {
                    getStyleClass().add("problem-cell");
                    setText(p.line() + ":" + p.column() + "  " + p.message()
                            + (p.path() == null || p.path().isEmpty() ? "" : "  [" + p.path() + "]"));
                }
            }
        });
        // Selecting a problem puts the caret on it (mouse or keyboard selection alike).
        problemList.getSelectionModel().selectedItemProperty().addListener((o, a, p) -> {
            if (p != null) {
                moveCaretTo(p);
            }
        });
        problemList.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER && problemList.getSelectionModel().getSelectedItem() != null) {
                moveCaretTo(problemList.getSelectionModel().getSelectedItem());
                editor.requestFocus();
            }
        });
        vm.problems().addListener((javafx.collections.ListChangeListener<ConfigProblem>) c -> {
            if (!vm.problems().isEmpty()) {
                sideTabs.getSelectionModel().select(problemsTab);
            }
            problemsTab.setText(vm.problems().isEmpty() ? "Problems" : "Problems (" + vm.problems().size() + ")");
        });

        plainDiffList.setItems(vm.plainDiff());
        technicalDiffArea.textProperty().bind(vm.technicalDiffProperty());

        historyTable.setItems(vm.history());
        historyLabel.textProperty().bind(vm.historyMessageProperty());
        versionColumn.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().version()));
        appliedColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(lookout.console.widgets.Times.seconds(c.getValue().appliedAt())));
        hashColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().shortHash()));
        compareButton.disableProperty().bind(historyTable.getSelectionModel().selectedItemProperty().isNull());
        rollBackButton.disableProperty().bind(historyTable.getSelectionModel().selectedItemProperty().isNull());

        revertButton.disableProperty().bind(vm.dirtyProperty().not().or(vm.busyProperty()));
        validateButton.disableProperty().bind(vm.busyProperty());
        diffButton.disableProperty().bind(vm.busyProperty());
        applyButton.disableProperty().bind(vm.busyProperty().or(vm.readOnlyProperty().isNotEmpty()));
        lookout.console.widgets.ReadOnlyLabel.bind(readOnlyLabel, vm.readOnlyProperty());

        // this pane's keys act while it is shown, never from another pane (issue 17 item 6)
        lookout.console.widgets.PaneKeys.on(paneRoot, new KeyCodeCombination(KeyCode.ENTER, KeyCombination.SHORTCUT_DOWN),
                this::onValidate);
        lookout.console.widgets.PaneKeys.on(paneRoot, new KeyCodeCombination(KeyCode.D, KeyCombination.SHORTCUT_DOWN),
                this::onDiff);
        lookout.console.widgets.PaneKeys.on(paneRoot, new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN),
                this::onApply);
        lookout.console.widgets.Headers.install(historyTable);
        lookout.console.widgets.Rows.table(historyTable, e -> "Version " + e.version(), List.of());
        lookout.console.widgets.Rows.list(plainDiffList);
    }

    private void showCaret() {
        int[] lc = TextPositions.lineColumnOf(editor.getText() == null ? "" : editor.getText(), editor.getCaretPosition());
        caretLabel.setText("Ln " + lc[0] + ", Col " + lc[1]);
    }

    private void moveCaretTo(ConfigProblem p) {
        int idx = vm.caretIndexOf(p);
        editor.positionCaret(idx);
        editor.selectRange(idx, Math.min(idx + 1, editor.getLength()));
        editor.deselect();
        editor.positionCaret(idx);
    }

    @FXML
    private void onValidate() {
        vm.validate();
    }

    @FXML
    private void onDiff() {
        vm.diff().thenAccept(d -> {
            if (d != null) {
                sideTabs.getSelectionModel().select(diffTab);
            }
        });
    }

    /** SPEC: the console shows the diff before applying — in a confirmation the operator answers. */
    @FXML
    private void onApply() {
        if (!vm.readOnlyProperty().get().isEmpty()) {
            vm.apply(); // says why nothing is applied (Ctrl+S reaches here with the button disabled)
            return;
        }
        vm.diff().thenAccept(d -> {
            if (!vm.problems().isEmpty()) {
                return; // problems listed, nothing applied
            }
            sideTabs.getSelectionModel().select(diffTab);
            Alert confirm = new Alert(Alert.AlertType.CONFIRMATION);
            confirm.setTitle("Apply configuration");
            confirm.setHeaderText(d == null ? "Start the engine on this configuration?"
                    : d.isEmpty() ? "No changes. Apply anyway (a new version with the same content)?"
                    : "Apply " + PlainDiff.describe(d).size() + " change" + (PlainDiff.describe(d).size() == 1 ? "" : "s") + " live?");
            List<String> lines = d == null ? List.of() : PlainDiff.describe(d);
            confirm.setContentText(String.join("\n", lines.subList(0, Math.min(lines.size(), 20)))
                    + (lines.size() > 20 ? "\n… and " + (lines.size() - 20) + " more (see Changes)" : ""));
            if (editor.getScene() != null) {
                confirm.initOwner(editor.getScene().getWindow());
            }
            Button ok = (Button) confirm.getDialogPane().lookupButton(ButtonType.OK);
            ok.setId("confirmApply");
            ok.setText("Apply");
            confirm.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> vm.apply().thenAccept(this::offerWayPast));
        });
    }

    /**
     * A refusal the operator may override (the file edited on disk, a text that removes every
     * service): asked once more, in so many words; Overwrite (or Apply anyway) applies with the
     * option that gets past it.
     */
    private void offerWayPast(lookout.engine.api.ApplyOutcome refused) {
        lookout.engine.api.ApplyRequest past = vm.wayPast(refused);
        if (past == null) {
            return;
        }
        boolean edited = refused.status() == lookout.engine.api.ApplyOutcome.Status.EDITED_ON_DISK;
        Alert a = new Alert(Alert.AlertType.WARNING, "", ButtonType.CANCEL);
        ButtonType go = new ButtonType(edited ? "Overwrite" : "Apply anyway", javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        a.getButtonTypes().add(0, go);
        a.setTitle(edited ? "Configuration file edited on disk" : "Every service removed");
        a.setHeaderText(edited ? "The configuration file was changed on disk since the engine loaded it."
                : "This configuration would remove every service.");
        a.setContentText(refused.message() + (edited
                ? "\n\nOverwrite replaces the file on disk with the editor's text (its present content is kept as a"
                        + " numbered backup). Cancel leaves the file and the engine as they are."
                : "\n\nApply anyway stops the resolver, the pools, PVA and the status endpoint. Cancel leaves them running."));
        if (editor.getScene() != null) {
            a.initOwner(editor.getScene().getWindow());
        }
        ((Button) a.getDialogPane().lookupButton(go)).setId(edited ? "confirmOverwrite" : "confirmEmpty");
        ((Button) a.getDialogPane().lookupButton(ButtonType.CANCEL)).setId("cancelWayPast");
        a.showAndWait().filter(b -> b == go).ifPresent(b -> vm.apply(past));
    }

    @FXML
    private void onRevert() {
        vm.revert();
    }

    @FXML
    private void onCompare() {
        HistoryEntry e = historyTable.getSelectionModel().getSelectedItem();
        if (e != null) {
            vm.compare(e).thenAccept(d -> sideTabs.getSelectionModel().select(diffTab));
        }
    }

    @FXML
    private void onRollBack() {
        HistoryEntry e = historyTable.getSelectionModel().getSelectedItem();
        if (e == null) {
            return;
        }
        if (vm.dirtyProperty().get()) {
            Alert a = new Alert(Alert.AlertType.CONFIRMATION, "The editor has changes that are not applied. Replace them with version "
                    + e.version() + "?");
            a.setHeaderText("Discard edits?");
            if (editor.getScene() != null) {
                a.initOwner(editor.getScene().getWindow());
            }
            if (a.showAndWait().filter(b -> b == ButtonType.OK).isEmpty()) {
                return;
            }
        }
        vm.rollBackTo(e);
        editor.requestFocus();
    }

}
