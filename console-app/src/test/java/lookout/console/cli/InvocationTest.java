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

    @Test
    void ctlTakesTheRestOfTheLine() throws Exception {
        Invocation inv = parse("ctl", "--engine", "http://127.0.0.1:9153", "force", "127.0.0.11/*", "DOWN");
        assertThat(inv.mode()).isEqualTo(Mode.CTL);
        assertThat(inv.ctlArgs()).containsExactly("--engine", "http://127.0.0.1:9153", "force", "127.0.0.11/*", "DOWN");
        assertThatThrownBy(() -> parse("--config", "a", "ctl")).hasMessage("ctl comes first: lookout ctl [--engine URL] COMMAND");
    }

    @Test
    void attachOneEngineOrAFleet() throws Exception {
        Invocation one = parse("--attach", "http://10.0.0.5:9153", "--token-file", "t");
        assertThat(one.mode()).isEqualTo(Mode.ATTACH);
        assertThat(one.attach()).containsExactly("http://10.0.0.5:9153");
        assertThat(one.tokenFile()).isEqualTo(Path.of("t"));
        assertThat(parse("--attach=127.0.0.1").mode()).isEqualTo(Mode.ATTACH);
        Invocation two = parse("--attach", "a:9153", "b:9153");
        assertThat(two.mode()).isEqualTo(Mode.FLEET);
        assertThat(two.attach()).containsExactly("a:9153", "b:9153");
        Invocation file = parse("--fleet", "fleet.txt");
        assertThat(file.mode()).isEqualTo(Mode.FLEET);
        assertThat(file.fleet()).isEqualTo(Path.of("fleet.txt"));

        assertThatThrownBy(() -> parse("--attach")).hasMessage("--attach needs an engine URL");
        assertThatThrownBy(() -> parse("--attach", "a", "--config", "x.conf"))
                .hasMessage("--attach and --config cannot be combined: an attached console runs no engine of its own");
        assertThatThrownBy(() -> parse("--headless", "--attach", "a")).hasMessageContaining("cannot be combined");
        assertThatThrownBy(() -> parse("--attach", "a", "--fleet", "f")).hasMessageContaining("--attach and --fleet cannot be combined");
        assertThatThrownBy(() -> parse("--token-file", "t")).hasMessage("--token-file applies to --attach and --fleet (and to lookout ctl)");
    }
}
