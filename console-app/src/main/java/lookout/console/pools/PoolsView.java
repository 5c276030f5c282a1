package lookout.console.pools;

import java.io.IOException;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.HBox;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.IndicatorLabel;
import lookout.console.widgets.Fxml;

/** Controller of {@code PoolsView.fxml}. */
public final class PoolsView {

    private final PoolsViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;
    @FXML private Label actionLabel;
    @FXML private Button forceUpButton;
    @FXML private Button forceDownButton;
    @FXML private Button releaseButton;
    @FXML private TreeTableView<PoolRow> tree;
    @FXML private TreeTableColumn<PoolRow, String> nameColumn;
    @FXML private TreeTableColumn<PoolRow, String> targetColumn;
    @FXML private TreeTableColumn<PoolRow, Number> weightColumn;
    @FXML private TreeTableColumn<PoolRow, String> monitoredColumn;
    @FXML private TreeTableColumn<PoolRow, String> forcedColumn;
    @FXML private TreeTableColumn<PoolRow, String> effectiveColumn;
    @FXML private TreeTableColumn<PoolRow, Number> liveColumn;
    @FXML private TreeTableColumn<PoolRow, PoolRow.Odds> oddsColumn;
    @FXML private TreeTableColumn<PoolRow, String> noteColumn;
    @FXML private TreeTableColumn<PoolRow, String> whatIfColumn;
    @FXML private Button whatIfButton;
    @FXML private Label readOnlyLabel;
    @FXML private Label whatIfLabel;

    public PoolsView(PoolsViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(PoolsViewModel vm) {
        return Fxml.load(new PoolsView(vm));
    }

    private static <T> void column(TreeTableColumn<PoolRow, T> c, Function<PoolRow, ObservableValue<T>> value) {
        c.setCellValueFactory(f -> f.getValue() == null || f.getValue().getValue() == null ? null
                : value.apply(f.getValue().getValue()));
    }

    @FXML
    private void initialize() {
        statusLabel.getStyleClass().add("indicator");
        IndicatorLabel.bind(statusLabel, vm.status());
        detailLabel.textProperty().bind(vm.detailProperty());
        lookout.console.widgets.NoteLabel.bind(actionLabel, vm.actionNote());
        tree.setRoot(new RowTree().mirror(vm.root()));
        tree.setPlaceholder(new Label("No resources."));
        column(nameColumn, r -> r.name);
        column(targetColumn, r -> r.target);
        column(weightColumn, r -> r.weight);
        column(monitoredColumn, r -> r.monitored);
        column(forcedColumn, r -> r.forced);
        column(effectiveColumn, r -> r.effective);
        column(liveColumn, r -> r.liveWeight);
        column(noteColumn, r -> r.note);
        // bound to the value drawn, so that the cell redraws when the odds change (issue 17 item 1)
        column(oddsColumn, r -> r.oddsShown);
        oddsColumn.setCellFactory(c -> new OddsCell());
        lookout.console.widgets.Rows.text(oddsColumn, (PoolRow r) -> r.odds() < 0 ? "" : OddsCell.percent(r.odds()));
        lookout.console.widgets.Headers.meaning(oddsColumn, "The chance that one answer for the resource carries this"
                + " address or group, computed by the engine from the weights and the states now");
        lookout.console.widgets.Headers.meaning(liveColumn, "The weight that counts now: the configured weight while UP, 0 while DOWN");
        lookout.console.widgets.Headers.install(tree);
        lookout.console.widgets.Rows.tree(tree, r -> switch (r.kind()) {
            case RESOURCE -> "Resource " + r.name();
            case FAMILY -> "Family " + r.name() + " of a resource";
            case GROUP -> "Group " + r.name();
            case ITEM -> "Address " + r.name() + " (" + r.target() + ")";
        }, java.util.List.of(new lookout.console.widgets.Rows.Action<>("Why these odds?",
                new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.W,
                        javafx.scene.input.KeyCombination.SHORTCUT_DOWN), this::why)));
        effectiveColumn.setCellFactory(c -> new StateCell());
        monitoredColumn.setCellFactory(c -> new StateCell());
        forcedColumn.setCellFactory(c -> new StateCell());

        // A plain button (not a ToggleButton): its mnemonic fires the same action as a click.
        whatIfButton.textProperty().bind(javafx.beans.binding.Bindings.when(vm.whatIfProperty())
                .then("_What-if: ON").otherwise("_What-if: off"));
        whatIfColumn.visibleProperty().bind(vm.whatIfProperty());
        whatIfLabel.textProperty().bind(vm.whatIfTextProperty());
        whatIfLabel.visibleProperty().bind(vm.whatIfProperty());
        whatIfLabel.managedProperty().bind(vm.whatIfProperty());
        whatIfLabel.getStyleClass().addAll("indicator", "level-advisory");
        whatIfColumn.setCellValueFactory(f -> {
            PoolRow r = f.getValue().getValue();
            return javafx.beans.binding.Bindings.createStringBinding(() -> (r.whatIfState().isEmpty() ? "" : r.whatIfState() + " ")
                    + (r.whatIfOdds() < 0 ? "" : OddsCell.percent(r.whatIfOdds())), r.whatIfOdds, r.whatIfState);
        });

        var selectedItem = tree.getSelectionModel().selectedItemProperty();
        // an address or a whole resource can be forced; families and groups cannot (admin_state has no key for them)
        javafx.beans.binding.BooleanBinding notForcible = javafx.beans.binding.Bindings.createBooleanBinding(
                () -> selectedItem.get() == null || PoolsViewModel.forceKey(selectedItem.get().getValue()) == null, selectedItem);
        // read-only (a viewer's token): forcing is a write, a what-if is not
        javafx.beans.binding.BooleanBinding blocked = notForcible.or(vm.readOnlyProperty().isNotEmpty()
                .and(vm.whatIfProperty().not()));
        forceUpButton.disableProperty().bind(blocked);
        forceDownButton.disableProperty().bind(blocked);
        releaseButton.disableProperty().bind(blocked);
        lookout.console.widgets.ReadOnlyLabel.bind(readOnlyLabel, vm.readOnlyProperty());
    }

