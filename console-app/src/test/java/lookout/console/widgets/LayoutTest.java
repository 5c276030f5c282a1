package lookout.console.widgets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 11: the layout file per user, written whole and read back; a damaged one is a fresh start. */
class LayoutTest {

    @Test
    void writtenAndReadBack(@TempDir Path dir) throws Exception {
        Layout l = Layout.forUser(Map.of("XDG_CONFIG_HOME", dir.toString()));
        assertThat(l.file()).isEqualTo(dir.resolve("lookout/console.properties"));
        assertThat(l.put("window.width", "1111")).isTrue();
        assertThat(l.put("window.width", "1111")).isFalse();
        l.put("filter.events.text", "démoted: 192.0.2.53");
        Layout.write(l.file(), l.snapshot());
        Layout again = Layout.at(l.file());
        assertThat(again.number("window.width", 0)).isEqualTo(1111);
        assertThat(again.get("filter.events.text")).isEqualTo("démoted: 192.0.2.53");
        assertThat(Files.list(l.file().getParent())).extracting(p -> p.getFileName().toString())
                .containsExactly("console.properties");
    }

    @Test
    void homeWhenNoXdgAndADamagedFileIsAFreshStart(@TempDir Path dir) throws Exception {
        Layout l = Layout.forUser(Map.of("HOME", dir.toString()));
        assertThat(l.file()).isEqualTo(dir.resolve(".config/lookout/console.properties"));
        Files.createDirectories(l.file().getParent());
        Files.writeString(l.file(), "window.width=\\u12");
        assertThat(Layout.at(l.file()).get("window.width")).isNull();
        assertThat(Layout.at(l.file()).number("window.width", 7)).isEqualTo(7);
        assertThat(Layout.none().kept()).isFalse();
    }
}
