package lookout.console.fleet;

import java.util.function.Function;
import java.util.function.IntConsumer;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.value.ObservableValue;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import lookout.console.widgets.Fxml;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.IndicatorLabel;

/** Controller of {@code FleetView.fxml}: the table of engines; the logic is in {@link FleetViewModel}. */
public final class FleetView {

    private final FleetViewModel vm;
    private final IntConsumer open;

    @FXML private Label summaryLabel;
    @FXML private Label messageLabel;
    @FXML private Label problemLabel;
    @FXML private Button openButton;
    @FXML private TableView<FleetRow> table;
    @FXML private TableColumn<FleetRow, String> nameColumn;
    @FXML private TableColumn<FleetRow, Cell> stateColumn;
    @FXML private TableColumn<FleetRow, Cell> resolverColumn;
    @FXML private TableColumn<FleetRow, String> inFlightColumn;
    @FXML private TableColumn<FleetRow, Cell> failoverColumn;
    @FXML private TableColumn<FleetRow, String> pvaColumn;
    @FXML private TableColumn<FleetRow, String> versionColumn;
    @FXML private TableColumn<FleetRow, Cell> reloadColumn;
    @FXML private TableColumn<FleetRow, String> urlColumn;

    /** @param open drill-down: opens the full console of the engine at this index */
    public FleetView(FleetViewModel vm, IntConsumer open) {
        this.vm = vm;
        this.open = open;
    }

    public static Parent load(FleetViewModel vm, IntConsumer open) {
        return Fxml.load(new FleetView(vm, open));
    }

    /** A cell's text with its level (both change in place). */
    record Cell(String text, Indicator.Level level) {
    }

    private static void text(TableColumn<FleetRow, String> c, Function<FleetRow, ReadOnlyStringProperty> p) {
        c.setCellValueFactory(f -> p.apply(f.getValue()));
    }

    private static void indicator(TableColumn<FleetRow, Cell> c, Function<FleetRow, ReadOnlyStringProperty> text,
                                  Function<FleetRow, ObjectProperty<Indicator.Level>> level) {
        c.setCellValueFactory(f -> {
            FleetRow r = f.getValue();
            ObservableValue<Cell> v = Bindings.createObjectBinding(() -> new Cell(text.apply(r).get(), level.apply(r).get()),
                    text.apply(r), level.apply(r));
            return v;
        });
        c.setCellFactory(col -> new TableCell<>() {
            private final Indicator indicator = new Indicator();
            private final Label label = new Label();

            {
                label.getStyleClass().add("indicator");
                IndicatorLabel.bind(label, indicator);
            }

            @Override
            protected void updateItem(Cell v, boolean empty) {
                super.updateItem(v, empty);
                if (empty || v == null) {
                    setGraphic(null);
                } else {
                    indicator.set(v.text(), v.level());
                    setGraphic(label);
                }
            }
        });
    }

    @FXML
    private void initialize() {
        summaryLabel.textProperty().bind(vm.summaryProperty());
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No engines."));
        text(nameColumn, FleetRow::nameProperty);
        indicator(stateColumn, FleetRow::stateProperty, FleetRow::stateLevelProperty);
        indicator(resolverColumn, FleetRow::resolverProperty, FleetRow::resolverLevelProperty);
        text(inFlightColumn, FleetRow::inFlightProperty);
        indicator(failoverColumn, FleetRow::failoverProperty, FleetRow::failoverLevelProperty);
        text(pvaColumn, FleetRow::pvaServersProperty);
        text(versionColumn, FleetRow::configVersionProperty);
        indicator(reloadColumn, FleetRow::lastReloadProperty, FleetRow::reloadLevelProperty);
        text(urlColumn, FleetRow::urlProperty);

        var selected = table.getSelectionModel().selectedItemProperty();
        openButton.disableProperty().bind(selected.isNull());
        selected.addListener((o, a, row) -> {
            problemLabel.textProperty().unbind();
            if (row == null) {
                problemLabel.setText("");
            } else {
                problemLabel.textProperty().bind(Bindings.createStringBinding(() -> row.problem().isEmpty() ? ""
                        : row.name() + ": " + row.problem(), row.problemProperty(), row.nameProperty()));
            }
        });
        table.setRowFactory(t -> {
            TableRow<FleetRow> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && !row.isEmpty()) {
                    open.accept(row.getIndex());
                }
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER && table.getSelectionModel().getSelectedIndex() >= 0) {
                onOpen();
            }
        });
        if (!vm.rows().isEmpty()) {
            table.getSelectionModel().selectFirst();
        }
    }

    /** A message beside the Open button (an engine not reached yet, say). */
    public void message(String text) {
        messageLabel.setText(text);
    }

    @FXML
    private void onOpen() {
        int i = table.getSelectionModel().getSelectedIndex();
        if (i >= 0) {
            open.accept(i);
        }
    }
}
