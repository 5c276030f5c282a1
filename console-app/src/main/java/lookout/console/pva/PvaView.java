package lookout.console.pva;

import java.io.IOException;
import java.util.function.Function;
import javafx.beans.value.ObservableValue;
import javafx.fxml.FXML;
import javafx.scene.Parent;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.IndicatorLabel;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.console.widgets.Fxml;

/** Controller of {@code PvaView.fxml}. */
public final class PvaView {

    private final PvaViewModel vm;

    @FXML private Label statusLabel;
    @FXML private Label detailLabel;
    @FXML private ComboBox<String> searchBox;
    @FXML private Button searchButton;
    @FXML private Button dropButton;
    @FXML private Button searchNowButton;
    @FXML private Button pingButton;
    @FXML private Label actionLabel;
    @FXML private HBox ringHolder;
    @FXML private Label ringLabel;
    @FXML private Label tickLabel;
    @FXML private TableView<ChannelRow> channelTable;
    @FXML private TableColumn<ChannelRow, String> chName;
    @FXML private TableColumn<ChannelRow, String> chOrigin;
    @FXML private TableColumn<ChannelRow, String> chState;
    @FXML private TableColumn<ChannelRow, Number> chAttempts;
    @FXML private TableColumn<ChannelRow, String> chNext;
    @FXML private TableColumn<ChannelRow, String> chBucket;
    @FXML private TableColumn<ChannelRow, String> chServer;
    @FXML private TableColumn<ChannelRow, String> chGuid;
    @FXML private Label serverCountLabel;
    @FXML private TextField serverFilterField;
    @FXML private TableView<ServerRow> serverTable;
    @FXML private TableColumn<ServerRow, String> svGuid;
    @FXML private TableColumn<ServerRow, String> svEndpoint;
    @FXML private TableColumn<ServerRow, String> svProtocol;
    @FXML private TableColumn<ServerRow, String> svFirst;
    @FXML private TableColumn<ServerRow, String> svLast;
    @FXML private TableColumn<ServerRow, String> svPeriod;
    @FXML private TableColumn<ServerRow, Number> svRestarts;
    @FXML private TableColumn<ServerRow, PvaDiscoveredServer.Status> svStatus;
    @FXML private Label ownServerLabel;
    @FXML private TextField subnetField;
    @FXML private TextField subnetPortField;
    @FXML private Button proposeButton;
    @FXML private Label readOnlyLabel;
    @FXML private ListView<String> duplicateList;
    @FXML private Label statusPvLabel;
    @FXML private TableView<StatusPvRow> statusPvTable;
    @FXML private TableColumn<StatusPvRow, String> spName;
    @FXML private TableColumn<StatusPvRow, String> spType;
    @FXML private TableColumn<StatusPvRow, String> spValue;
    @FXML private TableColumn<StatusPvRow, String> spAlarm;
    @FXML private TableColumn<StatusPvRow, Number> spMonitors;
    @FXML private TableColumn<StatusPvRow, String> spRule;

    public PvaView(PvaViewModel vm) {
        this.vm = vm;
    }

    public static Parent load(PvaViewModel vm) {
        return Fxml.load(new PvaView(vm));
    }

    private static <R, T> void column(TableColumn<R, T> c, Function<R, ObservableValue<T>> value) {
        c.setCellValueFactory(f -> value.apply(f.getValue()));
    }

