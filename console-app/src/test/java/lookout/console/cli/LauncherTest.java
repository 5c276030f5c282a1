package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** check-config end to end through the real ConfigLoader; no JavaFX anywhere on this path. */
class LauncherTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int check(Path file) {
        return CheckConfig.run(file, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aValidFileExitsZero() throws Exception {
        Path f = dir.resolve("good.conf");
        Files.writeString(f, "status => { listen => 127.0.0.1:9153 }\n");
        assertThat(check(f)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(f + ": OK (sha256 ");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void anInvalidFileExitsOneWithFileLineColumn() throws Exception {
        Path f = dir.resolve("bad.conf");
        Files.writeString(f, "# a comment\nstatus => { listen => 127.0.0.1:9153 }\nresolvr => { }\n");
        assertThat(check(f)).isEqualTo(1);
        String e = err.toString(StandardCharsets.UTF_8);
        assertThat(e).matches("(?s)" + java.util.regex.Pattern.quote(f.toString()) + ":3:1: .*resolv.*\n");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aMissingFileIsOneProblemAtLineOneColumnOne() {
        Path f = dir.resolve("absent.conf");
        assertThat(check(f)).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(f + ":1:1: ");
    }
}
