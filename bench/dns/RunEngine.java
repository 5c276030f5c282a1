import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.boot.Engines;

/**
 * Benchmark launcher: runs the engine on a configuration file with a real clock until killed,
 * printing the resolver's counters on SIGTERM. Run as a single-file program:
 * java -cp engine/target/classes:DEPS bench/dns/RunEngine.java FILE
 */
public class RunEngine {
    public static void main(String[] args) throws Exception {
        ConfigResult r = new ConfigLoader(System.getenv()).load(Path.of(args[0]));
        if (!r.ok()) {
            r.problems().forEach(System.err::println);
            System.exit(1);
        }
        // bench/dns.sh chooses how UDP is read with -Dlookout.udp (as the launcher's --udp-reads)
        Engine engine = Engines.create(EngineOptions.defaults()
                .withUdpReads(EngineOptions.UdpReads.parse(System.getProperty("lookout.udp", "auto"))));
        engine.start(r.config());
        System.out.println("lookout: resolver up");
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            var s = engine.snapshot().resolver();
            System.out.println("lookout: queries=" + s.queries() + " cacheHits=" + s.cacheHits()
                    + " sentUdp=" + s.upstreamSentUdp() + " failed=" + s.upstreamFailed()
                    + " unavailable=" + s.unavailable() + " refused=" + s.refused());
            engine.stop();
            done.countDown();
        }));
        done.await();
    }
}
