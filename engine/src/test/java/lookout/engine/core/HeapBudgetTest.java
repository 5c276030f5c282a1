package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import org.junit.jupiter.api.Test;

class HeapBudgetTest {

    private static Config config(String text) {
        return new ConfigLoader(Map.of()).parse(text, "h.conf", null).config();
    }

    @Test
    void theCacheAndTheWatchedNamesEachAddToTheBaseAsTheLauncherCountsThem() {
        // jlink/build-image.sh: 128 MiB + cache_size / 2048 MiB + watched names / 2048 MiB
        HeapBudget none = HeapBudget.of(config("resolver => { cache_size => 0 }"));
        assertThat(none.bytes()).isEqualTo(128L << 20);
        HeapBudget both = HeapBudget.of(config("resolver => { cache_size => 100000 }\n"
                + "pva => { watch => [ \"a:1\" \"a:2\" \"a:3\" \"a:4\" ] }"));
        assertThat(both.cacheEntries()).isEqualTo(100000);
        assertThat(both.watchedNames()).isEqualTo(4);
        assertThat(both.bytes()).isEqualTo((128L << 20) + 100000 * 512L + 4 * 512L);
    }

    @Test
    void aLimitBelowNineTenthsOfTheNeedIsTold() {
        HeapBudget b = HeapBudget.of(config("resolver => { cache_size => 1000000 }"));
        assertThat(b.shortfall(Long.MAX_VALUE)).isEmpty(); // no limit
        assertThat(b.shortfall(b.bytes())).isEmpty();
        assertThat(b.shortfall(b.bytes() * 9 / 10)).isEmpty(); // the launcher's rounding
        assertThat(b.shortfall(128L << 20)).hasValueSatisfying(w -> assertThat(w)
                .contains("resolver.cache_size 1000000", "0 names in pva.watch", "needs about 616 MB",
                        "may use 128 MB", "LOOKOUT_OPTS=-Xmx617m"));
    }
}
