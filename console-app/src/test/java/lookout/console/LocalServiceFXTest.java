package lookout.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.DialogPane;
import javafx.stage.Stage;
import lookout.console.cli.Attach;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.TestEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The no-argument launcher and a service already on the default status port: it says so and asks
 * (Attach / Run embedded); nothing is decided for the operator.
 */
@ExtendWith(ApplicationExtension.class)
class LocalServiceFXTest {

    private TestEngine local;

    @Start
    void start(Stage stage) throws Exception {
        local = TestEngine.serving(Files.createTempDirectory("lookout-local"), "control-room");
    }

    @AfterEach
    void stop() {
        local.close();
    }

    @Test
    void aServiceOnThePortIsFoundAndTheOperatorChooses(FxRobot robot) throws Exception {
        Attach.LocalService found = Attach.probe(EngineUrl.parse(local.url()), Map.of());
        assertThat(found).isNotNull();
        assertThat(found.identity().engine()).isEqualTo("control-room");

        for (String choice : new String[] {"#attachLocal", "#runEmbedded"}) {
            CompletableFuture<Boolean> embedded = new CompletableFuture<>();
            Platform.runLater(() -> embedded.complete(LookoutApp.askRunEmbedded(found)));
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup(choice).match(n -> n.isVisible()
                    && n.getScene().getWindow().isShowing()).tryQuery().isPresent());
            String header = WaitForAsyncUtils.asyncFx(() -> robot.lookup(".dialog-pane").match(n -> n.getScene().getWindow()
                    .isShowing()).queryAs(DialogPane.class).getHeaderText()).get(10, TimeUnit.SECONDS);
            assertThat(header).isEqualTo("A Lookout engine is already running here: control-room (" + local.file + ") at "
                    + local.url() + ".");
            robot.clickOn(robot.lookup(choice).match(n -> n.isVisible() && n.getScene().getWindow().isShowing()).queryButton());
            assertThat(embedded.get(10, TimeUnit.SECONDS)).isEqualTo(choice.equals("#runEmbedded"));
        }
    }

    private static EngineUrl url() {
        try {
            return EngineUrl.parse("http://127.0.0.1:" + TestEngine.freeTcpPort());
        } catch (EngineUrl.BadUrl e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void nothingOnThePortIsNoServiceAtOnce() {
        long t0 = System.nanoTime();
        assertThat(Attach.probe(url(), Map.of())).isNull();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms").isLessThan(2000);
    }
}
