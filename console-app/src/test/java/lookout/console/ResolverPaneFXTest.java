package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
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
 * Issue 7: a fake upstream on loopback that never answers; the question asked from the resolve
 * box times out in virtual time, the row turns DEMOTED with its 30-s countdown (seed 000 §4.6.3),
 * which reaches 0 and clears.
 */
@ExtendWith(ApplicationExtension.class)
class ResolverPaneFXTest {

    private TestConsole console;
    private ConsoleWindow window;
    private DatagramSocket silentUpstream;
    private final AtomicInteger received = new AtomicInteger();
    private String upstream;

    private Stage stage;

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        silentUpstream = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        upstream = "127.0.0.1:" + silentUpstream.getLocalPort();
        Thread sink = new Thread(() -> {
            byte[] buf = new byte[4096];
            while (!silentUpstream.isClosed()) {
                try {
                    silentUpstream.receive(new DatagramPacket(buf, buf.length));
                    received.incrementAndGet(); // and never answer
                } catch (java.io.IOException e) {
                    return;
                }
            }
        }, "silent-upstream");
        sink.setDaemon(true);
        sink.start();

        Path dir = Files.createTempDirectory("lookout-fx");
        console = new TestConsole(dir);
        ConfigResult initial = console.parse(TestConsole.with(
                "  scopes => { corp => { domains => [ corp.test. ], servers => [ " + upstream + " ] } }\n", ""), dir);
        assertThat(initial.problems()).isEmpty();
        window = console.open(initial, stage);
        window.mainView().select(ConsoleWindow.RESOLVER);
    }

    @AfterEach
    void stop() {
        window.close();
        console.close();
        silentUpstream.close();
    }

    @Test
    void aTimingOutUpstreamIsDemotedWithACountdownThatReachesZeroAndClears(FxRobot robot) throws Exception {
        @SuppressWarnings("unchecked")
        TableView<UpstreamRow> table = robot.lookup("#upstreamTable").queryAs(TableView.class);
        waitFor(() -> !table.getItems().isEmpty());
        UpstreamRow row = fx(() -> table.getItems().get(0));
        assertThat(row.address()).isEqualTo(upstream);
        // issue 17 item 7: a server that has never answered does not read "OK"
        assertThat(fx(row::stateText)).isEqualTo("no answer yet");
        assertThat(fx(row::lastFailure)).isEqualTo("—");

        robot.clickOn("#resolveName").write("host.corp.test");
        robot.clickOn("#resolveButton");
        waitFor(() -> received.get() >= 1);

        // The attempt deadlines pass in virtual time only (seed 000: 2 s each, three attempts at
        // most): 8 s lets the whole question finish, so that no later attempt renews the mark.
        // Each retry is real I/O on loopback: wait (bounded) until it has arrived before the next
        // deadline, so that virtual time never runs ahead of a send; the UI's polls are waited on
        // through whole conditions below.
        for (int i = 0; i < 4; i++) {
            console.scheduler.advance(Duration.ofSeconds(2));
            int attempts = Math.min(3, i + 2);
            waitFor(() -> received.get() >= attempts);
        }
        // Row properties are written on the FX thread: read them there (fx), wait on whole conditions.
        waitFor(() -> fx(() -> row.demoted() && row.markLeft() > 0));
        assertThat(fx(row::stateText)).startsWith("DEMOTED ");
        // issue 24: at 1280 x 800 the state, its reason and countdown are drawn whole in their column
        robot.interact(() -> {
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> PvaPaneLayoutFXTest.cut(table))).isEmpty();
        double first = fx(row::markLeft);
        assertThat(first).isBetween(20.0, 30.0);
        waitFor(() -> fx(() -> row.lastFailure().matches("\\d+ s ago")));
        assertThat(fx(row::lastSuccess)).as("it never answered").isEqualTo("—");
        TextArea trace = robot.lookup("#traceArea").queryAs(TextArea.class);
        waitFor(() -> trace.getText().contains(upstream));
        // issue 17 item 12: the trace ends in a diagnosis, in plain words
        try {
            waitFor(() -> trace.getText().contains("Diagnosis: Unavailable: every attempt failed — " + upstream + ": 3 × timeout"));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(trace.getText(), e);
        }

        console.scheduler.advance(Duration.ofSeconds(10));
        waitFor(() -> fx(() -> row.markLeft() < first - 9));
        assertThat(fx(row::demoted)).isTrue();

        console.scheduler.advance(Duration.ofSeconds(31));
        waitFor(() -> fx(() -> !row.demoted() && row.markLeft() == 0));
        // its mark expired, and it has still never answered: not "OK"
        assertThat(fx(row::stateText)).isEqualTo("no answer yet");
    }
}
