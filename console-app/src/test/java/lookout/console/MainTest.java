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
}
