package lookout.engine.pva.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.PvaConfig;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.config.PvaConfig.PvaServerConfig;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.pva.udp.PortOwner;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.ResolvedNames;

/**
 * Runs one real {@link PvaServerService} on real sockets with a virtual clock: the service context
 * the engine would give it, with a {@link ResolvedNames} supplied by the test (the engine's PVA
 * client in production).
 */
final class ServerHarness implements ServiceContext, AutoCloseable {

    final VirtualScheduler scheduler = new VirtualScheduler();
    final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1,
            lookout.engine.net.Transport.choose(null).ioHandlerFactory());
    final Map<String, String> env = new HashMap<>();
    final List<EngineEvent> events = new ArrayList<>();
    final RandomGenerator random = new SplittableRandom(6);
    final ResolvedNames resolved;
    final PvaServerService service = new PvaServerService();
    /** The engine's owner of the PVA UDP ports, as the composition root makes it. */
    final PortOwner ports;

    final EngineOptions options;

    ServerHarness(ResolvedNames resolved, boolean forwarding) {
        this(resolved, forwarding, true);
    }

    /** @param kernelFilter false: the port owner never filters own forwarded copies in the kernel */
    ServerHarness(ResolvedNames resolved, boolean forwarding, boolean kernelFilter) {
        this.ports = new PortOwner(kernelFilter);
        this.resolved = resolved;
        this.options = EngineOptions.forTest(scheduler, random, Path.of(System.getProperty("java.io.tmpdir")))
                .withPvaForwarding(forwarding);
        ports.start(this, null);
    }

    static PvaConfig pva(int udpPort, int tcpPort, List<PvaAddress> beacons, List<PvaAddress> ignore, boolean nameServer) {
        return new PvaConfig(List.of(new PvaAddress("127.0.0.1", 0)), false, List.of(), udpPort, tcpPort, beacons, false,
                ignore, new PvaServerConfig(true, nameServer), List.of(), false, List.of());
    }

    static Config config(PvaConfig pva) {
        return new Config(null, null, Map.of(), Map.of(), null, pva, null, null);
    }

    ServerHarness start(PvaConfig pva) {
        scheduler.call(() -> {
            service.start(this, config(pva));
            return null;
        });
        return this;
    }

    PvaServerSnapshot serverSnapshot() {
        return scheduler.call(service::snapshot);
    }

    int udpPort() {
        return serverSnapshot().udpPort();
    }

    int tcpPort() {
        return serverSnapshot().tcpPort();
    }

    InetSocketAddress udp() {
        return new InetSocketAddress("127.0.0.1", udpPort());
    }

    @Override
    public void close() {
        scheduler.call(() -> {
            service.stop();
            ports.stop();
            return null;
        });
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        scheduler.close();
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
        synchronized (events) {
            events.add(event);
        }
    }

    @Override
    public Path stateDir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    @Override
    public Map<String, String> environment() {
        return env;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T seam(Class<T> type) {
        ServiceContext.requireSeam(type);
        if (type == PvaPorts.class) {
            return (T) ports;
        }
        return type == ResolvedNames.class ? (T) resolved : null;
    }

    @Override
    public EngineOptions options() {
        return options;
    }

    SnapshotBuilder contribute() {
        SnapshotBuilder b = new SnapshotBuilder();
        scheduler.call(() -> {
            service.contribute(b);
            return null;
        });
        return b;
    }
}
