package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.control.TableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.console.resolver.UpstreamRow;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17 item 5: Ctrl+C and a "Copy" context menu on the tables, and the engine's own server
 * line (its GUID) copyable.
 */
@ExtendWith(ApplicationExtension.class)
class CopyFXTest {

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        String text = TestConsole.with(
                "  scopes => { corp => { domains => [ corp.test. ], servers => [ 127.0.0.1:9, 127.0.0.2:9 ] } }\n", "")
                .replace("  server => { enable => false }", "  server => { enable => true, name_server => false }");
        ConfigResult initial = console.parse(text, dir);
        assertThat(initial.problems()).isEmpty();
        window = console.open(initial, stage);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    private static String clipboard() throws Exception {
        return fx(() -> Clipboard.getSystemClipboard().hasString() ? Clipboard.getSystemClipboard().getString() : "");
    }

    private static void clearClipboard() throws Exception {
        fx(() -> {
            javafx.scene.input.ClipboardContent c = new javafx.scene.input.ClipboardContent();
            c.putString("(nothing copied)");
            return Clipboard.getSystemClipboard().setContent(c);
        });
    }

    @Test
    void ctrlCOnAServerRowCopiesIt(FxRobot robot) throws Exception {
        window.mainView().select(ConsoleWindow.RESOLVER);
        @SuppressWarnings("unchecked")
        TableView<UpstreamRow> table = robot.lookup("#upstreamTable").queryAs(TableView.class);
        waitFor(() -> fx(() -> table.getItems().size() == 2));
        clearClipboard();
        robot.interact(() -> {
            table.requestFocus();
            table.getSelectionModel().select(1);
        });
        robot.press(KeyCode.CONTROL, KeyCode.C).release(KeyCode.C, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(clipboard()).contains("127.0.0.2:9").contains("corp").doesNotContain("127.0.0.1:9");
    }

    @Test
    void theContextMenuCopiesTheEnginesOwnServerLine(FxRobot robot) throws Exception {
        robot.interact(() -> window.mainView().select(ConsoleWindow.PVA));
        waitFor(() -> console.engine.snapshot().pvaServer() != null && console.engine.snapshot().pvaServer().running());
        String guid = console.engine.snapshot().pvaServer().guid();
        waitFor(() -> fx(() -> robot.lookup("#ownServer").query().toString().contains(guid)
                || textOf(robot.lookup("#ownServer").query()).contains(guid)));
        robot.interact(() -> PvaPaneLayoutFXTest.show(robot.lookup("#ownServer").query())); // its tab
        WaitForAsyncUtils.waitForFxEvents();
        clearClipboard();
        contextMenu(robot, "#ownServer");
        try {
            waitFor(() -> robot.lookup("Copy GUID").tryQuery().isPresent());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("menu: " + fx(() -> {
                javafx.scene.control.TextInputControl f = robot.lookup("#ownServer").queryAs(javafx.scene.control.TextInputControl.class);
                return f.getContextMenu() + " showing " + (f.getContextMenu() != null && f.getContextMenu().isShowing())
                        + " bounds " + f.localToScreen(f.getBoundsInLocal()) + " windows " + javafx.stage.Window.getWindows();
            }), e);
        }
        robot.clickOn("Copy GUID");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(clipboard()).isEqualTo(guid);
    }

    /**
     * Asks for {@code id}'s context menu as the platform does on a right click or the menu key
     * (the headless platform sends no menu events of its own).
     */
    static void contextMenu(FxRobot robot, String id) {
        javafx.scene.Node n = robot.lookup(id).query();
        robot.interact(() -> {
            javafx.geometry.Bounds b = n.localToScreen(n.getBoundsInLocal());
            javafx.event.Event.fireEvent(n, new javafx.scene.input.ContextMenuEvent(
                    javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED, 5, 5, b.getMinX() + 5, b.getMinY() + 5,
                    true, null));
        });
    }

    static String textOf(javafx.scene.Node n) {
        if (n instanceof javafx.scene.control.Labeled l) {
            return l.getText();
        }
        if (n instanceof javafx.scene.control.TextInputControl t) {
            return t.getText();
        }
        return "";
    }

    @Test
    void aCutEventMessageCanBeReadWholeInItsDetails(FxRobot robot) throws Exception {
        String longMessage = "a message long enough to be cut by its column at any reasonable width: "
                + "x".repeat(300) + " the end";
        robot.interact(() -> window.eventsViewModel().onEvents(java.util.List.of(new lookout.engine.api.EngineEvent.Notice(
                java.time.Instant.parse("2026-11-29T15:04:05Z"), lookout.engine.api.Subsystem.ENGINE,
                lookout.engine.api.Severity.WARNING, longMessage))));
        robot.interact(() -> window.mainView().select(ConsoleWindow.EVENTS));
        @SuppressWarnings("unchecked")
        TableView<Object> events = robot.lookup("#eventTable").queryAs(TableView.class);
        waitFor(() -> fx(() -> !events.getItems().isEmpty()));
        robot.interact(() -> {
            events.requestFocus();
            events.getSelectionModel().select(events.getItems().size() - 1);
        });
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        waitFor(() -> robot.lookup("#detailsText").tryQuery().isPresent());
        String details = fx(() -> textOf(robot.lookup("#detailsText").query()));
        assertThat(details).contains(longMessage).contains("2026-11-29 15:04:05.000Z");
        clearClipboard();
        robot.clickOn("#detailsCopy");
        assertThat(clipboard()).contains(" the end");
        robot.interact(() -> ((javafx.stage.Stage) robot.lookup("#detailsText").query().getScene().getWindow()).close());
    }
}
