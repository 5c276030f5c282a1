package lookout.console;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigSource;

/**
 * An engine for FX tests: virtual time, seeded randomness, state in a temp folder, and a
 * configuration that binds nothing on a fixed port (other helpers run tests at the same time).
 */
final class TestConsole {

    /**
     * Loopback only, ephemeral ports, auto address lists off, no PVA server: nothing fixed, nothing
     * broadcast. Line 1 is a comment so that the tests' line numbers are easy to read.
     */
    static final String MINIMAL = """
            # Lookout console FX test configuration
            resolver => {
              listen => [ 127.0.0.1:0 ]
            }
            pva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              auto_beacon_addr_list => false
              beacon_addr_list => [ ]
              broadcast_port => 0
              server_port => 0
              server => { enable => false }
            }
            """;

    final VirtualScheduler scheduler = new VirtualScheduler();
    final Engine engine;
    final ConfigLoader loader = new ConfigLoader(Map.of());

    TestConsole(Path stateDir) {
        engine = Engine.create(EngineOptions.forTest(scheduler, new Random(1), stateDir));
    }

    /** True once the engine's configuration parser exists (it is written by another work item). */
    static boolean parserAvailable(Path dir) {
        try {
            new ConfigLoader(Map.of()).parse("", "probe.conf", dir);
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** The minimal configuration, parsed by the real parser when it exists, else built by hand. */
    ConfigResult minimal(Path dir) {
        if (parserAvailable(dir)) {
            return loader.parse(MINIMAL, dir.resolve("test.conf").toString(), dir);
        }
        Config c = new Config(ConfigSource.of(dir.resolve("test.conf").toString(), dir, MINIMAL), null, Map.of(),
                Map.of(), null, null, null, dir);
        return new ConfigResult(c, List.of());
    }

    void close() {
        engine.stop();
        scheduler.close();
    }
}
