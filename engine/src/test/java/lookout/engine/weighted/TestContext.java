package lookout.engine.weighted;

import java.nio.file.Path;
import java.util.Map;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.vscf.VNode;
import lookout.engine.core.TestServiceContext;

/** A service context on a virtual clock, a real Netty group for probes, a temp state_dir. */
final class TestContext extends TestServiceContext {

    final VirtualScheduler scheduler;

    TestContext(Path stateDir, long seed) {
        this(new VirtualScheduler(), stateDir, seed);
    }

    private TestContext(VirtualScheduler scheduler, Path stateDir, long seed) {
        super(scheduler, new java.util.SplittableRandom(seed), stateDir, Map.of());
        this.scheduler = scheduler;
    }

    /** A configuration with only the service types and weighted stanza of {@code text}. */
    static Config config(String text) {
        ConfigProblems p = new ConfigProblems();
        VNode.Hash root = Synopsis.parse(text);
        Map<String, ServiceTypeConfig> types = ServiceTypeConfig.bindAll((VNode.Hash) root.get("service_types"), p);
        VNode.Hash plugins = (VNode.Hash) root.get("plugins");
        WeightedConfig w = WeightedConfig.bind(plugins == null ? null : (VNode.Hash) plugins.get("weighted"), types, p);
        if (!p.isEmpty()) {
            throw new IllegalArgumentException(p.list().toString());
        }
        return new Config(ConfigSource.of("test.conf", Path.of("."), text), null, Map.of(), types, w, null, null, null);
    }

    <T> T call(java.util.concurrent.Callable<T> body) {
        return scheduler.call(body);
    }
}
