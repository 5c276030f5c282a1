package lookout.console;

import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import lookout.console.pools.PoolRow;
import lookout.console.remote.RemoteEngine;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.ConfigLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 14: the console attached to a headless engine on loopback ({@code lookout --attach}): its
 * panes, a pool item forced through the API, STALE when the engine stops, a viewer's console
 * read-only, unapplied edits asked about on close, and two consoles seeing each other's changes.
 */
@ExtendWith(ApplicationExtension.class)
class AttachedConsoleFXTest {

    private Path dir;
    private AttachedEngine engine;
    private Stage stage;
    private ConsoleWindow window;
    private final List<ConsoleWindow> others = new java.util.ArrayList<>();

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        dir = Files.createTempDirectory("lookout-attach-fx");
        engine = new AttachedEngine(dir, "fx-engine");
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
            if (window != null) {
                window.close();
                window.gateway().engine().stop();
            }
            for (ConsoleWindow w : others) {
                w.close();
                w.gateway().engine().stop();
            }
        }).get(10, TimeUnit.SECONDS);
        engine.close();
    }

    private ConsoleWindow open(FxRobot robot, Stage on, Path token) throws Exception {
        RemoteEngine remote = engine.attach(token);
        ConsoleWindow[] w = new ConsoleWindow[1];
        robot.interact(() -> {
            w[0] = new ConsoleWindow(remote, new ConfigLoader(Map.of()));
            w[0].attach();
            w[0].show(on);
        });
        return w[0];
    }

    /**
     * The window manager's close button: a close request, then the window closes unless the
     * handler consumed it. Not waited for: the handler may open a dialog (a nested event loop).
     */
    private static void requestClose(Stage s) {
        javafx.application.Platform.runLater(() -> {
            WindowEvent e = new WindowEvent(s, WindowEvent.WINDOW_CLOSE_REQUEST);
            if (s.getOnCloseRequest() != null) {
                s.getOnCloseRequest().handle(e);
            }
            if (!e.isConsumed()) {
                s.close();
            }
        });
    }

    /** The showing node for {@code query} (a closed dialog's buttons linger, invisible), or null. */
    private static javafx.scene.Node visible(FxRobot robot, String query) {
        return robot.lookup(query).match(javafx.scene.Node::isVisible)
                .match(n -> n.getScene() != null && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing())
                .tryQuery().orElse(null);
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, condition);
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

    private String text(FxRobot robot, String query) throws Exception {
        return fx(() -> robot.lookup(query).queryAs(Label.class).getText());
    }

    @Test
    void showsItsPanesAndForcesAPoolItemThroughTheApi(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        assertThat(fx(stage::getTitle)).isEqualTo("Lookout — fx-engine (" + engine.file + ") at " + engine.url);
        waitFor(() -> text(robot, "#statusConnection").equals("Attached to fx-engine"));
        waitFor(() -> text(robot, "#statusEngine").equals("Engine: RUNNING"));
        waitFor(() -> text(robot, "#statusVersion").startsWith("Configuration: version 1"));
        waitFor(() -> text(robot, "#summaryPools").equals("Pools: 1 OK / 0 in FAILOVER"));
        waitFor(() -> text(robot, "#summaryResolver").startsWith("Resolver: no upstream servers"));
        assertThat(fx(() -> window.configViewModel().runningTextProperty().get())).isEqualTo(Files.readString(engine.file));

        robot.interact(() -> window.mainView().select(ConsoleWindow.POOLS));
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        waitFor(() -> fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a") != null));
        PoolRow a = fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a").getValue());
        assertThat(fx(() -> robot.lookup("#poolsReadOnly").query().isVisible())).isFalse();
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), PoolRow.Kind.ITEM, "a")));
        robot.clickOn("#forceDown");
        waitFor(() -> robot.lookup("#confirmForce").tryQuery().isPresent());
        robot.clickOn("#confirmForce");

        waitFor(() -> fx(() -> a.effective().equals("DOWN")));
        assertThat(fx(a::forced)).startsWith("DOWN");
        assertThat(engine.headless.engine().snapshot().pools().forced()).extracting(PoolsSnapshot.PoolForced::key)
                .containsExactly("127.0.0.11/*");
        assertThat(engine.audit()).singleElement().satisfies(r -> {
            assertThat(r.action()).isEqualTo("force");
            assertThat(r.token()).as("the console's token, through the API").isEqualTo("operator");
            assertThat(r.peer()).startsWith("127.0.0.1:");
            assertThat(r.result()).isEqualTo("ok");
        });
        // the engine's event came over the event stream into the Events pane
        waitFor(() -> fx(() -> window.eventsViewModel().rows().stream()
                .anyMatch(r -> r.message().contains("forced state 127.0.0.11/* = DOWN"))));
    }

    @Test
    void showsStaleWhenTheEngineStops(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        waitFor(() -> text(robot, "#statusEngine").equals("Engine: RUNNING"));
        waitFor(() -> text(robot, "#statusDataAge").startsWith("Data: ") && !text(robot, "#statusDataAge").contains("STALE"));
        engine.close();
        waitFor(() -> text(robot, "#statusDataAge").startsWith("Data: STALE"));
        waitFor(() -> text(robot, "#statusConnection").startsWith("Connection LOST to fx-engine"));
        assertThat(text(robot, "#statusConnection")).contains("cannot reach " + engine.url);
        assertThat(text(robot, "#statusEngine")).isEqualTo("Engine: UNREACHABLE");
        assertThat(fx(() -> robot.lookup("#statusConnection").query().getStyleClass())).contains("level-alarm");
    }

    @Test
    void aViewersConsoleHasItsActionsDisabledAndSaysWhy(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.viewerToken);
        waitFor(() -> text(robot, "#statusConnection").endsWith("· READ-ONLY"));
        robot.interact(() -> window.mainView().select(ConsoleWindow.POOLS));
        @SuppressWarnings("unchecked")
        TreeTableView<PoolRow> tree = robot.lookup("#poolTree").queryAs(TreeTableView.class);
        waitFor(() -> fx(() -> find(tree.getRoot(), PoolRow.Kind.ITEM, "a") != null));
        robot.interact(() -> tree.getSelectionModel().select(find(tree.getRoot(), PoolRow.Kind.ITEM, "a")));
        assertThat(fx(() -> robot.lookup("#forceDown").queryAs(Button.class).isDisabled())).isTrue();
        assertThat(fx(() -> robot.lookup("#release").queryAs(Button.class).isDisabled())).isTrue();
        assertThat(fx(() -> robot.lookup("#poolsReadOnly").query().isVisible())).isTrue();
        assertThat(text(robot, "#poolsReadOnly")).isEqualTo("read-only: this console's token is a viewer's");
        assertThat(fx(() -> robot.lookup("#poolsReadOnly").queryAs(Label.class).getTooltip().getText()))
                .isEqualTo(RemoteEngine.VIEWER);
        // a what-if changes nothing: still allowed
        robot.interact(() -> window.poolsViewModel().whatIfProperty().set(true));
        assertThat(fx(() -> robot.lookup("#forceDown").queryAs(Button.class).isDisabled())).isFalse();
        robot.interact(() -> window.poolsViewModel().whatIfProperty().set(false));

        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        assertThat(fx(() -> robot.lookup("#pvSearchButton").queryAs(Button.class).isDisabled())).isTrue();
        assertThat(fx(() -> robot.lookup("#discoveryPing").queryAs(Button.class).isDisabled())).isTrue();
        assertThat(text(robot, "#pvaReadOnly")).isEqualTo(RemoteEngine.VIEWER);
        robot.interact(() -> window.mainView().select(ConsoleWindow.CONFIGURATION));
        assertThat(fx(() -> ((Button) robot.lookup(".button").match(n -> "_Apply…".equals(((Button) n).getText())).query())
                .isDisabled())).isTrue();
        assertThat(text(robot, "#configReadOnly")).isEqualTo(RemoteEngine.VIEWER);
        // the keyboard shortcut reaches the view model, which refuses too
        robot.interact(() -> window.configViewModel().apply());
        assertThat(fx(() -> window.configViewModel().messageProperty().get())).isEqualTo("Not applied: " + RemoteEngine.VIEWER);
        // nothing was even asked: a refused write would be in the audit log
        assertThat(engine.audit()).isEmpty();
        for (String write : List.of("/api/v1/config", "/api/v1/pools/force", "/api/v1/pools/release", "/api/v1/pva/search",
                "/api/v1/pva/discovery-ping")) {
            assertThat(engine.requests(write)).as(write).isZero();
        }
    }

    @Test
    void closingWithUnappliedEditsAsksThenAppliesThroughTheApi(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        waitFor(() -> fx(() -> window.configViewModel().runningVersionProperty().get() == 1));
        String edited = Files.readString(engine.file).replace("up_thresh => 0.25", "up_thresh => 0.5");
        robot.interact(() -> window.configViewModel().textProperty().set(edited));

        requestClose(stage);
        waitFor(() -> visible(robot, "#closeCancel") != null);
        assertThat(visible(robot, "#closeDiscard")).isNotNull();
        robot.clickOn(visible(robot, "#closeCancel"));
        assertThat(fx(stage::isShowing)).as("Cancel keeps the window").isTrue();
        assertThat(fx(() -> window.configViewModel().textProperty().get())).isEqualTo(edited);

        requestClose(stage);
        waitFor(() -> visible(robot, "#closeApply") != null);
        robot.clickOn(visible(robot, "#closeApply"));
        waitFor(() -> !fx(stage::isShowing));
        assertThat(engine.headless.engine().snapshot().config().version()).isEqualTo(2);
        assertThat(engine.headless.engine().snapshot().config().text()).isEqualTo(edited);
        // the engine's persistence path: saved to its file, the previous kept, audited as this console's token
        assertThat(Files.readString(engine.file)).isEqualTo(edited);
        assertThat(Files.readString(engine.dir.resolve("state/backups/lookout.conf.1"))).isNotEqualTo(edited)
                .contains("up_thresh => 0.25");
        assertThat(engine.audit()).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("apply");
            assertThat(a.token()).isEqualTo("operator");
            assertThat(a.result()).isEqualTo("ok");
            assertThat(a.args()).containsEntry("saved", engine.file.toString()).containsEntry("expectedVersion", 1L);
        });
    }

    private Button applyButton(FxRobot robot) {
        return (Button) robot.lookup(".button").match(n -> "_Apply…".equals(((Button) n).getText())).query();
    }

    @Test
    void aFileEditedOnDiskIsOverwrittenOnlyAfterTheOperatorSaysSo(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        waitFor(() -> fx(() -> window.configViewModel().runningVersionProperty().get() == 1));
        String original = Files.readString(engine.file);
        String byHand = original + "# edited by hand on the server\n";
        Files.writeString(engine.file, byHand);
        String edited = original.replace("up_thresh => 0.25", "up_thresh => 0.5");
        robot.interact(() -> {
            window.mainView().select(ConsoleWindow.CONFIGURATION);
            window.configViewModel().textProperty().set(edited);
        });

        // first time: the diff, then the engine's refusal, offered as Overwrite; Cancel leaves everything
        robot.clickOn(applyButton(robot));
        waitFor(() -> visible(robot, "#confirmApply") != null);
        robot.clickOn(visible(robot, "#confirmApply"));
        waitFor(() -> visible(robot, "#confirmOverwrite") != null);
        assertThat(fx(() -> window.configViewModel().messageProperty().get())).isEqualTo("Not applied: the configuration"
                + " file was changed on disk since the engine loaded it.");
        assertThat(fx(() -> ((javafx.scene.control.DialogPane) visible(robot, ".dialog-pane")).getContentText()))
                .as("the dialog has the engine's words: which file, both hashes")
                .startsWith(engine.file + " was changed on disk since the engine loaded it (sha256 on disk ");
        robot.clickOn(visible(robot, "#cancelWayPast"));
        assertThat(Files.readString(engine.file)).isEqualTo(byHand);
        assertThat(engine.headless.engine().snapshot().config().version()).isEqualTo(1);

        // again, and Overwrite: the editor's text is saved, the hand edit kept as a backup
        robot.clickOn(applyButton(robot));
        waitFor(() -> visible(robot, "#confirmApply") != null);
        robot.clickOn(visible(robot, "#confirmApply"));
        waitFor(() -> visible(robot, "#confirmOverwrite") != null);
        robot.clickOn(visible(robot, "#confirmOverwrite"));
        // (the engine runs version 2 a moment before the file is renamed into place: the outcome comes after both)
        waitFor(() -> fx(() -> window.configViewModel().messageProperty().get()).equals("Version 2 applied (1 change), saved to "
                + engine.file + " (the previous file kept as lookout.conf.1)."));
        assertThat(engine.headless.engine().snapshot().config().version()).isEqualTo(2);
        assertThat(Files.readString(engine.file)).isEqualTo(edited);
        assertThat(Files.readString(engine.dir.resolve("state/backups/lookout.conf.1"))).isEqualTo(byHand);
        // both refusals (Cancel, then the one Overwrite answered) and the forced apply
        assertThat(engine.audit()).extracting(AuditRecord::result).satisfiesExactly(
                r -> assertThat(r).startsWith("refused: " + engine.file + " was changed on disk"),
                r -> assertThat(r).startsWith("refused: " + engine.file + " was changed on disk"),
                r -> assertThat(r).isEqualTo("ok"));
        assertThat(engine.audit().get(2).args()).containsEntry("force", true);
    }

    @Test
    void aTextThatWouldRemoveEveryServiceIsOfferedAndCanBeLeft(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        waitFor(() -> fx(() -> window.configViewModel().runningVersionProperty().get() == 1));
        robot.interact(() -> {
            window.mainView().select(ConsoleWindow.CONFIGURATION);
            window.configViewModel().textProperty().set("# nothing left\n");
        });
        robot.clickOn(applyButton(robot));
        waitFor(() -> visible(robot, "#confirmApply") != null);
        robot.clickOn(visible(robot, "#confirmApply"));
        waitFor(() -> visible(robot, "#confirmEmpty") != null);
        assertThat(fx(() -> window.configViewModel().messageProperty().get()))
                .isEqualTo("Not applied: this configuration would remove every service.");
        robot.clickOn(visible(robot, "#cancelWayPast"));
        assertThat(engine.headless.engine().snapshot().config().version()).isEqualTo(1);
        assertThat(engine.audit()).as("the engine's refusal of the apply, audited")
                .extracting(AuditRecord::result).singleElement().asString().startsWith("refused: ");
    }

    @Test
    void closingWithoutEditsAsksNothingAndDiscardDropsThem(FxRobot robot) throws Exception {
        Stage second = fx(Stage::new);
        ConsoleWindow w = open(robot, second, engine.operatorToken);
        others.add(w);
        waitFor(() -> fx(() -> w.configViewModel().runningVersionProperty().get() == 1));
        requestClose(second);
        waitFor(() -> !fx(second::isShowing));
        assertThat(visible(robot, "#closeCancel")).as("no question without edits").isNull();

        window = open(robot, stage, engine.operatorToken);
        waitFor(() -> fx(() -> window.configViewModel().runningVersionProperty().get() == 1));
        robot.interact(() -> window.configViewModel().textProperty().set("# nothing\n"));
        requestClose(stage);
        waitFor(() -> visible(robot, "#closeDiscard") != null);
        robot.clickOn(visible(robot, "#closeDiscard"));
        waitFor(() -> !fx(stage::isShowing));
        assertThat(engine.headless.engine().snapshot().config().version()).as("nothing applied").isEqualTo(1);
    }

    @Test
    void twoConsolesSeeEachOthersChangesWithinASecond(FxRobot robot) throws Exception {
        window = open(robot, stage, engine.operatorToken);
        Stage second = fx(Stage::new);
        ConsoleWindow other = open(robot, second, engine.operatorToken);
        others.add(other);
        waitFor(() -> fx(() -> other.poolsViewModel().root().children().size() == 1
                && window.poolsViewModel().root().children().size() == 1));
        PoolRow bInOther = fx(() -> findRow(other.poolsViewModel().root(), "b"));

        long t0 = System.nanoTime();
        fx(() -> window.poolsViewModel().force(findRow(window.poolsViewModel().root(), "b"), "DOWN"));
        waitFor(() -> fx(() -> bInOther.effective().equals("DOWN")));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).as("the other console saw the force after %d ms", ms).isLessThan(1000);
        waitFor(() -> fx(() -> other.eventsViewModel().rows().stream()
                .anyMatch(r -> r.message().contains("forced state 127.0.0.12/* = DOWN"))));
    }

    private static PoolRow findRow(PoolRow from, String name) {
        for (PoolRow c : from.children()) {
            if (c.kind() == PoolRow.Kind.ITEM && c.name().equals(name)) {
                return c;
            }
            PoolRow deeper = findRow(c, name);
            if (deeper != null) {
                return deeper;
            }
        }
        return null;
    }
}
