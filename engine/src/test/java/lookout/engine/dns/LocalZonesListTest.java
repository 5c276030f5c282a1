package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 11: the snapshot lists the local zones — names, record counts, SOA serials — and follows a reload. */
class LocalZonesListTest {

    static final String CONFIG = """
            resolver => { listen => [ 127.0.0.1:0 ] }
            zones => {
              b.test => { text => "
            @ SOA ns1 hostmaster 2026112901 7200 1800 604800 300
            @ NS ns1
            ns1 A 127.0.0.1
            www A 127.0.0.1
            www A 127.0.0.2
            " }
              a.test => { text => "
            @ SOA ns1.a.test. hostmaster.a.test. 4294967295 7200 1800 604800 300
            @ NS ns1
            ns1 A 127.0.0.1
            " }
            }
            pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ ], auto_beacon_addr_list => false }
            """;

    @TempDir
    Path dir;
    private final VirtualScheduler clock = new VirtualScheduler();
    private Engine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.stop();
        }
        clock.close();
    }

    @Test
    void zonesWithTheirRecordsAndSerials() {
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), dir));
        ConfigResult c = new ConfigLoader(Map.of()).parse(CONFIG, "z.conf", dir);
        assertThat(c.problems()).isEmpty();
        engine.start(c.config());
        assertThat(engine.snapshot().resolver().zones()).containsExactly(
                new ResolverSnapshot.Zone("a.test.", 3, 0, 4294967295L),
                new ResolverSnapshot.Zone("b.test.", 5, 0, 2026112901L));

        assertThat(engine.reload(CONFIG.replace("2026112901", "2026112902").replace("www A 127.0.0.2\n", ""), "z.conf", dir)
                .applied()).isTrue();
        assertThat(engine.snapshot().resolver().zones()).contains(new ResolverSnapshot.Zone("b.test.", 4, 0, 2026112902L));
    }
}
