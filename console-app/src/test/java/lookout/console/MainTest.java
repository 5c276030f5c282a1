package lookout.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launcher's exit statuses for the modes that never start JavaFX. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void badArgumentsPrintTheReasonAndUsageAndExitTwo() {
        assertThat(run("--frobnicate")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("lookout: unknown option '--frobnicate'\nUsage:\n");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void helpGoesToStandardOutput() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage:\n").contains("--check-config FILE");
    }

    @Test
    void versionNamesTheModuleVersion() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("lookout ").contains("(Java ");
    }

    @Test
    void ctlRunsWithoutJavaFxAndSaysWhatIsWrong() {
        assertThat(run("ctl")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("lookout ctl: which command?");
        assertThat(run("ctl", "--engine", "http://127.0.0.1:" + lookout.console.remote.TestEngine.freeTcpPort(), "status"))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("lookout ctl: cannot reach http://127.0.0.1:");
    }

    @Test
    void attachToSomethingThatIsNotThereOpensNoWindow() {
        String url = "http://127.0.0.1:" + lookout.console.remote.TestEngine.freeTcpPort();
        assertThat(run("--attach", url)).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("lookout: cannot reach " + url + ": connection refused");
        assertThat(run("--attach", "gopher://x")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("lookout: an engine URL starts with http:// or https://, not gopher://");
    }

    @Test
    void helpNamesCtlAttachAndTheFleet() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("lookout --attach URL [--token-file FILE]")
                .contains("lookout --fleet FILE").contains("lookout ctl [--engine URL] [--token-file FILE] [--json] COMMAND");
    }
}
