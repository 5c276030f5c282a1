package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Issue 17 item 6: a pane's shortcuts act on that pane only (Ctrl+S is Apply on the Configuration pane alone). */
@ExtendWith(ApplicationExtension.class)
class ShortcutsFXTest {

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        ConfigResult initial = console.parse(TestConsole.with("", PoolsPaneFXTest.POOLS), dir);
        window = console.open(initial, stage);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    private static void ctrl(FxRobot robot, KeyCode key) {
        robot.press(KeyCode.CONTROL, key).release(key, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static void alt(FxRobot robot, KeyCode key) {
        robot.press(KeyCode.ALT, key).release(key, KeyCode.ALT);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** A pane's mnemonics act on that pane: Alt+R is the name field on the Resolver pane, Revert nowhere else. */
    @Test
    void mnemonicsActOnThePaneShown(FxRobot robot) throws Exception {
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        waitFor(() -> !editor.getText().isEmpty());
        robot.interact(() -> window.configViewModel().textProperty().set("# an edit\n" + editor.getText()));
        robot.interact(() -> window.mainView().select(ConsoleWindow.RESOLVER));
        robot.clickOn("#nav");
        alt(robot, KeyCode.R);
        assertThat(window.scene().getFocusOwner()).as("Alt+R on the Resolver pane").isSameAs(robot.lookup("#resolveName").query());
        assertThat(window.configViewModel().dirtyProperty().get()).as("the Configuration pane's Revert did not run").isTrue();
        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        robot.clickOn("#nav");
        alt(robot, KeyCode.P);
        javafx.scene.Node box = robot.lookup("#pvSearch").query();
        assertThat(window.scene().getFocusOwner()).as("Alt+P on the PVA pane")
                .satisfiesAnyOf(f -> assertThat(f).isSameAs(box),
                        f -> assertThat(f).isSameAs(((javafx.scene.control.ComboBox<?>) box).getEditor()));
    }

    @Test
    void ctrlSOpensApplyOnTheConfigurationPaneOnly(FxRobot robot) throws Exception {
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        waitFor(() -> !editor.getText().isEmpty());
        robot.interact(() -> window.configViewModel().textProperty().set("# an edit\n" + editor.getText()));
        for (String pane : java.util.List.of(ConsoleWindow.RESOLVER, ConsoleWindow.POOLS, ConsoleWindow.PVA, ConsoleWindow.EVENTS)) {
            robot.interact(() -> window.mainView().select(pane));
            robot.clickOn("#nav");
            ctrl(robot, KeyCode.S);
            ctrl(robot, KeyCode.D);
            // Apply and Diff parse on the pane's one parser thread first: a parse queued after
            // them finishing means theirs would have finished too
            WaitForAsyncUtils.asyncFx(() -> window.configViewModel().validate()).get(10, TimeUnit.SECONDS)
                    .get(10, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(robot.lookup("#confirmApply").tryQuery()).as("no Apply from the " + pane + " pane").isEmpty();
        }
        assertThat(window.configViewModel().plainDiff()).as("no Diff either").isEmpty();

        robot.interact(() -> window.mainView().select(ConsoleWindow.CONFIGURATION));
        robot.clickOn(editor);
        ctrl(robot, KeyCode.S);
        waitFor(() -> robot.lookup("#confirmApply").tryQuery().isPresent());
        robot.clickOn("Cancel");
    }
}
