package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import lookout.console.pva.PvaViewModel;
import lookout.console.pva.ServerRow;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 7: a server beaconing on loopback appears ONLINE and, once its beacons stop, goes
 * OFFLINE in virtual time (seed 002 §7: lost after 360 s without word); the ring bars add up to
 * the searching count. Everything on 127.0.0.1, ports picked free, auto address lists off.
 */
@ExtendWith(ApplicationExtension.class)
class PvaPaneFXTest {

    private static final byte[] GUID = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, (byte) 0x88, (byte) 0x99, 0x0a, 0x0b, 0x0c};

    private TestConsole console;
    private ConsoleWindow window;
    private int beaconPort;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        String text = TestConsole.with("", "").replace("  server => { enable => false }",
                "  server => { enable => false }\n  watch => [ \"fx:test:1\", \"fx:test:2\", \"fx:test:3\" ]");
        ConfigResult initial = console.parse(text, dir);
        assertThat(initial.problems()).isEmpty();
        beaconPort = initial.config().pva().broadcastPort();
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.PVA);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    /** A CMD_BEACON (seed 002 §2), big-endian: header, GUID, flags, sequence, change count, address, port, "tcp", null status. */
    static byte[] beacon(int sequence, int tcpPort) {
        return beacon(GUID[0], sequence, tcpPort);
    }

    /** The same, from the server whose GUID starts with {@code first} (the rest as {@link #GUID}). */
    static byte[] beacon(byte first, int sequence, int tcpPort) {
        byte[] guid = GUID.clone();
        guid[0] = first;
        ByteBuffer b = ByteBuffer.allocate(8 + 39);
        b.put((byte) 0xCA).put((byte) 2).put((byte) 0xC0).put((byte) 0x00).putInt(39);
        b.put(guid).put((byte) 0).put((byte) sequence).putShort((short) 0);
        b.put(new byte[10]).put((byte) 0xFF).put((byte) 0xFF).put(new byte[] {127, 0, 0, 1});
        b.putShort((short) tcpPort);
        b.put((byte) 3).put("tcp".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        b.put((byte) 0xFF);
        return b.array();
    }

    @Test
    void aBeaconingServerIsOnlineThenOfflineAfterItsBeaconsStop(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<ServerRow> servers = robot.lookup("#serverTable").queryAs(TableView.class);
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 3; i++) {
                byte[] d = beacon(i, 5075);
                s.send(new DatagramPacket(d, d.length, InetAddress.getLoopbackAddress(), beaconPort));
            }
        }
        waitFor(() -> fx(() -> !servers.getItems().isEmpty()));
        ServerRow row = fx(() -> servers.getItems().get(0));
        assertThat(row.guid()).isEqualToIgnoringCase("112233445566778899 0a0b0c".replace(" ", ""));
        assertThat(row.endpoint()).isEqualTo("127.0.0.1:5075");
        waitFor(() -> fx(() -> row.status() == PvaDiscoveredServer.Status.ONLINE));

        // No more beacons: STALE after a missed 180-s beacon, lost (OFFLINE) after 360 s.
        console.scheduler.advance(Duration.ofSeconds(200));
        waitFor(() -> fx(() -> row.status() == PvaDiscoveredServer.Status.STALE));
        console.scheduler.advance(Duration.ofSeconds(400));
        waitFor(() -> fx(() -> row.status() == PvaDiscoveredServer.Status.OFFLINE));
        assertThat(fx(() -> servers.getItems().get(0))).isSameAs(row);
        assertThat(robot.lookup("#serverCount").queryAs(Label.class).getText()).startsWith("0 online · 0 stale · 1 offline");
    }

    private static javafx.scene.control.Button button(FxRobot robot, String textStart) {
        return robot.lookup((javafx.scene.Node n) -> n instanceof javafx.scene.control.Button b && b.getText() != null
                && b.getText().replace("_", "").startsWith(textStart)).queryAs(javafx.scene.control.Button.class);
    }

    /** The State cell of the channel row named {@code name} as drawn, or null when the row is not shown. */
    private static String shownState(TableView<?> table, String name) throws Exception {
        // the row brought into view first, as an operator scrolls to it (the pane also lists the
        // status PVs, so the channel table may show fewer rows than it holds)
        fx(() -> {
            @SuppressWarnings("unchecked")
            TableView<Object> t = (TableView<Object>) table;
            t.getItems().stream().filter(i -> i instanceof lookout.console.pva.ChannelRow r && r.name().equals(name))
                    .findFirst().ifPresent(t::scrollTo);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> {
            for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
                if (n instanceof javafx.scene.control.TableCell<?, ?> cell && "State".equals(cell.getTableColumn().getText())
                        && cell.getTableRow() != null && cell.getTableRow().getItem() instanceof lookout.console.pva.ChannelRow r
                        && r.name().equals(name)) {
                    for (javafx.scene.Node l : cell.lookupAll(".label")) {
                        if (l instanceof Label label && label.getText() != null && !label.getText().isEmpty()) {
                            return label.getText();
                        }
                    }
                    return "";
                }
            }
            return null;
        });
    }

    /** Issue 17 item 6: Enter in the PV box searches, as the README says. */
    @Test
    void enterInThePvBoxSearches(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<lookout.console.pva.ChannelRow> channels = robot.lookup("#channelTable").queryAs(TableView.class);
        robot.clickOn("#pvSearch").write("fx:enter:1");
        robot.press(javafx.scene.input.KeyCode.ENTER).release(javafx.scene.input.KeyCode.ENTER);
        waitFor(() -> fx(() -> channels.getItems().stream().anyMatch(r -> r.name().equals("fx:enter:1"))));
        assertThat(fx(() -> window.pvaViewModel().searchHistory())).contains("fx:enter:1");
    }

    /**
     * Issue 17 item 3: "Stop searching" shows the truth — a stopped PV reads STOPPING until the
     * engine lets it go (then its row goes), and a PV the configuration watches is said to stay.
     */
    @Test
    void stopSearchingShowsWhatBecomesOfThePv(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<lookout.console.pva.ChannelRow> channels = robot.lookup("#channelTable").queryAs(TableView.class);
        robot.interact(() -> window.pvaViewModel().search("fx:stop:1"));
        try {
            waitFor(() -> "SEARCHING".equals(shownState(channels, "fx:stop:1")));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("fx:stop:1 shows " + shownState(channels, "fx:stop:1") + " rows "
                    + fx(() -> channels.getItems().stream().map(r -> r.name() + "=" + r.state()).toList()), e);
        }
        robot.interact(() -> channels.getSelectionModel().select(
                channels.getItems().stream().filter(r -> r.name().equals("fx:stop:1")).findFirst().orElseThrow()));
        robot.clickOn(button(robot, "Stop searching"));
        waitFor(() -> String.valueOf(shownState(channels, "fx:stop:1")).startsWith("STOPPING"));
        assertThat(robot.lookup("#pvaAction").queryAs(Label.class).getText()).contains("fx:stop:1");
        // the engine lets an unreferenced channel go within two 10-s sweeps
        for (int i = 0; i < 3; i++) {
            console.scheduler.advance(Duration.ofSeconds(11));
        }
        waitFor(() -> fx(() -> channels.getItems().stream().noneMatch(r -> r.name().equals("fx:stop:1"))));

        // a watched PV stays: the pane says why instead of claiming it stopped
        robot.interact(() -> channels.getSelectionModel().select(
                channels.getItems().stream().filter(r -> r.name().equals("fx:test:2")).findFirst().orElseThrow()));
        robot.clickOn(button(robot, "Stop searching"));
        waitFor(() -> robot.lookup("#pvaAction").queryAs(Label.class).getText().contains("pva.watch"));
        assertThat(robot.lookup("#pvaAction").queryAs(Label.class).getText()).doesNotStartWith("Stopped");
        console.scheduler.advance(Duration.ofSeconds(25));
        waitFor(() -> "SEARCHING".equals(shownState(channels, "fx:test:2")));
    }

    @Test
    void ringBarsAddUpToTheSearchingCount(FxRobot robot) throws Exception {
        PvaViewModel vm = window.pvaViewModel();
        // The first search is coalesced (10 ms), then the channels sit in the ring: let it run a few
        // ticks (virtual time runs them on this thread); the UI's polls are waited on below.
        for (int i = 0; i < 5; i++) {
            console.scheduler.advance(Duration.ofMillis(1100));
        }
        waitFor(() -> fx(() -> vm.searchingProperty().get() == 3 && vm.ringTotalProperty().get() == 3));
        long sum = fx(() -> {
            long n = 0;
            for (int i = 0; i < PvaViewModel.RING_BUCKETS; i++) {
                Label count = (Label) robot.lookup("#ringBar" + i).query().getParent().getParent().getChildrenUnmodifiable().get(1);
                n += Long.parseLong(count.getText());
            }
            return n;
        });
        assertThat(sum).isEqualTo(3);
        assertThat(robot.lookup("#ringText").queryAs(Label.class).getText()).startsWith("3 searching");
    }
}
