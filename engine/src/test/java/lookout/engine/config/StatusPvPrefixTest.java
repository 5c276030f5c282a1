package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code status.pv_prefix}: bound with the other status keys, checked at its position, on in the embedded default. */
class StatusPvPrefixTest {

    @TempDir
    Path dir;

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    @Test
    void thePrefixIsBoundBesideTheOtherStatusKeys() {
        ConfigResult r = loader.parse("status => {\n  listen => 9153\n  name => dns-1\n  pv_prefix => \"SR:DNS{lookout}:\"\n}\n",
                "s.conf", dir);
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().status().pvPrefix()).isEqualTo("SR:DNS{lookout}:");
        assertThat(r.config().status().name()).isEqualTo("dns-1");
    }

    @Test
    void withoutTheKeyNoPvsArePublished() {
        ConfigResult r = loader.parse("status => { listen => 9153 }\n", "s.conf", dir);
        assertThat(r.config().status().pvPrefix()).isNull();
        assertThat(loader.parse("resolver => { }\n", "s.conf", dir).config().status().pvPrefix()).isNull();
    }

    @Test
    void aPrefixThatCannotStartAPvNameIsAProblemAtItsPosition() {
        ConfigResult r = loader.parse("status => {\n  pv_prefix => \"two words\"\n}\n", "s.conf", dir);
        assertThat(r.problems()).singleElement().hasToString("s.conf:2:16: status.pv_prefix: expected a PV name prefix "
                + "of letters, digits and _ - : . ; [ ] < > { } $ (1 to 100 characters), found 'two words'");
        ConfigResult list = loader.parse("status => { pv_prefix => [ a, b ] }\n", "s.conf", dir);
        assertThat(list.problems()).singleElement().satisfies(p -> assertThat(p.toString()).startsWith("s.conf:1:"));
    }

    @Test
    void theEmbeddedDefaultPublishesUnderLookoutDemo() {
        ConfigResult r = new ConfigLoader(Map.of("HOME", "/home/operator")).embeddedDefault();
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().status().pvPrefix()).isEqualTo("LOOKOUT:demo:");
        assertThat(r.config().pva().server().enable()).isTrue();
        assertThat(r.config().pva().server().nameServer()).isTrue();
    }
}
