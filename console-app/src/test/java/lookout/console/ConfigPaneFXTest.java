package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 2 acceptance: type an error into the editor, Validate shows it at the right line and
 * column (and nothing is applied); fix it, Apply, the status bar shows the new version. Runs the
 * engine's real parser; skipped (not failed) while that parser is not on this branch.
 */
@ExtendWith(ApplicationExtension.class)
class ConfigPaneFXTest {

    private TestConsole console;
    private ConsoleWindow window;
    private boolean parser;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        parser = TestConsole.parserAvailable(dir);
        console = new TestConsole(dir);
        ConfigResult initial = console.minimal(dir);
        assertThat(initial.problems()).as("the test configuration itself must be valid").isEmpty();
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.CONFIGURATION);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    private static String label(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    @Test
    void anErrorIsShownAtItsLineAndColumnThenTheFixIsApplied(FxRobot robot) throws Exception {
        assumeTrue(parser, "the engine's configuration parser is not on this branch yet");
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        waitFor(() -> editor.getText().equals(TestConsole.MINIMAL));
        waitFor(() -> label(robot, "#statusVersion").startsWith("Configuration: version 1 ("));

        // Type a misspelt key at the start of line 4 (the last line inside resolver { }).
        int line4 = lookout.console.configpane.TextPositions.indexOf(editor.getText(), 4, 1);
        robot.clickOn(editor);
        robot.interact(() -> editor.positionCaret(line4));
        robot.write("  cache_sise => 100\n");
        assertThat(editor.getText()).contains("  listen => [ 127.0.0.1:0 ]\n  cache_sise => 100\n}");

        robot.clickOn("#validateButton");
        @SuppressWarnings("unchecked")
        ListView<ConfigProblem> problems = robot.lookup("#problemList").queryAs(ListView.class);
        waitFor(() -> !problems.getItems().isEmpty());
        ConfigProblem p = problems.getItems().get(0);
        assertThat(p.line()).isEqualTo(4);
        assertThat(p.column()).isEqualTo(3);
        assertThat(p.message()).contains("cache_sise");

        // Selecting the problem moves the caret to line 4, column 3.
        robot.interact(() -> problems.getSelectionModel().select(0));
        assertThat(label(robot, "#caretPosition")).isEqualTo("Ln 4, Col 3");
        assertThat(editor.getText().substring(editor.getCaretPosition())).startsWith("cache_sise");

        // Apply with the error: nothing applied, still version 1.
        robot.clickOn("#applyButton");
        waitFor(() -> label(robot, "#configMessage").contains("error"));
        assertThat(robot.lookup("#confirmApply").tryQuery()).isEmpty();
        assertThat(console.engine.snapshot().config().version()).isEqualTo(1);

        // Fix the typo from the keyboard: select "sise" and type "size".
        int typo = editor.getText().indexOf("cache_sise") + "cache_".length();
        robot.interact(() -> {
            editor.requestFocus();
            editor.selectRange(typo, typo + 4);
        });
        robot.write("size");
        assertThat(editor.getText()).contains("  cache_size => 100\n");

        robot.clickOn("#applyButton");
        waitFor(() -> robot.lookup("#confirmApply").tryQuery().isPresent());
        robot.clickOn("#confirmApply");
        waitFor(() -> label(robot, "#statusVersion").startsWith("Configuration: version 2 ("));
        assertThat(label(robot, "#statusReload")).isEqualTo("Last reload: version 2 applied");
        assertThat(console.engine.snapshot().config().text()).contains("cache_size => 100");
        waitFor(() -> label(robot, "#configMessage").startsWith("Version 2 applied"));
    }

    /**
     * Issue 17 item 8: a comment line at the top is no effective change (the zones and pools it
     * moves down a line are the same), and a proposal's note goes once the edit is reverted.
     */
    @Test
    void aCommentIsNoChangeAndTheSubnetProposalCountsWhatItLists(FxRobot robot) throws Exception {
        robot.interact(() -> window.close());
        robot.interact(() -> {
            try {
                Path dir = Files.createTempDirectory("lookout-fx");
                console.close();
                console = new TestConsole(dir);
                String zone = "zones => { fx.test => { text => \"\n@ SOA ns1 hm 7 7200 1800 604800 300\n@ NS ns1\n"
                        + "ns1 A 127.0.0.1\nwww 300 DYNA weighted!pool\n\" } }\n";
                ConfigResult initial = console.parse(TestConsole.with("", zone + PoolsPaneFXTest.POOLS), dir);
                assertThat(initial.problems()).isEmpty();
                javafx.stage.Stage stage = (javafx.stage.Stage) robot.lookup("#configEditor").query().getScene().getWindow();
                window = console.open(initial, stage);
                window.mainView().select(ConsoleWindow.CONFIGURATION);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        waitFor(() -> label(robot, "#statusVersion").startsWith("Configuration: version 1 ("));
        waitFor(() -> editor.getText().contains("weighted!pool"));
        robot.interact(() -> window.configViewModel().textProperty().set("# a comment at the top\n" + editor.getText()));
        robot.clickOn("#diffButton");
        waitFor(() -> label(robot, "#configMessage").startsWith("No difference"));
        @SuppressWarnings("unchecked")
        ListView<String> plain = robot.lookup("#plainDiffList").queryAs(ListView.class);
        assertThat(plain.getItems()).containsExactly("No changes: the candidate is the same as the running configuration.");
        robot.interact(() -> window.configViewModel().revert());

        // "point at a subnet": the message counts the lines it lists
        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        robot.interact(() -> {
            window.pvaViewModel().subnetAddressesProperty().set("10.0.0.255");
            window.pvaViewModel().proposeSubnet();
        });
        waitFor(() -> label(robot, "#configMessage").contains("change"));
        waitFor(() -> !plain.getItems().isEmpty() && !plain.getItems().get(0).startsWith("No changes"));
        String message = label(robot, "#configMessage");
        int lines = plain.getItems().size();
        assertThat(message).startsWith(lines + " change");
        assertThat(window.pvaViewModel().actionMessageProperty().get()).startsWith("Proposed");
        robot.interact(() -> window.configViewModel().revert());
        waitFor(() -> !window.pvaViewModel().actionMessageProperty().get().startsWith("Proposed"));
    }

    @Test
    void revertFromTheKeyboardRestoresTheRunningText(FxRobot robot) throws Exception {
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        waitFor(() -> editor.getText().equals(TestConsole.MINIMAL));
        robot.clickOn(editor);
        robot.interact(() -> editor.positionCaret(0));
        robot.write("# an edit\n");
        assertThat(editor.getText()).startsWith("# an edit\n");
        robot.press(KeyCode.ALT, KeyCode.R).release(KeyCode.R, KeyCode.ALT);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(editor.getText()).isEqualTo(TestConsole.MINIMAL);
    }
}
