package lookout.console;

import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
import javafx.scene.control.TitledPane;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17 item 9: an event carrying a Java exception's text reads in plain words in the Events
 * pane, and the raw text is kept behind the details' disclosure.
 */
@ExtendWith(ApplicationExtension.class)
class PlainWordsFXTest {

    static final String RAW = "upstream 127.0.0.1:53 failed: java.net.PortUnreachableException: recvAddress(..) failed with error(-111)";

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        ConfigResult initial = console.minimal(dir);
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.EVENTS);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    @Test
    void anExceptionInAnEventReadsInPlainWordsWithTheRawTextInItsDetails(FxRobot robot) throws Exception {
        robot.interact(() -> window.eventsViewModel().onEvents(List.of(new EngineEvent.Notice(
                Instant.parse("2026-11-29T15:04:05Z"), Subsystem.RESOLVER, Severity.WARNING, RAW))));
        @SuppressWarnings("unchecked")
        TableView<Object> events = robot.lookup("#eventTable").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> !events.getItems().isEmpty()));
        String shown = fx(() -> {
            StringBuilder sb = new StringBuilder();
            for (javafx.scene.Node n : events.lookupAll(".table-cell")) {
                if (n instanceof javafx.scene.control.TableCell<?, ?> c && "Message".equals(c.getTableColumn().getText())
                        && c.getText() != null) {
                    sb.append(c.getText()).append('\n');
                }
            }
            return sb.toString();
        });
        assertThat(shown).contains("upstream 127.0.0.1:53 failed: refused: nothing listens on that port")
                .doesNotContain("java.net").doesNotContain("recvAddress").doesNotContain("error(-111)");

        robot.interact(() -> {
            events.requestFocus();
            events.getSelectionModel().select(events.getItems().size() - 1);
        });
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#rawDetails").tryQuery().isPresent());
        TitledPane raw = robot.lookup("#rawDetails").queryAs(TitledPane.class);
        assertThat(raw.isExpanded()).as("behind a disclosure").isFalse();
        assertThat(fx(() -> CopyFXTest.textOf(robot.lookup("#rawText").query()))).isEqualTo(RAW);
        assertThat(fx(() -> CopyFXTest.textOf(robot.lookup("#detailsText").query()))).doesNotContain("java.net");
    }
}
