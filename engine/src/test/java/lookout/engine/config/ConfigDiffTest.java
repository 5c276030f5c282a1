package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ConfigLoader#diff}: exactly the keys that changed, per section and key path. */
class ConfigDiffTest {

    private static final String BASE = """
            resolver => {
              listen => [ 127.0.0.1:0 ]
              scopes => {
                corp => { domains => [ corp.example. ], servers => [ 192.0.2.53, 192.0.2.54 ] }
                lan  => { default => true, servers => [ 198.51.100.1 ] }
              }
              cache_size => 1000
            }
            pva => { auto_addr_list => false, watch => [ "a", "b" ] }
            """;

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    private Config config(String text, Path dir) {
        ConfigResult r = loader.parse(text, "d.conf", dir);
        assertThat(r.problems()).isEmpty();
        return r.config();
    }

    private ConfigDiff diff(String before, String after) {
        return ConfigLoader.diff(config(before, null), config(after, null));
    }

    @Test
    void sameTextIsNoChange() {
        assertThat(diff(BASE, BASE).isEmpty()).isTrue();
    }

    @Test
    void layoutCommentsAndQuotingAreNoChange() {
        String reformatted = "# a comment\n" + BASE.replace("cache_size => 1000", "cache_size = \"1000\", ")
                .replace("\n", "\n\n");
        assertThat(diff(BASE, reformatted).changes()).isEmpty();
    }

    /**
     * Issue 17 item 8: the bound zones and pools carry file positions (an inline zone's first line,
     * each pool item's line): a comment at the top moves them all, and must still be no change.
     */
    @Test
    void aCommentOrBlankLinesAboveZonesAndPoolsAreNoChange() {
        ConfigResult d = loader.embeddedDefault();
        assertThat(d.problems()).isEmpty();
        String text = d.config().source().text();
        Config before = config(text, null);
        assertThat(ConfigLoader.diff(before, config("# one more comment line at the top\n" + text, null)).changes())
                .isEmpty();
        assertThat(ConfigLoader.diff(before, config("\n\n   \n" + text.replace("\n}\n", "\n}\n\n\n")
                .replace("\n  ", "\n      ").replace(" => ", "   =>   "), null)).changes())
                .isEmpty();
        assertThat(ConfigLoader.diff(before, config(text.replace("local3 = [ 127.0.0.3, 1 ]", "local3 = [ 127.0.0.3, 2 ]"),
                null)).changes()).as("a real change still shows").hasSize(1);
    }

    @Test
    void aChangedListIsOneChangeAtItsPath() {
        ConfigDiff d = diff(BASE, BASE.replace("192.0.2.53, 192.0.2.54", "192.0.2.54, 192.0.2.53"));
        assertThat(d.changes()).containsExactly(new ConfigDiff.Change("resolver", "resolver.scopes.corp.servers",
                ConfigDiff.Kind.CHANGED, "[ 192.0.2.53, 192.0.2.54 ]", "[ 192.0.2.54, 192.0.2.53 ]"));
        assertThat(d.changes().get(0)).hasToString(
                "~ resolver.scopes.corp.servers: [ 192.0.2.53, 192.0.2.54 ] -> [ 192.0.2.54, 192.0.2.53 ]");
    }

    @Test
    void addedRemovedAndChangedKeysAcrossSections() {
        String after = BASE.replace("cache_size => 1000", "cache_size => 2000\n  search => [ corp.example. ]")
                .replace("lan  => { default => true, servers => [ 198.51.100.1 ] }\n", "")
                .replace("watch => [ \"a\", \"b\" ]", "watch => [ \"a\" ]")
                + "status => { listen => 127.0.0.1:0 }\n";
        ConfigDiff d = diff(BASE, after);
        assertThat(d.changes()).extracting(ConfigDiff.Change::toString).containsExactlyInAnyOrder(
                "- resolver.scopes.lan (was { default => true, servers => [ 198.51.100.1 ] })",
                "~ resolver.cache_size: 1000 -> 2000",
                "+ resolver.search = [ corp.example. ]",
                "~ pva.watch: [ \"a\", \"b\" ] -> [ \"a\" ]",
                "+ status = { listen => 127.0.0.1:0 }");
        assertThat(d.changes()).extracting(ConfigDiff.Change::section)
                .containsExactlyInAnyOrder("resolver", "resolver", "resolver", "pva", "status");
    }

    @Test
    void aZoneFileEditedOnDiskIsAChangeOfItsSection(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.zone"), "$TTL 60\n@ SOA ns1.a.example. admin.a.example. 1 3600 600 86400 60\n@ NS ns1.a.example.\nns1 A 192.0.2.1\n");
        String text = "zones => { a.example => a.zone }\n";
        Config before = config(text, dir);
        Files.writeString(dir.resolve("a.zone"), "$TTL 60\n@ SOA ns1.a.example. admin.a.example. 2 3600 600 86400 60\n@ NS ns2.a.example.\nns2 A 192.0.2.2\n");
        Config after = config(text, dir);
        assertThat(ConfigLoader.diff(before, after).changes()).singleElement()
                .satisfies(c -> {
                    assertThat(c.section()).isEqualTo("zones");
                    assertThat(c.kind()).isEqualTo(ConfigDiff.Kind.CHANGED);
                });
    }

    @Test
    void anEnvironmentChangeIsAChangeOfThePvaSection() {
        Config before = new ConfigLoader(Map.of()).parse("", "e.conf", null).config();
        Config after = new ConfigLoader(Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.255")).parse("", "e.conf", null).config();
        assertThat(ConfigLoader.diff(before, after).changes()).extracting(ConfigDiff.Change::path).containsExactly("pva");
    }
}
