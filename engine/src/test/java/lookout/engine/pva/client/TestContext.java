package lookout.engine.pva.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
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
import lookout.engine.config.ConfigSource;
import lookout.engine.config.PvaConfig;
import lookout.engine.core.ServiceContext;

/** A service context for one service under test: virtual or given clock, a real I/O group. */
final class TestContext implements ServiceContext, AutoCloseable {

    final Scheduler scheduler;
    final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final List<EngineEvent> events = new CopyOnWriteArrayList<>();

    TestContext(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    TestContext() {
        this(new VirtualScheduler());
    }

    VirtualScheduler virtual() {
        return (VirtualScheduler) scheduler;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public RandomGenerator random() {
        return RandomGenerator.of("L64X128MixRandom");
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
        return Path.of("target");
    }

    @Override
    public Map<String, String> environment() {
        return Map.of();
    }

    @Override
    public <T> T service(Class<T> type) {
        return null;
    }

    <T extends EngineEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public void close() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        if (scheduler instanceof VirtualScheduler v) {
            v.close();
        }
    }

    /** A UDP port free right now on 127.0.0.1 (bound and released). */
    static int freeUdpPort() throws SocketException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }

    /** A loopback-only PVA configuration: auto address lists off (COMMON.md). */
    static PvaConfig pva(List<PvaConfig.PvaAddress> addrList, List<PvaConfig.PvaAddress> nameServers,
                         int broadcastPort, List<String> watch, List<String> ignoreGuids) {
        return new PvaConfig(addrList, false, nameServers, broadcastPort, 5075, List.of(), false, List.of(),
                new PvaConfig.PvaServerConfig(false, false), watch, false, ignoreGuids);
    }

    static Config config(PvaConfig pva) {
        return new Config(ConfigSource.of("test", null, ""), null, Map.of(), Map.of(), null, pva, null, null);
    }
}
