package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.console.theme.Theme;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The shell against a real engine on virtual time: status bar, summary strip, navigation, themes. */
@ExtendWith(ApplicationExtension.class)
class MainWindowFXTest {

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        ConfigResult initial = console.minimal(dir);
        window = console.open(initial, stage);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    @Test
    void statusBarShowsTheRunningEngineAndVersion(FxRobot robot) throws Exception {
        waitFor(() -> text(robot, "#statusEngine").equals("Engine: RUNNING"));
        assertThat(text(robot, "#statusVersion")).startsWith("Configuration: version 1 (");
        assertThat(text(robot, "#statusReload")).isEqualTo("Last reload: none");
        waitFor(() -> text(robot, "#statusDataAge").matches("Data: \\d+ ms old"));
    }

    @Test
    void everyPaneIsReachableFromTheKeyboard(FxRobot robot) {
        ListView<?> nav = robot.lookup("#nav").queryAs(ListView.class);
        assertThat(nav.getItems()).extracting(Object::toString)
                .containsExactly("Resolver", "Pools", "PVA", "Configuration", "Events");
        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        Node editor = robot.lookup("#configEditor").query();
        assertThat(editor.isVisible() && editor.getParent().getParent().isVisible()).isTrue();
        assertThat(nav.getSelectionModel().getSelectedItem()).hasToString("Configuration");

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT5).release(KeyCode.DIGIT5, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(nav.getSelectionModel().getSelectedItem()).hasToString("Events");
    }

    @Test
    void theSummaryStripSaysWhatRunsAndWhatDoesNot(FxRobot robot) throws Exception {
        waitFor(() -> text(robot, "#statusEngine").equals("Engine: RUNNING"));
        // The test configuration has a resolver without upstream servers and no PVA server.
        waitFor(() -> text(robot, "#summaryResolver").equals("Resolver: no upstream servers · in flight 0/4096 · refused 0/min"));
        assertThat(robot.lookup("#summaryResolver").query().getStyleClass()).contains("level-normal");
        if (console.engine.snapshot().pva() == null) {
            waitFor(() -> text(robot, "#summaryPva").equals("PVA: not running"));
            assertThat(robot.lookup("#summaryPva").query().getStyleClass()).contains("level-inactive");
            assertThat(text(robot, "#pvaStatus")).startsWith("Not running");
        }
        waitFor(() -> text(robot, "#summaryConfig").equals("Config v1"));
    }

    @Test
    void themeTogglesFromTheKeyboard(FxRobot robot) {
        assertThat(window.theme()).isEqualTo(Theme.DARK);
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT, KeyCode.T).release(KeyCode.T, KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(window.theme()).isEqualTo(Theme.LIGHT);
        assertThat(window.scene().getStylesheets()).anyMatch(s -> s.endsWith("light.css"));
    }
}
