package lookout.bench;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * Runs the engine headless on a configuration file until SIGTERM, for benchmark and comparison
 * scripts ({@code bench/gdnsd-compare.sh}, {@code bench/pools-dnsperf.sh}) that should not need
 * JavaFX. Prints {@code ready} once started.
 */
public final class ServeConfig {

    private ServeConfig() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ServeConfig CONFIG_FILE");
            System.exit(2);
        }
        ConfigResult r = new ConfigLoader(System.getenv()).load(Path.of(args[0]));
        if (!r.ok()) {
            for (ConfigProblem p : r.problems()) {
                System.err.println(p);
            }
            System.exit(1);
        }
        // the scripts choose the launcher's I/O options with -Dlookout.udp / -Dlookout.transport
        EngineOptions options = EngineOptions.defaults()
                .withUdpReads(EngineOptions.UdpReads.parse(System.getProperty("lookout.udp", "auto")))
                .withTransport(EngineOptions.TransportChoice.parse(System.getProperty("lookout.transport", "auto")));
        Engine engine = Engines.create(options);
        engine.start(r.config());
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            engine.stop();
            done.countDown();
        }));
        System.out.println("ready");
        System.out.flush();
        done.await();
    }
}
