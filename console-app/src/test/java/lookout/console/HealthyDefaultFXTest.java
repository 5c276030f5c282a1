package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import lookout.console.pva.ServerRow;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17 item 7: on a healthy setup like the embedded default's (the engine's own PVA server
 * beaconing on loopback, where its own client hears it), the one discovered server is marked as
 * this engine's and nothing is abnormal.
 */
@ExtendWith(ApplicationExtension.class)
class HealthyDefaultFXTest {

    private TestConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) throws Exception {
        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        String text = TestConsole.with("", "")
                .replace("  beacon_addr_list => [ ]", "  beacon_addr_list => [ 127.0.0.1 ]")
                .replace("  server => { enable => false }", "  server => { enable => true, name_server => true }"); // as the embedded default: beacons name its TCP port
        ConfigResult initial = console.parse(text, dir);
        assertThat(initial.problems()).isEmpty();
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.PVA);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
    }

    @Test
    void theEnginesOwnServerIsMarkedAsThisEngine(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<ServerRow> servers = robot.lookup("#serverTable").queryAs(TableView.class);
        for (int i = 0; i < 40 && fx(() -> servers.getItems().isEmpty()); i++) {
            console.scheduler.advance(Duration.ofSeconds(1));
            WaitForAsyncUtils.waitForFxEvents();
        }
        waitFor(() -> fx(() -> servers.getItems().size() == 1));
        robot.interact(() -> PvaPaneLayoutFXTest.show(servers)); // its tab
        WaitForAsyncUtils.waitForFxEvents();
        String own = console.engine.snapshot().pvaServer().guid();
        assertThat(fx(() -> servers.getItems().get(0).guid())).isEqualToIgnoringCase(own);
        String rowText = fx(() -> {
            StringBuilder sb = new StringBuilder();
            for (javafx.scene.Node n : servers.lookupAll(".table-row-cell")) {
                if (n instanceof javafx.scene.control.TableRow<?> r && r.getItem() != null) {
                    for (javafx.scene.Node l : r.lookupAll(".label")) {
                        if (l instanceof javafx.scene.control.Label label) {
                            sb.append(label.getText()).append(' ');
                        }
                    }
                    for (javafx.scene.Node c : r.lookupAll(".table-cell")) {
                        if (c instanceof javafx.scene.control.TableCell<?, ?> cell && cell.getText() != null) {
                            sb.append(cell.getText()).append(' ');
                        }
                    }
                }
            }
            return sb.toString();
        });
        assertThat(rowText).contains("this engine");
        assertThat(robot.lookup("#summaryPva").query().getStyleClass()).contains("level-normal");
    }
}
