package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.config.PvaConfig;
import org.epics.pva.PVASettings;
import org.epics.pva.data.PVAInt;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lookout's client against a real org.phoebus:core-pva 4.7.3 {@link PVAServer} on loopback:
 * UDP search (including a PV created after searching began), a discovery ping, and search over
 * a TCP name-server connection. core-pva listens on 127.0.0.1 only, on free ports, and joins no
 * multicast group; our auto address list is off.
 */
class CorePvaInteropTest {

    TestContext ctx;
    PVAServer server;
    PvaClientService svc;
    int serverUdpPort;
    int serverTcpPort;

    @BeforeEach
    void startCorePva() throws Exception {
        serverUdpPort = TestContext.freeUdpPort();
        try (ServerSocket s = new ServerSocket(0)) {
            serverTcpPort = s.getLocalPort();
        }
        // core-pva reads these statics when its server starts
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        PVASettings.EPICS_PVAS_BROADCAST_PORT = serverUdpPort;
        PVASettings.EPICS_PVA_BROADCAST_PORT = serverUdpPort;
        PVASettings.EPICS_PVA_SERVER_PORT = serverTcpPort;
        PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
        PVASettings.EPICS_PVA_ADDR_LIST = "";
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        server = new PVAServer();
        serverTcpPort = server.getTCPAddress(false).getPort();
        server.createPV("interop:a", new PVAStructure("a", "structure", new PVAInt("value", 1)));
        server.createPV("interop:b", new PVAStructure("b", "structure", new PVAInt("value", 2)));
        ctx = new TestContext();
    }

    @AfterEach
    void stop() {
        if (svc != null) {
            ctx.virtual().call(() -> {
                svc.stop();
                return null;
            });
        }
        server.close();
        ctx.close();
    }

    void startClient(List<PvaConfig.PvaAddress> addrList, List<PvaConfig.PvaAddress> nameServers) throws Exception {
        PvaConfig pva = TestContext.pva(addrList, nameServers, TestContext.freeUdpPort(),
                List.of("interop:a", "interop:b", "interop:late"), List.of());
        svc = new PvaClientService();
        ctx.virtual().call(() -> {
            svc.start(ctx, TestContext.config(pva));
            return null;
        });
    }

    PvaSnapshot snap() {
        return ctx.virtual().call(svc::snapshot);
    }

    PvaChannelSnapshot channel(String name) {
        return snap().channels().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** Advances virtual time a second at a time (ring ticks) until {@code name} resolves. */
    void awaitResolved(String name) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            if ("RESOLVED".equals(channel(name).state())) {
                return true;
            }
            ctx.virtual().advance(Duration.ofMillis(500));
            return false;
        });
    }

    @Test
    void udpSearchFindsCorePvaPvsIncludingOneAddedLater() throws Exception {
        startClient(List.of(new PvaConfig.PvaAddress("127.0.0.1", serverUdpPort)), List.of());
        ctx.virtual().advance(Duration.ofMillis(10));
        awaitResolved("interop:a");
        awaitResolved("interop:b");
        PvaChannelSnapshot a = channel("interop:a");
        assertThat(a.endpoint()).endsWith(":" + serverTcpPort);
        assertThat(a.guid()).hasSize(24);
        assertThat(channel("interop:b").guid()).isEqualTo(a.guid());
        assertThat(channel("interop:late").state()).isEqualTo("SEARCHING");

        // searching began long ago; the PV appears now and is found on a later ring tick
        ctx.virtual().advance(Duration.ofSeconds(20));
        server.createPV("interop:late", new PVAStructure("late", "structure", new PVAInt("value", 3)));
        awaitResolved("interop:late");
        assertThat(channel("interop:late").guid()).isEqualTo(a.guid());
        assertThat(ctx.events(EngineEvent.PvResolved.class)).hasSize(3);
        assertThat(ctx.events(EngineEvent.DuplicatePvClaim.class)).isEmpty();
        assertThat(snap().searching()).isZero();

        // a discovery ping gets core-pva's answer (sequence 0, found false) into the server table
        ctx.virtual().call(() -> {
            svc.discoveryPing();
            return null;
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> !snap().servers().isEmpty());
        var s = snap().servers().get(0);
        assertThat(s.guid()).isEqualTo(a.guid());
        assertThat(s.endpoint()).endsWith(":" + serverTcpPort);
        assertThat(s.discoveryReplies()).isEqualTo(1);
        assertThat(s.beacons()).isZero();
    }

    @Test
    void namesResolveThroughATcpNameServer() throws Exception {
        startClient(List.of(), List.of(new PvaConfig.PvaAddress("127.0.0.1", serverTcpPort)));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                snap().nameServers().get(0).state().equals("READY"));
        awaitResolved("interop:a");
        awaitResolved("interop:b");
        assertThat(channel("interop:a").endpoint()).endsWith(":" + serverTcpPort);
        assertThat(snap().nameServers().get(0).replies()).isPositive();
        ctx.virtual().advance(Duration.ofSeconds(5));
        server.createPV("interop:late", new PVAStructure("late", "structure", new PVAInt("value", 3)));
        awaitResolved("interop:late");
        assertThat(snap().destinations()).isEmpty();
    }

    @Test
    void nameServerReconnectsEveryTenSeconds() throws Exception {
        startClient(List.of(), List.of(new PvaConfig.PvaAddress("127.0.0.1", serverTcpPort)));
        await().atMost(Duration.ofSeconds(10)).until(() -> snap().nameServers().get(0).state().equals("READY"));
        server.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> snap().nameServers().get(0).state().equals("DISCONNECTED"));
        // a new server on the same port; the client comes back on its 10-s check, not before
        PVASettings.EPICS_PVA_SERVER_PORT = serverTcpPort;
        server = new PVAServer();
        assertThat(server.getTCPAddress(false).getPort()).isEqualTo(serverTcpPort);
        server.createPV("interop:a", new PVAStructure("a", "structure", new PVAInt("value", 1)));
        assertThat(snap().nameServers().get(0).state()).isEqualTo("DISCONNECTED");
        ctx.virtual().advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> snap().nameServers().get(0).state().equals("READY"));
        awaitResolved("interop:a");
    }
}
