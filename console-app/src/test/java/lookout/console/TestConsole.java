package lookout.console;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigSource;
import lookout.engine.boot.Engines;
import org.testfx.util.WaitForAsyncUtils;

/**
 * An engine for FX tests: virtual time, seeded randomness, state in a temp folder, and a
 * configuration that binds nothing on a fixed port (other helpers run tests at the same time).
 */
final class TestConsole {

    /**
     * Loopback only, ephemeral ports, auto address lists off, no PVA server: nothing fixed, nothing
     * broadcast. Line 1 is a comment so that the tests' line numbers are easy to read.
     */
    static final String MINIMAL = minimal(freeUdpPort(), freeUdpPort());

    private static String minimal(int broadcastPort, int serverPort) {
        return with("", "", broadcastPort, serverPort);
    }

    /**
     * A test configuration: {@code resolverExtra} goes inside {@code resolver { }} after its
     * listen line (line 3), {@code sections} after the resolver section.
     */
    static String with(String resolverExtra, String sections) {
        return with(resolverExtra, sections, freeUdpPort(), freeUdpPort());
    }

    private static String with(String resolverExtra, String sections, int broadcastPort, int serverPort) {
        return """
            # Lookout console FX test configuration
            resolver => {
              listen => [ 127.0.0.1:0 ]
            %s}
            %spva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              auto_beacon_addr_list => false
              beacon_addr_list => [ ]
              broadcast_port => %d
              server_port => %d
              server => { enable => false }
            }
            """.formatted(resolverExtra, sections, broadcastPort, serverPort);
    }

    /**
     * A UDP port free right now (pva ports must be 1..65535, so 0 cannot be written): bound on
     * loopback and released, so that concurrent test runs do not collide on 5075/5076.
     */
    static int freeUdpPort() {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    final VirtualScheduler scheduler = new VirtualScheduler();
    final Engine engine;
    final ConfigLoader loader = new ConfigLoader(Map.of());

    TestConsole(Path stateDir) {
        engine = Engines.create(EngineOptions.forTest(scheduler, new Random(1), stateDir));
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
        return parse(MINIMAL, dir);
    }

    ConfigResult parse(String text, Path dir) {
        if (parserAvailable(dir)) {
            return loader.parse(text, dir.resolve("test.conf").toString(), dir);
        }
        Config c = new Config(ConfigSource.of(dir.resolve("test.conf").toString(), dir, text), null, Map.of(),
                Map.of(), null, null, null, dir);
        return new ConfigResult(c, List.of());
    }

    /** A console window on this engine with {@code initial} open (its own file and text), shown on {@code stage}. */
    ConsoleWindow open(ConfigResult initial, Stage stage) {
        ConsoleWindow window = new ConsoleWindow(engine, loader);
        window.open(initial, initial.config().source().name(), initial.config().source().text());
        window.show(stage);
        return window;
    }

    /** Waits up to 10 s (wall time: the FX thread's, not the engine's virtual clock) for {@code condition}. */
    static void waitFor(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, condition);
    }

    /** {@code read} on the FX thread, its result here. */
    static <T> T fx(Callable<T> read) throws Exception {
        return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
    }

    void close() {
        engine.stop();
        scheduler.close();
    }
}
