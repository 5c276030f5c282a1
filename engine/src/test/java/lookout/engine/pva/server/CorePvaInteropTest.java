package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.pva.wire.SearchResponse;
import org.awaitility.Awaitility;
import org.epics.pva.PVASettings;
import org.epics.pva.client.BeaconTracker;
import org.epics.pva.client.PVAChannel;
import org.epics.pva.client.PVAClient;
import org.epics.pva.data.PVADouble;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Interoperation with org.phoebus:core-pva 4.7.3 on loopback: a core-pva server hosts a PV,
 * Lookout's server vouches for it (what the engine's PVA client resolved is supplied from a real
 * search of the core-pva server), core-pva clients resolve it through Lookout over TCP (name
 * server only) and over UDP, connect to the core-pva server and read the value; the core-pva
 * client's beacon tracking decodes Lookout's beacons.
 *
 * <p>core-pva reads its settings from static fields, so they are set before each construction.
 */
class CorePvaInteropTest {

    static final String PV = "lookout:interop:pv";
    static PVAServer coreServer;
    static int coreUdp;
    static SearchResponse coreReply;

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    static int freeUdpPort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @BeforeAll
    static void coreServer() throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        coreUdp = freeUdpPort();
        PVASettings.EPICS_PVAS_BROADCAST_PORT = coreUdp;
        PVASettings.EPICS_PVA_SERVER_PORT = freePort();
        coreServer = new PVAServer();
        coreServer.createPV(PV, new PVAStructure("demo", "epics:nt/NTScalar:1.0", new PVADouble("value", 42.5)));
        // What the engine's PVA client learns by searching the subnet: GUID and endpoint.
        try (RawPva c = new RawPva()) {
            for (int i = 0; i < 5 && coreReply == null; i++) {
                c.send(RawPva.bytes(RawPva.search(1, 0, null, c.port(), PV)), new InetSocketAddress("127.0.0.1", coreUdp));
                coreReply = c.reply(1000);
            }
        }
        assertThat(coreReply).as("core-pva server answers a search").isNotNull();
    }

    @AfterAll
    static void stop() {
        if (coreServer != null) {
            coreServer.close();
        }
    }

    private static FakeResolved resolvedLikeTheClient() {
        FakeResolved r = new FakeResolved();
        String host = coreReply.serverAddress().isAnyLocalAddress() ? "127.0.0.1" : coreReply.serverAddress().getHostAddress();
        r.resolve(PV, coreReply.guid().toString(), new InetSocketAddress(host, coreReply.serverPort()));
        return r;
    }

    private static PVAClient client(String addrList, String nameServers, int broadcastPort) throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
        PVASettings.EPICS_PVA_ADDR_LIST = addrList;
        PVASettings.EPICS_PVA_NAME_SERVERS = nameServers;
        PVASettings.EPICS_PVA_BROADCAST_PORT = broadcastPort;
        return new PVAClient();
    }

    private static double readThrough(PVAClient client) throws Exception {
        PVAChannel ch = client.getChannel(PV);
        ch.connect().get(20, TimeUnit.SECONDS);
        PVAStructure v = ch.read("").get(10, TimeUnit.SECONDS);
        PVADouble d = v.get("value");
        return d.get();
    }

    @Test
    void coreClientResolvesThroughLookoutTcpNameServerAndReads() throws Exception {
        try (ServerHarness h = new ServerHarness(resolvedLikeTheClient(), false)
                .start(ServerHarness.pva(0, 0, List.of(), List.of(), true))) {
            try (PVAClient client = client("", "127.0.0.1:" + h.tcpPort(), freeUdpPort())) {
                assertThat(readThrough(client)).isEqualTo(42.5);
            }
            assertThat(h.serverSnapshot().namesClaimed()).isPositive();
            assertThat(h.serverSnapshot().nameServerAccepted()).isPositive();
        }
    }

    @Test
    void coreClientSearchingOverUdpGetsLookoutsReply() throws Exception {
        try (ServerHarness h = new ServerHarness(resolvedLikeTheClient(), false)
                .start(ServerHarness.pva(0, 0, List.of(), List.of(), true))) {
            try (PVAClient client = client("127.0.0.1:" + h.udpPort(), "", freeUdpPort())) {
                assertThat(readThrough(client)).isEqualTo(42.5);
            }
            assertThat(h.serverSnapshot().repliesSent()).isPositive();
        }
    }

    @Test
    void coreClientBeaconTrackingDecodesLookoutBeacons() throws Exception {
        int clientPort = freeUdpPort();
        List<String> seen = new CopyOnWriteArrayList<>();
        Logger log = BeaconTracker.logger;
        Level before = log.getLevel();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                seen.add(String.valueOf(r.getMessage()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.setLevel(Level.FINE);
        log.addHandler(handler);
        try (PVAClient client = client("", "", clientPort);
             ServerHarness h = new ServerHarness(new FakeResolved(), false)
                     .start(ServerHarness.pva(0, 0, List.of(new PvaAddress("127.0.0.1", clientPort)), List.of(), true))) {
            String guid = h.serverSnapshot().guid();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> seen.stream().anyMatch(m -> m.toLowerCase().contains(guid)));
            // Later beacons come on the 15-s schedule, driven in virtual time.
            int count = seen.size();
            h.scheduler.advance(Duration.ofSeconds(15));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() > count);
            assertThat(h.serverSnapshot().beaconsSent()).isEqualTo(2);
        } finally {
            log.removeHandler(handler);
            log.setLevel(before);
        }
    }
}