    @FXML
    private void initialize() {
        statusLabel.getStyleClass().add("indicator");
        IndicatorLabel.bind(statusLabel, vm.status());
        detailLabel.textProperty().bind(vm.detailProperty());
        actionLabel.textProperty().bind(vm.actionMessageProperty());

        RingBars bars = new RingBars(vm);
        HBox.setHgrow(bars, Priority.ALWAYS);
        ringHolder.getChildren().add(bars);
        ringLabel.textProperty().bind(vm.ringTextProperty());
        tickLabel.textProperty().bind(vm.tickTextProperty());

        searchBox.setItems(vm.searchHistory());
        searchBox.getEditor().setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                onSearch();
            }
        });

        channelTable.setItems(vm.channels());
        channelTable.setPlaceholder(new Label("No channels: nothing watched or searched."));
        column(chName, r -> r.name);
        column(chOrigin, r -> r.origin);
        column(chState, r -> r.state);
        column(chAttempts, r -> r.attempts);
        chNext.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> ChannelRow.nextSearchText(f.getValue().nextSearchMillis.get()), f.getValue().nextSearchMillis));
        chBucket.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> ChannelRow.bucketText(f.getValue().bucket.get()), f.getValue().bucket));
        column(chServer, r -> r.server);
        column(chGuid, r -> r.guid);
        chState.setCellFactory(c -> indicatorCell(s -> "SEARCHING".equals(s) ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL));

        serverTable.setItems(vm.visibleServers());
        serverTable.setPlaceholder(new Label("No servers heard yet (beacons, discovery replies)."));
        serverFilterField.textProperty().bindBidirectional(vm.serverFilterProperty());
        serverCountLabel.textProperty().bind(vm.serverTextProperty());
        column(svGuid, r -> r.guid);
        column(svEndpoint, r -> r.endpoint);
        column(svProtocol, r -> r.protocol);
        svFirst.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> time(f.getValue().firstSeen.get()), f.getValue().firstSeen));
        svLast.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> time(f.getValue().lastSeen.get()), f.getValue().lastSeen));
        svPeriod.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> f.getValue().beaconPeriod.get() == null ? "" : PvaViewModel.seconds(f.getValue().beaconPeriod.get()),
                f.getValue().beaconPeriod));
        column(svRestarts, r -> r.restarts);
        column(svStatus, r -> r.status);
        svStatus.setCellFactory(c -> indicatorCell(s -> s == null ? Indicator.Level.NORMAL : switch (s) {
            case ONLINE -> Indicator.Level.NORMAL;
            case STALE -> Indicator.Level.ADVISORY;
            case OFFLINE -> Indicator.Level.ALARM;
        }));
        ownServerLabel.textProperty().bind(vm.ownServerTextProperty());
        subnetField.textProperty().bindBidirectional(vm.subnetAddressesProperty());
        subnetPortField.textProperty().bindBidirectional(vm.subnetPortProperty());
        duplicateList.setItems(vm.duplicateClaims());
        duplicateList.setPlaceholder(new Label("No duplicate PV claims."));
        for (Button b : new Button[] {searchButton, dropButton, searchNowButton, pingButton}) {
            b.disableProperty().bind(vm.runningProperty().not().or(vm.readOnlyProperty().isNotEmpty()));
        }
        lookout.console.widgets.ReadOnlyLabel.bind(readOnlyLabel, vm.readOnlyProperty());

        statusPvTable.setItems(vm.statusPvs());
        statusPvTable.setPlaceholder(new Label("No status PVs published."));
        statusPvLabel.textProperty().bind(vm.statusPvTextProperty());
        column(spName, r -> r.name);
        column(spType, r -> r.type);
        column(spValue, r -> r.value);
        column(spAlarm, r -> r.alarm);
        column(spMonitors, r -> r.monitors);
        column(spRule, r -> r.rule);
        spAlarm.setCellFactory(c -> indicatorCell(a -> a.startsWith("MAJOR") || a.startsWith("INVALID")
                ? Indicator.Level.ALARM : a.startsWith("MINOR") ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL));
    }

    private static String time(java.time.Instant t) {
        return t == null ? "" : PvaViewModel.TIME.format(t);
    }

    /** A cell that draws its value as an ISA-101 indicator (text + icon + border when abnormal). */
    private static <R, T> TableCell<R, T> indicatorCell(Function<T, Indicator.Level> level) {
        return new TableCell<>() {
            private final Indicator indicator = new Indicator();
            private final Label label = new Label();
            {
                label.getStyleClass().add("indicator");
                IndicatorLabel.bind(label, indicator);
            }

            @Override
            protected void updateItem(T v, boolean empty) {
                super.updateItem(v, empty);
                if (empty || v == null) {
                    setGraphic(null);
                    return;
                }
                indicator.set(v.toString(), level.apply(v));
                setGraphic(label);
            }
        };
    }

    @FXML
    private void onSearch() {
        String name = searchBox.getEditor().getText();
        vm.search(name);
        searchBox.getEditor().clear();
    }

    @FXML
    private void onDrop() {
        ChannelRow r = channelTable.getSelectionModel().getSelectedItem();
        String name = r != null ? r.name() : searchBox.getEditor().getText().strip();
        if (!name.isEmpty()) {
            vm.drop(name);
        }
    }

    @FXML
    private void onPropose() {
        vm.proposeSubnet();
    }

    @FXML
    private void onSearchNow() {
        vm.searchNow();
    }

    /** Discovery is passive by default (issue 7): a ping is sent only after the operator confirms. */
    @FXML
    private void onPing() {
        Alert a = new Alert(Alert.AlertType.CONFIRMATION,
                "Send one discovery ping to every search destination? Every PVA server that hears it answers.");
        a.setHeaderText("Discovery ping");
        if (pingButton.getScene() != null) {
            a.initOwner(pingButton.getScene().getWindow());
        }
        ((Button) a.getDialogPane().lookupButton(ButtonType.OK)).setId("confirmPing");
        a.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> vm.discoveryPing());
    }
}
