package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.testing.VirtualScheduler;
import org.epics.pva.PVASettings;
import org.epics.pva.data.PVAInt;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Claims that follow their server's life (issue 18), against real core-pva 4.7.3 servers on
 * loopback — which send no beacons, so only the TCP check can tell that one died: a name claimed
 * for a server that is then killed stops being claimed within 45 s, a client's fresh search then
 * gets no positive reply, and the server restarted (a new GUID, a new TCP port) is claimed again.
 */
class ClaimLifeCorePvaTest {

    static final String PV = "life:pv";

    VirtualScheduler clock;
    Engine engine;
    PVAServer core;
    int coreUdp;
    int udp;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
        if (clock != null) {
            clock.close();
        }
        if (core != null) {
            core.close();
        }
    }

    PVAServer coreServer() throws Exception {
        // core-pva reads these statics when its server starts
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        PVASettings.EPICS_PVAS_BROADCAST_PORT = coreUdp;
        PVASettings.EPICS_PVA_BROADCAST_PORT = coreUdp;
        PVASettings.EPICS_PVA_SERVER_PORT = GoodNeighbourTest.freeTcpPort();
        PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
        PVASettings.EPICS_PVA_ADDR_LIST = "";
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVAServer s = new PVAServer();
        s.createPV(PV, new PVAStructure("life", "structure", new PVAInt("value", 1)));
        return s;
    }

    void startEngine() throws Exception {
        udp = GoodNeighbourTest.freeUdpPort();
        String text = """
                resolver => { listen => [ 127.0.0.1:0 ] }
                pva => {
                  addr_list => [ 127.0.0.1:%d ]
                  auto_addr_list => false
                  beacon_addr_list => [ ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                  server => { enable => true, check_interval => 15, check_after => 30 }
                }
                """.formatted(coreUdp, udp, GoodNeighbourTest.freeTcpPort());
        Path dir = Files.createTempDirectory("lookout-claims");
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "claims.conf", dir);
        assertThat(r.problems()).isEmpty();
        clock = new VirtualScheduler();
        engine = Engines.create(EngineOptions.forTest(clock, new Random(7), dir).withPvaForwarding(false));
        engine.start(r.config());
    }

    InetSocketAddress responder() {
        return new InetSocketAddress("127.0.0.1", udp);
    }

    /** A positive reply for {@link #PV} from the engine's responder, asking as {@code client}, or null. */
    SearchResponse claim(RawPva client) throws Exception {
        SearchResponse r = GoodNeighbourTest.mustReply(client, responder(), PV);
        return r != null && r.found() ? r : null;
    }

    /** Turns the ring a second at a time until the engine claims {@link #PV}; the reply. */
    SearchResponse awaitClaim(RawPva client) {
        SearchResponse[] got = new SearchResponse[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            got[0] = claim(client);
            if (got[0] == null) {
                clock.advance(Duration.ofSeconds(1));
            }
            return got[0] != null;
        });
        return got[0];
    }

    PvaSnapshot.Claim basis(int tcpPort) {
        return engine.snapshot().pva().claims().stream().filter(c -> c.endpoint().endsWith(":" + tcpPort))
                .findFirst().orElse(null);
    }

    @Test
    void aDeadServerStopsBeingClaimedAndItsSuccessorIsClaimed() throws Exception {
        coreUdp = GoodNeighbourTest.freeUdpPort();
        core = coreServer();
        int firstTcp = core.getTCPAddress(false).getPort();
        startEngine();
        try (RawPva client = new RawPva(new InetSocketAddress("127.0.0.1", 0))) {
            // asked for it: the engine searches, core-pva answers, the engine claims it for core-pva
            assertThat(claim(client)).isNull();
            SearchResponse first = awaitClaim(client);
            assertThat(first.serverPort()).isEqualTo(firstTcp);
            String firstGuid = first.guid().toString();
            PvaSnapshot.Claim b = basis(firstTcp);
            assertThat(b).isNotNull();
            assertThat(b.basis()).isEqualTo("reply");
            assertThat(b.lastBeacon()).isNull();
            // checked: connect and the PVA handshake pass
            clock.advance(Duration.ofSeconds(15));
            await().atMost(Duration.ofSeconds(10)).until(() -> basis(firstTcp) != null
                    && "ok".equals(basis(firstTcp).lastCheckResult()));
            assertThat(basis(firstTcp).basis()).isEqualTo("check");
            assertThat(claim(client)).isNotNull();

            // killed: within 45 s (three checks at most) it is claimed no more
            core.close();
            core = null;
            int waited = 0;
            while (waited < 45 && basis(firstTcp) != null) {
                clock.advance(Duration.ofSeconds(15));
                waited += 15;
                await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                        .until(() -> basis(firstTcp) == null || !basis(firstTcp).lastCheckResult().equals("ok"));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> basis(firstTcp) == null);
            assertThat(waited).isLessThanOrEqualTo(45);
            assertThat(engine.snapshot().recentEvents()).anySatisfy(e -> {
                assertThat(e).isInstanceOf(EngineEvent.Notice.class);
                assertThat(e.message()).contains("did not pass its check").contains("searched again")
                        .doesNotContain("Exception");
            });
            // a client's fresh search: no positive reply
            SearchResponse after = GoodNeighbourTest.mustReply(client, responder(), PV);
            assertThat(after).isNotNull();
            assertThat(after.found()).isFalse();

            // restarted: a new GUID, a new TCP port; found again and claimed for it
            core = coreServer();
            int secondTcp = core.getTCPAddress(false).getPort();
            SearchResponse second = awaitClaim(client);
            assertThat(second.serverPort()).isEqualTo(secondTcp);
            assertThat(second.guid().toString()).isNotEqualTo(firstGuid);
            assertThat(basis(secondTcp)).isNotNull();
            assertThat(engine.snapshot().pvaServer().onDemand().admitted()).isEqualTo(1);
        }
    }
}
