package lookout.engine.weighted;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.api.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.vscf.VNode;
import lookout.engine.core.ServiceContext;

/** A service context on a virtual clock, a real Netty group for probes, a temp state_dir. */
final class TestContext implements ServiceContext, AutoCloseable {

    final VirtualScheduler scheduler = new VirtualScheduler();
    final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final RandomGenerator random;
    final Path stateDir;
    final List<EngineEvent> events = new CopyOnWriteArrayList<>();

    TestContext(Path stateDir, long seed) {
        this.stateDir = stateDir;
        this.random = new java.util.SplittableRandom(seed);
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

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public EventLoopGroup io() {
        return io;
    }

    @Override
    public void publish(EngineEvent event) {
        events.add(event);
    }

    @Override
    public Path stateDir() {
        return stateDir;
    }

    @Override
    public Map<String, String> environment() {
        return Map.of();
    }

    @Override
    public <T> T service(Class<T> type) {
        return null;
    }

    @Override
    public void close() {
        scheduler.close();
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
