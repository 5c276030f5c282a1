package lookout.console;

import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import lookout.console.fleet.FleetRow;
import lookout.console.fleet.FleetWindow;
import lookout.console.gateway.FleetGateway;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.TestEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 14: the fleet view lists two engines live (real engines serving the control API on
 * loopback), shows one in failover and one lost, and drills down.
 */
@ExtendWith(ApplicationExtension.class)
class FleetViewFXTest {

    private TestEngine east;
    private TestEngine west;
    private String eastUrl;
    private FleetWindow window;
    private final List<RemoteEngine> opened = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) throws Exception {
        east = TestEngine.serving(Files.createDirectories(Files.createTempDirectory("lookout-fleet").resolve("east")), "east");
        west = TestEngine.serving(Files.createDirectories(Files.createTempDirectory("lookout-fleet").resolve("west")), "west");
        eastUrl = east.url();
        FleetGateway gateway = new FleetGateway(List.of(new FleetGateway.Member(EngineUrl.parse(eastUrl), null),
                new FleetGateway.Member(EngineUrl.parse(west.url()), null)), Platform::runLater, 200);
        window = new FleetWindow(gateway, opened::add);
        window.show(stage);
    }

    @AfterEach
    void stop() throws Exception {
        WaitForAsyncUtils.asyncFx(() -> window.close()).get(10, TimeUnit.SECONDS);
        for (RemoteEngine r : opened) {
            r.stop();
        }
        east.close();
        west.close();
    }

    private static void waitFor(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, condition);
    }

    @Test
    void listsTwoEnginesLiveAndDrillsDown(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<FleetRow> table = robot.lookup("#fleetTable").queryAs(TableView.class);
        assertThat(fx(() -> table.getItems().size())).isEqualTo(2);
        FleetRow e = fx(() -> table.getItems().get(0));
        FleetRow w = fx(() -> table.getItems().get(1));
        waitFor(() -> fx(() -> e.state().equals("RUNNING") && w.state().equals("RUNNING")));
        assertThat(fx(e::name)).isEqualTo("east");
        assertThat(fx(w::name)).isEqualTo("west");
        assertThat(fx(e::url)).isEqualTo(eastUrl);
        assertThat(fx(w::configVersion)).isEqualTo("v1");
        assertThat(fx(w::resolver)).isEqualTo("no upstreams");
        assertThat(fx(w::inFlight)).isEqualTo("0/4096");
        assertThat(fx(w::failover)).isEqualTo("0 of 1");
        assertThat(fx(w::pvaServers)).endsWith("online");
        assertThat(fx(w::lastReload)).startsWith("none since 2026-01-01");
        assertThat(fx(() -> robot.lookup("#fleetSummary").queryAs(Label.class).getText())).isEqualTo("2 engines: 2 running");

        // live: west's pool goes into failover (live weight 1 < up_weight 4)
        west.engine.force("127.0.0.11/*", "DOWN", null).join();
        west.engine.force("127.0.0.12/*", "DOWN", null).join();
        waitFor(() -> fx(w::failover).equals("1 of 1 (pool)"));
        assertThat(fx(w::level).name()).isEqualTo("ADVISORY");
        waitFor(() -> fx(() -> robot.lookup("#fleetSummary").queryAs(Label.class).getText())
                .equals("2 engines: 2 running · 1 engine with pools in FAILOVER"));

        // drill-down: the selected engine's full console gets its own remote engine
        robot.interact(() -> table.getSelectionModel().select(1));
        robot.clickOn("#openConsole");
        waitFor(() -> opened.size() == 1);
        assertThat(opened.get(0).identity().engine()).isEqualTo("west");
        assertThat(opened.get(0).url().base()).isEqualTo(west.url());

        // east goes away: its row says so, the rest stays
        east.close();
        waitFor(() -> fx(e::state).equals("UNREACHABLE"));
        assertThat(fx(e::problem)).startsWith("cannot reach " + eastUrl);
        assertThat(fx(e::level).name()).isEqualTo("ALARM");
        assertThat(fx(e::name)).as("the name seen before stays").isEqualTo("east");
        assertThat(fx(() -> robot.lookup("#fleetSummary").queryAs(Label.class).getText()))
                .startsWith("2 engines: 1 running, 1 DOWN or unreachable");
        assertThat(fx(w::state)).isEqualTo("RUNNING");
    }
}
