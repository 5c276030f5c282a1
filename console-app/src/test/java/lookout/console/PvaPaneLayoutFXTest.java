package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 24 part 2: the PVA pane at 1280 × 800, in the default layout, with more rows than fit in
 * each table (eight watched PVs, seven servers beaconing, the engine's 21 status PVs): each table
 * shows at least five whole rows, and nothing in the pane is drawn cut ("…", or a cell's text
 * running past its cell) — the own server's line included.
 */
@ExtendWith(ApplicationExtension.class)
class PvaPaneLayoutFXTest {

    static final List<String> TABLES = List.of("#channelTable", "#serverTable", "#statusPvTable");
    static final int SERVERS = 7;

    private TestConsole console;
    private ConsoleWindow window;
    private Stage stage;
    private int beaconPort;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        StringBuilder watch = new StringBuilder();
        for (int i = 1; i <= 8; i++) {
            watch.append(" \"fx:layout:").append(i).append('"');
        }
        String text = TestConsole.with("", "status => { pv_prefix => \"FX:LAYOUT:\" }\n")
                .replace("  server => { enable => false }",
                        "  server => { enable => true, name_server => true }\n  watch => [" + watch + " ]");
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

    /** Seven servers beaconing to the engine's port, the status PVs published, the channels listed. */
    private void fill(FxRobot robot) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < SERVERS; i++) {
                byte[] d = PvaPaneFXTest.beacon((byte) (0x20 + i), 0, 6100 + i);
                s.send(new DatagramPacket(d, d.length, InetAddress.getLoopbackAddress(), beaconPort));
            }
        }
        for (int i = 0; i < 3; i++) {
            console.scheduler.advance(Duration.ofMillis(1100));
            WaitForAsyncUtils.waitForFxEvents();
        }
        Map<String, Integer> want = Map.of("#channelTable", 8, "#serverTable", SERVERS, "#statusPvTable", 21);
        for (String id : TABLES) {
            TableView<?> t = robot.lookup(id).queryAs(TableView.class);
            try {
                waitFor(() -> fx(() -> t.getItems().size() >= want.get(id)));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(id + " holds " + fx(() -> t.getItems().size()) + " rows", e);
            }
        }
        robot.interact(() -> {
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Brings {@code n} into view as an operator would: selects the tab holding it, if it is in one. */
    static void show(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p instanceof TabPane tabs) {
                for (Tab tab : tabs.getTabs()) {
                    if (tab.getContent() != null && contains(tab.getContent(), n)) {
                        tabs.getSelectionModel().select(tab);
                    }
                }
            }
        }
    }

    private static boolean contains(Node ancestor, Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p == ancestor) {
                return true;
            }
        }
        return false;
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null;
    }

    /** The rows of {@code t} drawn whole: inside the table's viewport and inside the window. */
    static int fullRows(TableView<?> t) {
        if (!shown(t)) {
            return 0;
        }
        Node clip = t.lookup(".clipped-container");
        Bounds view = clip.localToScene(clip.getLayoutBounds());
        double sceneHeight = t.getScene().getHeight();
        int n = 0;
        for (Node r : t.lookupAll(".table-row-cell")) {
            if (r instanceof TableRow<?> row && row.getItem() != null && row.isVisible()) {
                Bounds b = row.localToScene(row.getLayoutBounds());
                if (b.getMinY() >= view.getMinY() - 0.5 && b.getMaxY() <= view.getMaxY() + 0.5
                        && b.getMaxY() <= sceneHeight + 0.5 && b.getHeight() > 1) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Text under {@code root} that is shown cut: a label drawn with an ellipsis, or a label inside
     * a table cell that runs past the cell's edge (the cell clips it without an ellipsis).
     */
    static List<String> cut(Node root) {
        List<String> out = new ArrayList<>();
        if (root.getScene() != null) {
            // a label's drawn text follows its text at the next layout: lay out first, so that a
            // text set since (the status bar's "Data: N ms old") is not taken for a cut one
            root.getScene().getRoot().applyCss();
            root.getScene().getRoot().layout();
        }
        List<Node> all = new ArrayList<>();
        collect(root, all);
        for (Node n : all) {
            if (!(n instanceof Labeled l) || !shown(l) || l.getText() == null || l.getText().isEmpty()) {
                continue;
            }
            String want = l.isMnemonicParsing() ? l.getText().replaceFirst("_", "") : l.getText();
            for (Node c : l.getChildrenUnmodifiable()) {
                if (c instanceof Text text && !fold(text.getText()).equals(fold(want))) {
                    out.add("\"" + want + "\" drawn as \"" + text.getText() + "\"");
                }
            }
            TableCell<?, ?> cell = cellOf(l);
            if (cell != null) {
                Bounds b = l.localToScene(l.getLayoutBounds());
                Bounds cb = cell.localToScene(cell.getLayoutBounds());
                if (cell != l && b.getMaxX() > cb.getMaxX() + 0.5) {
                    out.add("\"" + want + "\" runs " + Math.round(b.getMaxX() - cb.getMaxX()) + " px past its cell");
                }
                // begun in the table's view and running out of it: the table cuts it at its edge
                Node clip = cell.getTableView() == null ? null : cell.getTableView().lookup(".clipped-container");
                Bounds v = clip == null ? null : clip.localToScene(clip.getLayoutBounds());
                if (v != null && b.getMinX() < v.getMaxX() && b.getMaxX() > v.getMaxX() + 0.5) {
                    out.add("\"" + want + "\" runs " + Math.round(b.getMaxX() - v.getMaxX()) + " px past the table's edge");
                }
            }
        }
        return out;
    }

    private static TableCell<?, ?> cellOf(Node n) {
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof TableCell<?, ?> c) {
                return c;
            }
        }
        return null;
    }

    private static String fold(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static void collect(Node n, List<Node> out) {
        out.add(n);
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, out);
            }
        }
    }

    @Test
    void everyTableShowsFiveWholeRowsAndNothingIsCutAtTwelveEighty(FxRobot robot) throws Exception {
        fill(robot);
        assertThat(fx(() -> stage.getWidth())).isEqualTo(1280.0);
        Node pane = robot.lookup("#pvaStatus").query();
        while (pane.getParent() != null && !pane.getStyleClass().contains("pane-body")) {
            pane = pane.getParent();
        }
        Node root = pane;
        Map<String, Integer> rows = new LinkedHashMap<>();
        List<String> cut = new ArrayList<>();
        for (String id : TABLES) {
            TableView<?> t = robot.lookup(id).queryAs(TableView.class);
            robot.interact(() -> show(t));
            WaitForAsyncUtils.waitForFxEvents();
            rows.put(id, fx(() -> fullRows(t)));
            cut.addAll(fx(() -> cut(root)));
        }
        // the ring above them, whole: every bar's slot drawn at its full height, inside the window
        assertThat(fx(() -> {
            Node bar = robot.lookup("#ringBar29").query().getParent();
            Bounds b = bar.localToScene(bar.getLayoutBounds());
            return shown(bar) && b.getHeight() >= ((javafx.scene.layout.Region) bar).getMinHeight() - 0.5
                    && b.getMaxY() <= bar.getScene().getHeight();
        })).as("the search ring is drawn whole").isTrue();
        assertThat(rows).as("whole rows shown at 1280 x 800").allSatisfy((id, n) -> assertThat(n).as(id)
                .isGreaterThanOrEqualTo(5));
        // the own server's details, wherever the pane keeps them, drawn whole
        Node own = robot.lookup("#ownServer").query();
        robot.interact(() -> show(own));
        WaitForAsyncUtils.waitForFxEvents();
        String ownText = fx(() -> CopyFXTest.textOf(own));
        assertThat(ownText).contains("GUID ").contains("searches ");
        assertThat(fx(() -> shown(own) && wholeText(own))).as("own server drawn whole: " + ownText).isTrue();
        cut.addAll(fx(() -> cut(root)));
        assertThat(cut).as("text drawn cut in the PVA pane").isEmpty();
    }

    /** A text control shows all of its text: no horizontal scrolling needed, every line in view. */
    private static boolean wholeText(Node n) {
        if (n instanceof javafx.scene.control.TextArea a) {
            Node content = a.lookup(".content");
            return a.isWrapText() && content != null
                    && content.getLayoutBounds().getHeight() <= a.getHeight() + 0.5;
        }
        if (n instanceof javafx.scene.control.TextField f) {
            Text t = new Text(f.getText());
            t.setFont(f.getFont());
            return t.getLayoutBounds().getWidth() + f.getPadding().getLeft() + f.getPadding().getRight() <= f.getWidth();
        }
        return n instanceof Labeled l && cut(l).isEmpty();
    }
}
