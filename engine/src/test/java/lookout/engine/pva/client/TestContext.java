package lookout.engine.pva.client;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import lookout.engine.api.Scheduler;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.PvaConfig;
import lookout.engine.core.TestServiceContext;
import lookout.engine.pva.udp.PortOwner;
import lookout.engine.seams.PvaPorts;

/** A service context for one service under test: virtual or given clock, a real I/O group. */
final class TestContext extends TestServiceContext {

    /** The engine's owner of the PVA UDP ports, as the composition root makes it. */
    final PortOwner ports = new PortOwner();

    TestContext(Scheduler scheduler) {
        super(scheduler, RandomGenerator.of("L64X128MixRandom"), Path.of("target"), Map.of());
        ports.start(this, null);
        register(PvaPorts.class, ports);
    }

    TestContext() {
        this(new VirtualScheduler());
    }

    @Override
    public void close() {
        ports.stop();
        super.close();
    }

    VirtualScheduler virtual() {
        return (VirtualScheduler) scheduler;
    }

    /** A UDP port free right now on 127.0.0.1 (bound and released). */
    static int freeUdpPort() throws SocketException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }

    /** No checks of claimed servers within a test (a day between them): tests of them turn them on. */
    static final PvaConfig.PvaServerConfig NO_CHECKS = new PvaConfig.PvaServerConfig(false, false, 5000, 100, 1250, 90,
            86_400, 30, 0);

    /** A loopback-only PVA configuration: auto address lists off (COMMON.md). */
    static PvaConfig pva(List<PvaConfig.PvaAddress> addrList, List<PvaConfig.PvaAddress> nameServers,
                         int broadcastPort, List<String> watch, List<String> ignoreGuids) {
        return new PvaConfig(addrList, false, nameServers, broadcastPort, 5075, List.of(), false, List.of(),
                NO_CHECKS, watch, false, ignoreGuids);
    }

    static Config config(PvaConfig pva) {
        return new Config(ConfigSource.of("test", null, ""), null, Map.of(), Map.of(), null, pva, null, null);
    }
}
