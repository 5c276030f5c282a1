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
    @FXML private TableColumn<ServerRow, String> svStatus;
    @FXML private javafx.scene.control.TextArea ownServerText;
    @FXML private javafx.scene.control.Tab channelsTab;
    @FXML private javafx.scene.control.Tab serversTab;
    @FXML private javafx.scene.control.Tab ownTab;
    @FXML private javafx.scene.control.Tab statusPvTab;
    @FXML private Button whyButton;
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

        RingBars bars = new RingBars(vm);
        HBox.setHgrow(bars, Priority.ALWAYS);
        ringHolder.getChildren().add(bars);
        channelsTab.textProperty().bind(vm.channelsTitleProperty());
        serversTab.textProperty().bind(vm.serversTitleProperty());
        ownTab.textProperty().bind(vm.ownTitleProperty());
        statusPvTab.textProperty().bind(vm.statusPvsTitleProperty());
        ringLabel.textProperty().bind(vm.ringTextProperty());
        tickLabel.textProperty().bind(vm.tickTextProperty());

        searchBox.setItems(vm.searchHistory());
        // a filter: the editable combo box's own handling consumes Enter before a handler on its
        // editor sees it (issue 17 item 6)
        searchBox.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ENTER && !e.isAltDown() && !e.isShortcutDown()) {
                e.consume();
                searchBox.hide();
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
        svStatus.setCellValueFactory(f -> javafx.beans.binding.Bindings.createStringBinding(
                () -> f.getValue().stateText(), f.getValue().status, f.getValue().own));
        svStatus.setCellFactory(c -> indicatorCell(s -> s.startsWith("OFFLINE") ? Indicator.Level.ALARM
                : s.startsWith("STALE") ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL));
        chState.setCellFactory(c -> indicatorCell(s -> s.startsWith("SEARCHING") ? Indicator.Level.ADVISORY
                : s.startsWith("STOPPING") ? Indicator.Level.INACTIVE : Indicator.Level.NORMAL));
        lookout.console.widgets.Headers.meaning(chAttempts, "Searches in the current back-off (up to 30, then one a revolution)");
        lookout.console.widgets.Headers.meaning(chBucket, "Where the PV waits in the 30-bucket search ring");
        lookout.console.widgets.Headers.meaning(svPeriod, "Time between the server's last beacons, as heard here");
        lookout.console.widgets.Headers.install(channelTable);
        lookout.console.widgets.Headers.install(serverTable);
        lookout.console.widgets.Rows.table(channelTable, r -> "PV " + r.name(), java.util.List.of(
                new lookout.console.widgets.Rows.Action<>("Why?", new javafx.scene.input.KeyCodeCombination(KeyCode.W,
                        javafx.scene.input.KeyCombination.SHORTCUT_DOWN), this::why),
                new lookout.console.widgets.Rows.Action<>("Stop searching", null, r -> vm.drop(r.name()))));
        lookout.console.widgets.Rows.table(serverTable, r -> "PVA server " + r.endpoint(), java.util.List.of());
        lookout.console.widgets.Rows.list(duplicateList);
        ownServerText.textProperty().bind(vm.ownServerTextProperty());
        ownServerText.getStyleClass().add("selectable-text");
        javafx.scene.control.MenuItem copyAll = new javafx.scene.control.MenuItem("Copy");
        copyAll.setOnAction(e -> lookout.console.widgets.Rows.toClipboard(ownServerText.getSelectedText().isEmpty()
                ? ownServerText.getText() : ownServerText.getSelectedText()));
        javafx.scene.control.MenuItem copyGuid = new javafx.scene.control.MenuItem("Copy GUID");
        copyGuid.setOnAction(e -> lookout.console.widgets.Rows.toClipboard(vm.ownGuid()));
        copyGuid.disableProperty().bind(vm.ownServerTextProperty().isEmpty());
        ownServerText.setContextMenu(new javafx.scene.control.ContextMenu(copyAll, copyGuid));
        subnetField.textProperty().bindBidirectional(vm.subnetAddressesProperty());
        subnetPortField.textProperty().bindBidirectional(vm.subnetPortProperty());
        duplicateList.setItems(vm.duplicateClaims());
        duplicateList.setPlaceholder(new Label("No duplicate PV claims."));
        lookout.console.widgets.NoteLabel.bind(actionLabel, vm.actionNote());
        whyButton.disableProperty().bind(channelTable.getSelectionModel().selectedItemProperty().isNull()
                .and(javafx.beans.binding.Bindings.isEmpty(vm.searchHistory()))
                .and(searchBox.getEditor().textProperty().isEmpty()));
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
        // the engine writes these texts (alarm messages, rules): the table scrolls sideways and
        // each column widens to its longest, rather than cutting them
        for (TableColumn<StatusPvRow, String> c : java.util.List.of(spName, spType, spValue, spRule)) {
            c.setCellFactory(lookout.console.widgets.Columns.fitting());
        }
        spAlarm.setCellFactory(c -> indicatorCell(a -> a.startsWith("MAJOR") || a.startsWith("INVALID")
                ? Indicator.Level.ALARM : a.startsWith("MINOR") ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL, true));
    }

    private static String time(java.time.Instant t) {
        return lookout.console.widgets.Times.clock(t);
    }

    /** Why? of the selected PV, else of the name in the box, else of the last one searched. */
    @FXML
    private void onWhy() {
        ChannelRow r = channelTable.getSelectionModel().getSelectedItem();
        String typed = searchBox.getEditor().getText() == null ? "" : searchBox.getEditor().getText().strip();
        String name = r != null ? r.name() : !typed.isEmpty() ? typed
                : vm.searchHistory().isEmpty() ? null : vm.searchHistory().get(0);
        if (name != null) {
            why(name);
        }
    }

    private void why(ChannelRow r) {
        why(r.name());
    }

    private void why(String name) {
        lookout.console.widgets.WhyPanel.show(channelTable, () -> vm.why(name));
    }

    /** A cell that draws its value as an ISA-101 indicator (text + icon + border when abnormal). */
    private static <R, T> TableCell<R, T> indicatorCell(Function<T, Indicator.Level> level) {
        return indicatorCell(level, false);
    }

    /** @param fit widen the column to the indicator (a table that scrolls sideways: {@link lookout.console.widgets.Columns}) */
    private static <R, T> TableCell<R, T> indicatorCell(Function<T, Indicator.Level> level, boolean fit) {
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
                if (fit && getScene() != null) {
                    label.applyCss();
                    lookout.console.widgets.Columns.fit(this, label.prefWidth(-1));
                }
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
