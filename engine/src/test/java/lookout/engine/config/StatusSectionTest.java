package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status section's tokens and name, and what counts as a text that serves nothing. */
class StatusSectionTest {

    @TempDir
    Path dir;

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    @Test
    void namedTokensAreReadFromTheirFilesAndNeverPrinted() throws Exception {
        Files.writeString(dir.resolve("alice.token"), "  alice-0123456789abcdef\n");
        Files.writeString(dir.resolve("wall.token"), "wall-0123456789abcdef");
        ConfigResult r = loader.parse("""
                status => {
                  listen => 9153
                  name => dns-1
                  tokens => {
                    alice => { role => operator, file => alice.token }
                    wall => { role => viewer, file => wall.token }
                  }
                }
                """, "s.conf", dir);
        assertThat(r.problems()).isEmpty();
        StatusConfig s = r.config().status();
        assertThat(s.name()).isEqualTo("dns-1");
        assertThat(s.beyondLoopback()).isFalse();
        assertThat(s.tokens()).containsOnlyKeys("alice", "wall");
        assertThat(s.tokens().get("alice").secret()).isEqualTo("alice-0123456789abcdef");
        assertThat(s.tokens().get("wall").role()).isEqualTo(StatusConfig.Role.VIEWER);
        assertThat(s.toString()).doesNotContain("0123456789abcdef");
    }

    @Test
    void aShortOrSpacedTokenIsAProblemThatDoesNotQuoteIt() throws Exception {
        Files.writeString(dir.resolve("short.token"), "secret-ish");
        ConfigResult r = loader.parse("status => { tokens => { bob => { role => operator, file => short.token } } }\n",
                "s.conf", dir);
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.toString()).startsWith("s.conf:1:").contains("at least 16 characters");
            assertThat(p.toString()).doesNotContain("secret-ish");
        });
    }

    @Test
    void anEmptyCommentOnlyOrStateOnlyTextServesNothing() {
        for (String t : new String[] {"", "# nothing here\n\n", "state_dir => /var/lib/lookout\n",
                "service_types => { }\n"}) {
            ConfigResult r = loader.parse(t, "e.conf", dir);
            assertThat(r.ok()).as(t).isTrue();
            assertThat(loader.servesNothing(r.config())).as(t).isTrue();
        }
        for (String t : new String[] {"status => { listen => 9153 }\n", "resolver => { cache_size => 5 }\n",
                "zones => { a.test => { text => \"\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 127.0.0.1\n\" } }\n"}) {
            ConfigResult r = loader.parse(t, "e.conf", dir);
            assertThat(r.problems()).as(t).isEmpty();
            assertThat(loader.servesNothing(r.config())).as(t).isFalse();
        }
        assertThat(loader.servesNothing(loader.embeddedDefault().config())).isFalse();
    }
}
