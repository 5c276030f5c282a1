package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import lookout.engine.api.EngineState;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Opened on an invalid file: the engine is not started, the window says why and shows the file
 * with its error; once fixed, Apply starts the engine on it (decision in docs/design/console.md).
 */
@ExtendWith(ApplicationExtension.class)
class InvalidStartFXTest {

    private TestConsole console;
    private ConsoleWindow window;
    private String bad;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        bad = TestConsole.MINIMAL.replace("  listen => [ 127.0.0.1:0 ]", "  listen => [ 127.0.0.1:0 ]\n  cache_size => lots");
        ConfigResult initial = console.parse(bad, dir);
        assertThat(initial.ok()).isFalse();
        window = new ConsoleWindow(console.engine, console.loader);
        window.open(initial, initial.problems().get(0).file(), bad);
        window.show(stage);
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
    void theEngineWaitsForAFixThenApplyStartsIt(FxRobot robot) throws Exception {
        assertThat(console.engine.state()).isEqualTo(EngineState.NEW);
        assertThat(label(robot, "#statusEngine")).startsWith("Engine: NOT RUNNING — the configuration has 1 error");
        assertThat(robot.lookup("#statusEngine").query().getStyleClass()).contains("level-alarm");
        TextArea editor = robot.lookup("#configEditor").queryAs(TextArea.class);
        assertThat(editor.getText()).isEqualTo(bad);
        @SuppressWarnings("unchecked")
        ListView<ConfigProblem> problems = robot.lookup("#problemList").queryAs(ListView.class);
        assertThat(problems.getItems()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(4);
            assertThat(p.column()).isEqualTo(17);
        });

        int at = editor.getText().indexOf("lots");
        robot.interact(() -> {
            editor.requestFocus();
            editor.selectRange(at, at + 4);
        });
        robot.write("1000");
        robot.clickOn("#applyButton");
        waitFor(() -> robot.lookup("#confirmApply").tryQuery().isPresent());
        robot.clickOn("#confirmApply");
        waitFor(() -> label(robot, "#statusEngine").equals("Engine: RUNNING"));
        assertThat(console.engine.state()).isEqualTo(EngineState.RUNNING);
        waitFor(() -> label(robot, "#statusVersion").startsWith("Configuration: version 1 ("));
        assertThat(console.engine.snapshot().config().text()).contains("cache_size => 1000");
    }
}
