package lookout.console.events;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.FileChooser;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.IndicatorLabel;
import lookout.engine.api.Severity;
import lookout.console.widgets.Fxml;

/** Controller of {@code EventsView.fxml}. */
public final class EventsView {

    private final EventsViewModel vm;

    @FXML private TextField filterField;
    @FXML private ComboBox<Severity> severityBox;
    @FXML private CheckBox followBox;
    @FXML private Label countLabel;
    @FXML private Label exportLabel;
    @FXML private Button exportButton;
    @FXML private TableView<EventRow> table;
    @FXML private TableColumn<EventRow, String> timeColumn;
    @FXML private TableColumn<EventRow, String> subsystemColumn;
    @FXML private TableColumn<EventRow, Severity> severityColumn;
    @FXML private TableColumn<EventRow, String> messageColumn;

    public EventsView(EventsViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(EventsViewModel vm) {
        return Fxml.load(new EventsView(vm));
    }

    @FXML
    private void initialize() {
        filterField.textProperty().bindBidirectional(vm.filterTextProperty());
        severityBox.getItems().setAll(Severity.values());
        severityBox.valueProperty().bindBidirectional(vm.minimumSeverityProperty());
        table.setItems(vm.visibleRows());
        table.setPlaceholder(new Label("No events yet."));
        timeColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(EventsViewModel.formatTime(c.getValue().at())));
        lookout.console.widgets.Headers.meaning(timeColumn, "When the engine saw it, in UTC");
        subsystemColumn.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().subsystem().name()));
        severityColumn.setCellValueFactory(c -> new javafx.beans.property.ReadOnlyObjectWrapper<>(c.getValue().severity()));
        // The message of a folded burst changes in place: bind to its property; in plain words,
        // the engine's own (an exception's text) in the row's details
        messageColumn.setCellValueFactory(c -> Bindings.createStringBinding(
                () -> lookout.console.widgets.PlainWords.of(c.getValue().message()), c.getValue().messageProperty()));
        severityColumn.setCellFactory(col -> new TableCell<>() {
            private final Indicator indicator = new Indicator();
            private final Label label = new Label();
            {
                label.getStyleClass().add("indicator");
                IndicatorLabel.bind(label, indicator);
            }

            @Override
            protected void updateItem(Severity s, boolean empty) {
                super.updateItem(s, empty);
                if (empty || s == null) {
                    setGraphic(null);
                    return;
                }
                // ISA-101: INFO and NOTICE are normal operation and stay neutral.
                indicator.set(s.name(), switch (s) {
                    case INFO, NOTICE -> Indicator.Level.NORMAL;
                    case WARNING -> Indicator.Level.ADVISORY;
                    case ERROR -> Indicator.Level.ALARM;
                });
                setGraphic(label);
            }
        });
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(EventRow r, boolean empty) {
                super.updateItem(r, empty);
                getStyleClass().remove("event-summary");
                if (!empty && r != null && r.summary()) {
                    getStyleClass().add("event-summary");
                }
            }
        });
        lookout.console.widgets.Headers.install(table);
        lookout.console.widgets.Rows.table(table, new lookout.console.widgets.Rows.Describer<>() {
            @Override
            public String title(EventRow r) {
                return r.severity() + " event from " + r.subsystem() + " at " + EventsViewModel.formatTime(r.at());
            }

            @Override
            public String raw(EventRow r) {
                return lookout.console.widgets.PlainWords.hasDetails(r.message()) ? r.message() : null;
            }
        }, java.util.List.of());
        lookout.console.widgets.NoteLabel.bind(exportLabel, vm.exportNote());
        countLabel.textProperty().bind(Bindings.createStringBinding(
                () -> vm.visibleRows().size() + " of " + vm.rows().size() + " shown", vm.visibleRows(), vm.rows()));
        vm.visibleRows().addListener((javafx.collections.ListChangeListener<EventRow>) c -> {
            if (followBox.isSelected() && !vm.visibleRows().isEmpty()) {
                table.scrollTo(vm.visibleRows().size() - 1);
            }
        });
    }

    @FXML
    private void onExport() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export events as CSV");
        chooser.setInitialFileName("lookout-events.csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File f = chooser.showSaveDialog(table.getScene().getWindow());
        if (f == null) {
            return;
        }
        String csv = vm.toCsv();
        // Writing to disk off the UI thread (a network home directory can be slow).
        CompletableFuture.runAsync(() -> {
            try {
                Files.writeString(f.toPath(), csv, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).whenComplete((v, e) -> Platform.runLater(() -> vm.exportNote().say(e == null
                ? "Exported " + vm.visibleRows().size() + " events to " + f.getName() + "."
                : "Export FAILED: " + lookout.console.widgets.PlainWords.of(e.getMessage()))));
    }
}