    /** The "why?" of a line's odds (item 12), drawn by the shared panel. */
    private void why(PoolRow r) {
        lookout.console.widgets.WhyPanel.show(tree, vm.why(r));
    }

    private PoolRow selectedForcible() {
        var t = tree.getSelectionModel().getSelectedItem();
        return t == null || PoolsViewModel.forceKey(t.getValue()) == null ? null : t.getValue();
    }

    @FXML
    private void onWhatIf() {
        vm.whatIfProperty().set(!vm.whatIfProperty().get());
    }

    @FXML
    private void onForceUp() {
        confirmAndForce("UP");
    }

    @FXML
    private void onForceDown() {
        confirmAndForce("DOWN");
    }

    private void confirmAndForce(String state) {
        PoolRow row = selectedForcible();
        if (row == null) {
            return;
        }
        if (vm.whatIfProperty().get()) {
            vm.force(row, state); // hypothetical: nothing to confirm, nothing applied
            return;
        }
        String effect = row.kind() == PoolRow.Kind.RESOURCE
                ? (state.equals("DOWN")
                        ? " Its monitors are ignored and it goes into failover: answered as if every address were UP, failure signalled."
                        : " Its monitors are ignored: every address counts as UP.")
                : " Every resource using " + row.target() + " is affected.";
        if (confirm("Force " + state, "Force " + PoolsViewModel.forceKey(row) + " " + state + " until released?" + effect
                + " The state is kept across restarts.")) {
            vm.force(row, state);
        }
    }

    @FXML
    private void onRelease() {
        PoolRow row = selectedForcible();
        if (row != null && vm.whatIfProperty().get()) {
            vm.release(row);
            return;
        }
        if (row != null && confirm("Release", "Release the forced state of " + PoolsViewModel.forceKey(row)
                + "? " + (row.kind() == PoolRow.Kind.RESOURCE ? "Its addresses' own states" : "Its monitors") + " decide again.")) {
            vm.release(row);
        }
    }

    private boolean confirm(String title, String text) {
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, text);
        a.setHeaderText(title);
        if (tree.getScene() != null) {
            a.initOwner(tree.getScene().getWindow());
        }
        ((Button) a.getDialogPane().lookupButton(ButtonType.OK)).setId("confirmForce");
        return a.showAndWait().filter(b -> b == ButtonType.OK).isPresent();
    }

    /** DOWN and FAILOVER are abnormal: icon, text, border and colour; UP is neutral. */
    private static final class StateCell extends TreeTableCell<PoolRow, String> {
        private final Indicator indicator = new Indicator();
        private final Label label = new Label();

        StateCell() {
            label.getStyleClass().add("indicator");
            IndicatorLabel.bind(label, indicator);
        }

        @Override
        protected void updateItem(String v, boolean empty) {
            super.updateItem(v, empty);
            if (empty || v == null || v.isEmpty()) {
                setGraphic(null);
                return;
            }
            boolean abnormal = v.contains("DOWN") || v.contains("FAILOVER");
            indicator.set(v, abnormal ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL);
            setGraphic(label);
        }
    }

    /**
     * Odds: an address or group gets a 0–100 % bar with its probability; a family in a single
     * mode gets one segmented bar whose parts are its addresses' shares (they add up to 1).
     */
    private static final class OddsCell extends TreeTableCell<PoolRow, PoolRow.Odds> {
        private final ProgressBar bar = new ProgressBar();
        private final Label text = new Label();
        private final HBox box = new HBox(6, bar, text);
        private final HBox segments = new HBox(1);

        OddsCell() {
            bar.setPrefWidth(110);
            bar.setMinWidth(40);
            text.setMinWidth(Label.USE_PREF_SIZE);
            segments.setPrefWidth(180);
            segments.getStyleClass().add("odds-segments");
        }

        @Override
        protected void updateItem(PoolRow.Odds odds, boolean empty) {
            super.updateItem(odds, empty);
            if (empty || odds == null) {
                setGraphic(null);
                return;
            }
            if (!odds.shares().isEmpty()) {
                segments.getChildren().clear();
                int i = 0;
                for (PoolRow.Share share : odds.shares()) {
                    double p = share.probability();
                    if (p <= 0) {
                        continue;
                    }
                    javafx.scene.layout.Region seg = new javafx.scene.layout.Region();
                    seg.getStyleClass().addAll("odds-segment", i++ % 2 == 0 ? "odds-even" : "odds-odd");
                    seg.setPrefWidth(180 * p);
                    seg.setMinWidth(2);
                    seg.setPrefHeight(12);
                    javafx.scene.control.Tooltip.install(seg, new javafx.scene.control.Tooltip(share.name() + " " + percent(p)));
                    segments.getChildren().add(seg);
                }
                setGraphic(segments);
                return;
            }
            if (odds.probability() < 0) {
                setGraphic(null);
                return;
            }
            bar.setProgress(odds.probability());
            text.setText(percent(odds.probability()));
            setGraphic(box);
        }

        static String percent(double p) {
            return String.format(Locale.ROOT, "%.1f %%", p * 100);
        }
    }
}
