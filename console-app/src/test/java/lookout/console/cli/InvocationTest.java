package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import lookout.console.cli.Invocation.LogLevel;
import lookout.console.cli.Invocation.Mode;
import org.junit.jupiter.api.Test;

class InvocationTest {

    private static Invocation parse(String... args) throws UsageException {
        return Invocation.parse(List.of(args));
    }

    @Test
    void noArgumentIsTheConsoleOnTheEmbeddedDefault() throws Exception {
        assertThat(parse()).isEqualTo(new Invocation(Mode.CONSOLE, null, LogLevel.INFO));
    }

    @Test
    void eachModeWithItsFile() throws Exception {
        assertThat(parse("--config", "a.conf")).isEqualTo(new Invocation(Mode.CONSOLE, Path.of("a.conf"), LogLevel.INFO));
        assertThat(parse("--config=a.conf")).isEqualTo(new Invocation(Mode.CONSOLE, Path.of("a.conf"), LogLevel.INFO));
        assertThat(parse("--headless", "--config", "b.conf"))
                .isEqualTo(new Invocation(Mode.HEADLESS, Path.of("b.conf"), LogLevel.INFO));
        assertThat(parse("--config", "b.conf", "--headless", "--log-level", "debug"))
                .isEqualTo(new Invocation(Mode.HEADLESS, Path.of("b.conf"), LogLevel.DEBUG));
        assertThat(parse("--headless")).isEqualTo(new Invocation(Mode.HEADLESS, null, LogLevel.INFO));
        assertThat(parse("--check-config", "c.conf"))
                .isEqualTo(new Invocation(Mode.CHECK_CONFIG, Path.of("c.conf"), LogLevel.INFO));
        assertThat(parse("--check-config=c.conf").config()).isEqualTo(Path.of("c.conf"));
        assertThat(parse("--help").mode()).isEqualTo(Mode.HELP);
        assertThat(parse("-h").mode()).isEqualTo(Mode.HELP);
        assertThat(parse("--version").mode()).isEqualTo(Mode.VERSION);
    }

    @Test
    void nonsenseIsAUsageErrorSayingWhy() {
        assertThatThrownBy(() -> parse("--bogus")).hasMessage("unknown option '--bogus'");
        assertThatThrownBy(() -> parse("file.conf")).hasMessageContaining("unexpected argument 'file.conf'");
        assertThatThrownBy(() -> parse("--config")).hasMessage("--config needs a value");
        assertThatThrownBy(() -> parse("--config", "--headless")).hasMessage("--config needs a value");
        assertThatThrownBy(() -> parse("--check-config")).hasMessage("--check-config needs a value");
        assertThatThrownBy(() -> parse("--config", "a", "--config", "b")).hasMessage("--config given twice");
        assertThatThrownBy(() -> parse("--headless", "--check-config", "x"))
                .hasMessage("--headless and --check-config cannot be combined");
        assertThatThrownBy(() -> parse("--check-config", "x", "--config", "y"))
                .hasMessageContaining("drop --config");
        assertThatThrownBy(() -> parse("--headless=yes")).hasMessage("--headless takes no value");
        assertThatThrownBy(() -> parse("--version", "--config", "a")).hasMessage("--version takes no other option");
        assertThatThrownBy(() -> parse("--log-level", "info")).hasMessage("--log-level applies to --headless only");
        assertThatThrownBy(() -> parse("--headless", "--log-level", "loud")).hasMessageContaining("unknown log level");
        assertThatThrownBy(() -> parse("--config=")).hasMessage("--config needs a file name");
    }
}
