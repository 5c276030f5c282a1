package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
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
 * Issue 17 item 4: at 1280 × 800 with abnormal badges showing, nothing in the summary strip, the
 * status bar or a table header is cut to "…".
 */
@ExtendWith(ApplicationExtension.class)
class CutOffFXTest {

    private TestConsole console;
    private ConsoleWindow window;
    private Stage stage;
    private Path dir;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        // three listen addresses: the resolver's detail line is long enough to wrap at 1280
        ConfigResult initial = console.parse(TestConsole.with(
                "  scopes => { corp => { domains => [ corp.test. ], servers => [ 127.0.0.1:9 ] } }\n",
                PoolsPaneFXTest.POOLS).replace("listen => [ 127.0.0.1:0 ]",
                "listen => [ 127.0.0.1:0, 127.0.0.2:0, 127.0.0.3:0 ]"), dir);
        assertThat(initial.problems()).isEmpty();
        window = console.open(initial, stage);
    }

    /** The window at 1280 × 800, a control room's side monitor (after the window's own first sizing). */
    private void at1280(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> {
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    /** Every labelled node under {@code root} whose text is drawn cut ("Pools: 0 OK / 1 in FAILOV…"). */
    private static List<String> cut(Node root) {
        List<String> out = new ArrayList<>();
        if (root.getScene() != null) {
            // a label's drawn text follows its text at the next layout: lay out first, so that a
            // text set since (the status bar's "Data: N ms old") is not taken for a cut one
            root.getScene().getRoot().applyCss();
            root.getScene().getRoot().layout();
        }
        for (Node n : all(root, new ArrayList<>())) {
            if (n instanceof Labeled l && l.isVisible() && l.getText() != null && !l.getText().isEmpty()) {
                for (Node t : l.getChildrenUnmodifiable()) {
                    String want = l.isMnemonicParsing() ? l.getText().replaceFirst("_", "") : l.getText();
                    if (t instanceof Text text && !text.getText().equals(want)
                            && !text.getText().replace("\n", " ").equals(want.replace("\n", " "))
                            && !l.isWrapText()) {
                        out.add(l.getText() + " drawn as " + text.getText());
                    }
                }
            }
        }
        return out;
    }

    private static List<Node> all(Node n, List<Node> out) {
        out.add(n);
        if (n instanceof javafx.scene.Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                all(c, out);
            }
        }
        return out;
    }

    @Test
    void atTwelveEightyTheSummaryStripAndStatusBarKeepTheirWholeTextWithAnAlarmShowing(FxRobot robot) throws Exception {
        at1280(robot);
        console.engine.force("weighted!pool", "DOWN", null).get(10, TimeUnit.SECONDS);
        // a rejected reload: an advisory badge with a long first problem
        console.engine.reload("resolver => { listen => [ 127.0.0.1:0 ], cache_sise => 1 }", "bad.conf", dir);
        robot.interact(() -> window.mainViewModel().onConnection("the engine did not answer for 12 s", null));
        waitFor(() -> robot.lookup("#summaryPools").queryAs(Label.class).getText().contains("FAILOVER"));
        waitFor(() -> robot.lookup("#summaryConfig").queryAs(Label.class).getText().contains("rejected"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> stage.getWidth())).isEqualTo(1280.0);
        assertThat(robot.lookup("#summaryPools").query().getStyleClass()).contains("level-advisory");
        assertThat(robot.lookup("#statusConnection").query().getStyleClass()).contains("level-alarm");
        assertThat(fx(() -> cut(robot.lookup("#summaryStrip").query()))).isEmpty();
        assertThat(fx(() -> cut(robot.lookup("#statusBar").query()))).isEmpty();
    }

    @Test
    void tableHeadersAreNotCutAtTwelveEighty(FxRobot robot) throws Exception {
        at1280(robot);
        for (String pane : List.of(ConsoleWindow.RESOLVER, ConsoleWindow.POOLS, ConsoleWindow.PVA, ConsoleWindow.EVENTS)) {
            robot.interact(() -> window.mainView().select(pane));
            WaitForAsyncUtils.waitForFxEvents();
            List<String> headers = fx(() -> {
                List<String> out = new ArrayList<>();
                for (Node h : window.scene().getRoot().lookupAll(".column-header")) {
                    if (PaneShown.of(h)) {
                        out.addAll(cut(h));
                    }
                }
                return out;
            });
            assertThat(headers).as(pane + " headers").isEmpty();
        }
    }

    @Test
    void paneTitlesAndStatesAreNotCutByALongDetailAtTwelveEighty(FxRobot robot) throws Exception {
        at1280(robot);
        Map<String, String> status = Map.of(ConsoleWindow.RESOLVER, "#resolverStatus", ConsoleWindow.POOLS, "#poolsStatus",
                ConsoleWindow.PVA, "#pvaStatus");
        waitFor(() -> robot.lookup("#resolverDetail").queryAs(Label.class).getText().contains("127.0.0.3:"));
        for (var pane : status.entrySet()) {
            robot.interact(() -> window.mainView().select(pane.getKey()));
            WaitForAsyncUtils.waitForFxEvents();
            Label state = robot.lookup(pane.getValue()).queryAs(Label.class);
            waitFor(() -> fx(() -> !state.getText().isEmpty()));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(() -> cut(state.getParent()))).as(pane.getKey() + " header").isEmpty();
        }
        // the resolver's detail is the long one: it wraps beside a title and state drawn whole
        assertThat(fx(() -> {
            Label detail = robot.lookup("#resolverDetail").queryAs(Label.class);
            return detail.getHeight() / detail.prefHeight(-1); // its height in lines of its own
        })).isGreaterThan(1.8);
    }

    /** Whether a node is on the pane shown now. */
    static final class PaneShown {
        static boolean of(Node n) {
            for (Node p = n; p != null; p = p.getParent()) {
                if (!p.isVisible()) {
                    return false;
                }
            }
            return true;
        }
    }
}
