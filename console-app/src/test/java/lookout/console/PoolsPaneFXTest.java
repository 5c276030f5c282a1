package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import lookout.console.pools.PoolRow;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Issue 7: forcing an address DOWN changes its odds (computed by the engine, seed 001) and, once
 * the live weight drops below {@code ceil(16 × 0.25) = 4}, the family shows FAILOVER.
 */
@ExtendWith(ApplicationExtension.class)
class PoolsPaneFXTest {

    static final String POOLS = """
            plugins => {
              weighted => {
                up_thresh => 0.25
                pool => {
                  a = [ 127.0.0.11, 10 ]
                  b = [ 127.0.0.12, 5 ]
                  c = [ 127.0.0.13, 1 ]
                }
              }
            }
            """;

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        ConfigResult initial = console.parse(TestConsole.with("", POOLS), dir);
        assertThat(initial.problems()).isEmpty();
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.POOLS);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    private static TreeItem<PoolRow> find(TreeItem<PoolRow> from, PoolRow.Kind kind, String name) {
        for (TreeItem<PoolRow> c : from.getChildren()) {
            if (c.getValue().kind() == kind && c.getValue().name().equals(name)) {
                return c;
            }
            TreeItem<PoolRow> deeper = find(c, kind, name);
            if (deeper != null) {
                return deeper;
            }
        }
        return null;
    }

    private void force(FxRobot robot, TreeTableView<PoolRow> tree, String item) throws Exception {
        confirmed(robot, tree, PoolRow.Kind.ITEM, item, "#forceDown");
    }

    /** Selects a line, presses {@code button} and confirms. */
    private void confirmed(FxRobot robot, TreeTableView<PoolRow> tree, PoolRow.Kind kind, String name, String button)
            throws Exception {
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), kind, name)));
        robot.clickOn(button);
        waitFor(() -> robot.lookup("#confirmForce").tryQuery().isPresent());
        robot.clickOn("#confirmForce");
    }

    /** The odds an Odds cell shows for the line named {@code name} (read from the cell on screen, not the model). */
    private static String shownOdds(TreeTableView<PoolRow> tree, String name) throws Exception {
        return fx(() -> {
            for (javafx.scene.Node n : tree.lookupAll(".tree-table-cell")) {
                if (n instanceof javafx.scene.control.TreeTableCell<?, ?> cell && "Odds".equals(cell.getTableColumn().getText())
                        && cell.getTableRow() != null && cell.getTableRow().getItem() instanceof PoolRow r
                        && r.name().equals(name) && cell.isVisible()) {
                    for (javafx.scene.Node l : cell.lookupAll(".label")) {
                        if (l instanceof Label label && label.getText() != null && label.getText().endsWith("%")) {
                            return label.getText();
                        }
                    }
                    return "";
                }
            }
            return null;
        });
    }

    /**
     * Issue 17 item 1: the Odds cells on screen follow the engine's odds when an address is forced
     * DOWN and released (the model was right; the cells never learnt the odds had changed).
     */
    @Test
    void theOddsCellsOnScreenFollowAForcedStateAndItsRelease(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        try {
            waitFor(() -> "31.3 %".equals(shownOdds(tree, "b")));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("b shows " + shownOdds(tree, "b"), e);
        }
        assertThat(shownOdds(tree, "a")).isEqualTo("62.5 %");

        force(robot, tree, "a");
        waitFor(() -> "83.3 %".equals(shownOdds(tree, "b")));
        assertThat(shownOdds(tree, "a")).isEqualTo("0.0 %");
        assertThat(shownOdds(tree, "c")).isEqualTo("16.7 %");

        confirmed(robot, tree, PoolRow.Kind.ITEM, "a", "#release");
        waitFor(() -> "31.3 %".equals(shownOdds(tree, "b")));
        assertThat(shownOdds(tree, "a")).isEqualTo("62.5 %");
    }

    @Test
    void forcingAddressesDownChangesTheOddsThenFailover(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        waitFor(() -> fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a") != null));
        PoolRow a = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a").getValue());
        PoolRow b = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "b").getValue());
        PoolRow family = fx(() -> find(tree.getRoot(), PoolRow.Kind.FAMILY, "ipv4").getValue());
        assertThat(fx(a::odds)).isCloseTo(10 / 16.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(fx(family::failover)).isFalse();

        force(robot, tree, "a");
        waitFor(() -> fx(() -> a.effective().equals("DOWN") && Math.abs(b.odds() - 5 / 6.0) < 1e-9));
        assertThat(fx(a::forced)).startsWith("DOWN");
        assertThat(fx(a::odds)).isZero();
        assertThat(fx(family::failover)).as("live 6 >= up_weight 4: no failover").isFalse();

        // live weight 1 < up_weight 4: failover, every address answered as if UP (seed 001)
        force(robot, tree, "b");
        waitFor(() -> fx(family::failover));
        assertThat(fx(family::effective)).isEqualTo("FAILOVER");
        waitFor(() -> robot.lookup("#poolsStatus").queryAs(Label.class).getText().contains("FAILOVER"));
        assertThat(robot.lookup("#poolsStatus").query().getStyleClass()).contains("level-advisory");
        waitFor(() -> robot.lookup("#summaryPools").queryAs(Label.class).getText().equals("Pools: 0 OK / 1 in FAILOVER"));
        waitFor(() -> fx(() -> Math.abs(a.odds() - 10 / 16.0) < 1e-9));
    }

    /** admin_state's {@code weighted!NAME}: the whole resource forced, its monitors ignored, kept apart from address states. */
    @Test
    void forcingAWholeResourceDownPutsItInFailoverAndReleasingRestoresIt(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        waitFor(() -> fx(() -> find(tree.getRoot(), PoolRow.Kind.RESOURCE, "pool") != null));
        PoolRow pool = fx(() -> find(tree.getRoot(), PoolRow.Kind.RESOURCE, "pool").getValue());
        PoolRow a = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a").getValue());
        PoolRow family = fx(() -> find(tree.getRoot(), PoolRow.Kind.FAMILY, "ipv4").getValue());

        // a family line cannot be forced: admin_state has no key for it
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), PoolRow.Kind.FAMILY, "ipv4")));
        assertThat(robot.lookup("#forceDown").query().isDisabled()).isTrue();

        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), PoolRow.Kind.RESOURCE, "pool")));
        assertThat(robot.lookup("#forceDown").query().isDisabled()).isFalse();
        confirmed(robot, tree, PoolRow.Kind.RESOURCE, "pool", "#forceDown");
        waitFor(() -> fx(family::failover));
        assertThat(fx(pool::forced)).startsWith("DOWN");
        assertThat(fx(a::forced)).as("no address forced").isEmpty();
        assertThat(console.engine.snapshot().pools().forced()).extracting(f -> f.key()).containsExactly("weighted!pool");
        // failover: answered as if every address were UP
        assertThat(fx(a::odds)).isCloseTo(10 / 16.0, org.assertj.core.data.Offset.offset(1e-9));

        confirmed(robot, tree, PoolRow.Kind.RESOURCE, "pool", "#release");
        waitFor(() -> fx(() -> !family.failover() && pool.forced().isEmpty()));
        assertThat(console.engine.snapshot().pools().forced()).isEmpty();
    }

    @Test
    void whatIfRecomputesTheOddsWithoutApplyingAnything(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        waitFor(() -> fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a") != null));
        PoolRow a = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a").getValue());
        PoolRow b = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "b").getValue());

        robot.clickOn(tree); // focus the window; then the toggle from the keyboard
        robot.press(javafx.scene.input.KeyCode.ALT, javafx.scene.input.KeyCode.W)
                .release(javafx.scene.input.KeyCode.W, javafx.scene.input.KeyCode.ALT);
        waitFor(() -> fx(() -> window.scene().lookup("#whatIfText").isVisible()));
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), PoolRow.Kind.ITEM, "a")));
        robot.clickOn("#forceDown"); // what-if: no confirmation, nothing applied
        waitFor(() -> fx(() -> Math.abs(b.whatIfOdds() - 5 / 6.0) < 1e-9 && a.whatIfState().equals("DOWN")));
        assertThat(fx(a::odds)).as("live odds unchanged").isCloseTo(10 / 16.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(console.engine.snapshot().pools().forced()).as("nothing forced in the engine").isEmpty();
        assertThat(robot.lookup("#confirmForce").tryQuery()).isEmpty();
        assertThat(robot.lookup("#whatIfText").queryAs(Label.class).getText()).contains("127.0.0.11/* DOWN");

        robot.press(javafx.scene.input.KeyCode.ALT, javafx.scene.input.KeyCode.W)
                .release(javafx.scene.input.KeyCode.W, javafx.scene.input.KeyCode.ALT);
        waitFor(() -> fx(() -> b.whatIfOdds() < 0 && a.whatIfState().isEmpty()));
    }
}
