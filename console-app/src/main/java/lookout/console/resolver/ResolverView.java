package lookout.console.resolver;

import java.io.IOException;
import javafx.beans.binding.Bindings;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.IndicatorLabel;
import lookout.console.widgets.Fxml;

/** Controller of {@code ResolverView.fxml}. */
public final class ResolverView {

    private final ResolverViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;
    @FXML private ProgressBar inFlightBar;
    @FXML private Label inFlightLabel;
    @FXML private Label countersLabel;
    @FXML private TableView<UpstreamRow> serverTable;
    @FXML private TableColumn<UpstreamRow, String> scopeColumn;
    @FXML private TableColumn<UpstreamRow, String> addressColumn;
    @FXML private TableColumn<UpstreamRow, UpstreamRow> stateColumn;
    @FXML private TableColumn<UpstreamRow, Number> failuresColumn;
    @FXML private TableColumn<UpstreamRow, String> rateColumn;
    @FXML private TableColumn<UpstreamRow, String> latencyColumn;
    @FXML private TableColumn<UpstreamRow, String> lastSuccessColumn;
    @FXML private TableColumn<UpstreamRow, String> lastFailureColumn;
    @FXML private TableView<ResolverViewModel.ZoneRow> zoneTable;
    @FXML private TableColumn<ResolverViewModel.ZoneRow, String> zoneName;
    @FXML private TableColumn<ResolverViewModel.ZoneRow, String> zoneRecords;
    @FXML private TableColumn<ResolverViewModel.ZoneRow, String> zoneSerial;
    @FXML private TextField nameField;
    @FXML private ComboBox<String> typeBox;
    @FXML private Button resolveButton;
    @FXML private TextArea traceArea;
    @FXML private HBox charts;

    public ResolverView(ResolverViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(ResolverViewModel vm) {
        return Fxml.load(new ResolverView(vm));
    }

    @FXML
    private void initialize() {
        statusLabel.getStyleClass().add("indicator");
        IndicatorLabel.bind(statusLabel, vm.status());
        detailLabel.textProperty().bind(vm.detailProperty());
        countersLabel.textProperty().bind(vm.countersProperty());
        inFlightBar.progressProperty().bind(vm.inFlightFractionProperty());
        inFlightLabel.textProperty().bind(vm.inFlightTextProperty());

        serverTable.setItems(vm.servers());
        serverTable.setPlaceholder(new Label("No upstream servers."));
        scopeColumn.setCellValueFactory(c -> c.getValue().scope);
        addressColumn.setCellValueFactory(c -> c.getValue().address);
        failuresColumn.setCellValueFactory(c -> c.getValue().failures);
        rateColumn.setCellValueFactory(c -> Bindings.format(java.util.Locale.ROOT, "%.1f", c.getValue().perSecond));
        latencyColumn.setCellValueFactory(c -> c.getValue().latency);
        lastSuccessColumn.setCellValueFactory(c -> c.getValue().lastSuccess);
        lastFailureColumn.setCellValueFactory(c -> c.getValue().lastFailure);
        stateColumn.setCellValueFactory(c -> new javafx.beans.property.ReadOnlyObjectWrapper<>(c.getValue()));
        stateColumn.setCellFactory(col -> new DemotionCell());
        lookout.console.widgets.Rows.text(stateColumn, (UpstreamRow r) -> r.stateText());
        lookout.console.widgets.Headers.meaning(stateColumn, "OK; no answer yet (it has never answered); or DEMOTED with "
                + "the time its mark has left and why (30 s, renewed by each failure)");
        lookout.console.widgets.Headers.meaning(failuresColumn, "Attempts to this server that failed, since the engine started");
        lookout.console.widgets.Headers.meaning(rateColumn, "Questions sent to this server per second, over the last snapshot");
        lookout.console.widgets.Headers.meaning(latencyColumn, "Reply time, median and 99th percentile of recent replies");
        lookout.console.widgets.Headers.install(serverTable);
        lookout.console.widgets.Rows.table(serverTable, new lookout.console.widgets.Rows.Describer<>() {
            @Override
            public String title(UpstreamRow r) {
                return "Upstream server " + r.address() + " (scope " + r.scope() + ")";
            }

            @Override
            public String raw(UpstreamRow r) {
                return lookout.console.widgets.PlainWords.hasDetails(r.reason()) ? r.reason() : null;
            }
        }, java.util.List.of());

        zoneTable.setItems(vm.zones());
        zoneTable.setPlaceholder(new Label("No local zones."));
        zoneName.setCellValueFactory(c -> new javafx.beans.property.ReadOnlyStringWrapper(c.getValue().name()));
        zoneRecords.setCellValueFactory(c -> new javafx.beans.property.ReadOnlyStringWrapper(c.getValue().records()));
        zoneSerial.setCellValueFactory(c -> new javafx.beans.property.ReadOnlyStringWrapper(c.getValue().serial()));
        lookout.console.widgets.Headers.meaning(zoneRecords, "Resource records in the zone; DYNA/DYNC records"
                + " (answered by the weighted pools) counted and said in brackets");
        lookout.console.widgets.Headers.install(zoneTable);
        lookout.console.widgets.Rows.table(zoneTable, z -> "Local zone " + z.name(), java.util.List.of());
        typeBox.getItems().setAll("A", "AAAA", "CNAME", "TXT", "NS", "SOA", "MX", "PTR", "SRV");
        typeBox.getSelectionModel().select("A");
        nameField.setOnAction(e -> onResolve());
        traceArea.textProperty().bind(vm.traceProperty());
        resolveButton.disableProperty().bind(vm.runningProperty().not());
        whyButton.disableProperty().bind(vm.traceProperty().isEmpty());
        charts.getChildren().addAll(chart("Queries/s", vm.queryRate(), "queryChart"),
                chart("Upstream failures/s", vm.failureRate(), "failureChart"),
                chart("Refused/s", vm.refusedRate(), "refusedChart"));
    }

    /** A 10-minute chart, no animation (issue 7), redrawn once per new point (about once a second). */
    private static javafx.scene.chart.LineChart<Number, Number> chart(String title, RateHistory h, String id) {
        javafx.scene.chart.NumberAxis x = new javafx.scene.chart.NumberAxis(-RateHistory.POINTS, 0, 60);
        x.setLabel("seconds ago");
        x.setAnimated(false);
        javafx.scene.chart.NumberAxis y = new javafx.scene.chart.NumberAxis();
        y.setAnimated(false);
        y.setForceZeroInRange(true);
        javafx.scene.chart.LineChart<Number, Number> c = new javafx.scene.chart.LineChart<>(x, y);
        c.setId(id);
        c.setTitle(title);
        c.setAnimated(false);
        c.setCreateSymbols(false);
        c.setLegendVisible(false);
        c.setMinHeight(120);
        HBox.setHgrow(c, javafx.scene.layout.Priority.ALWAYS);
        javafx.scene.chart.XYChart.Series<Number, Number> series = new javafx.scene.chart.XYChart.Series<>();
        c.getData().add(series);
        h.samplesProperty().addListener((o, a, b) -> {
            java.util.List<javafx.scene.chart.XYChart.Data<Number, Number>> pts = new java.util.ArrayList<>(h.size());
            for (int i = 0; i < h.size(); i++) {
                pts.add(new javafx.scene.chart.XYChart.Data<>(i - h.size() + 1, h.get(i)));
            }
            series.getData().setAll(pts);
        });
        return c;
    }

    @FXML private Button whyButton;

    @FXML
    private void onWhy() {
        lookout.console.widgets.Why w = vm.why();
        if (w != null) {
            lookout.console.widgets.WhyPanel.show(traceArea, w);
        }
    }

    @FXML
    private void onResolve() {
        vm.resolve(nameField.getText(), typeBox.getValue());
    }

    /**
     * OK (neutral) or DEMOTED with a bar counting the 30-s mark down and the reason — advisory
     * colour, icon, text and border together.
     */
    private static final class DemotionCell extends TableCell<UpstreamRow, UpstreamRow> {
        private final Indicator indicator = new Indicator();
        private final Label label = new Label();
        private final ProgressBar bar = new ProgressBar();
        /** The countdown bar under the state, as wide as it: the state's text keeps the column's width (1280 px). */
        private final javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(2, label, bar);
        private UpstreamRow bound;
        private final javafx.beans.InvalidationListener refresh = o -> refresh();

        DemotionCell() {
            label.getStyleClass().add("indicator");
            IndicatorLabel.bind(label, indicator);
            box.setFillWidth(false);
            bar.prefWidthProperty().bind(label.widthProperty());
            label.setMinWidth(javafx.scene.control.Control.USE_PREF_SIZE);
            bar.getStyleClass().add("mark-bar");
        }

        @Override
        protected void updateItem(UpstreamRow row, boolean empty) {
            super.updateItem(row, empty);
            if (bound != null) {
                bound.demoted.removeListener(refresh);
                bound.markLeft.removeListener(refresh);
                bound.reason.removeListener(refresh);
                bound.answered.removeListener(refresh);
                bound.sent.removeListener(refresh);
            }
            bound = empty ? null : row;
            if (bound == null) {
                setGraphic(null);
                return;
            }
            bound.demoted.addListener(refresh);
            bound.markLeft.addListener(refresh);
            bound.reason.addListener(refresh);
            bound.answered.addListener(refresh);
            bound.sent.addListener(refresh);
            refresh();
            setGraphic(box);
        }

        private void refresh() {
            if (bound == null) {
                return;
            }
            boolean d = bound.demoted();
            bar.setVisible(d);
            bar.setManaged(d);
            bar.setProgress(d ? Math.min(1, bound.markLeft() / ResolverViewModel.MARK.toSeconds()) : 0);
            // never answered: not known to be OK — waiting while nothing was asked, advisory once it was
            Indicator.Level level = d ? Indicator.Level.ADVISORY : bound.answered() ? Indicator.Level.NORMAL
                    : bound.sent.get() > 0 ? Indicator.Level.ADVISORY : Indicator.Level.INACTIVE;
            indicator.set(bound.stateText(), level);
            setTooltip(d ? new javafx.scene.control.Tooltip(bound.stateText() + "\n"
                    + lookout.console.widgets.PlainWords.of(bound.reason())) : null);
        }
    }
}
