package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.config.PvaConfig;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.config.PvaConfig.PvaServerConfig;
import lookout.engine.pva.client.PvaClientService;
import lookout.engine.seams.ResolvedNames;
import org.epics.pva.PVASettings;
import org.epics.pva.client.PVAChannel;
import org.epics.pva.client.PVAClient;
import org.epics.pva.data.PVADouble;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;
import org.junit.jupiter.api.Test;

/**
 * Issue 6 acceptance, end to end on loopback with the engine's real PVA client and server services
 * (real clock, as the engine runs): a core-pva 4.7.3 PVAServer hosts a PV; Lookout finds it over
 * UDP; a core-pva client whose only name server is Lookout (no UDP destinations, auto list off)
 * resolves the PV through Lookout, connects to the core-pva server and reads the value; a core-pva
 * client searching Lookout over UDP gets Lookout's reply for the name Lookout resolved.
 */
class EndToEndCorePvaTest {

    static final String PV = "lookout:e2e:pv";

    @Test
    void coreClientResolvesThroughLookoutAndReadsFromCoreServer() throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        int coreUdp = CorePvaInteropTest.freeUdpPort();
        PVASettings.EPICS_PVAS_BROADCAST_PORT = coreUdp;
        PVASettings.EPICS_PVA_SERVER_PORT = CorePvaInteropTest.freePort();
        try (PVAServer core = new PVAServer(); RealContext ctx = new RealContext(Map.of())) {
            ctx.options(ctx.options().withPvaForwarding(false));
            core.createPV(PV, new PVAStructure("demo", "epics:nt/NTScalar:1.0", new PVADouble("value", 7.25)));

            PvaConfig pva = new PvaConfig(List.of(new PvaAddress("127.0.0.1", coreUdp)), false, List.of(), 0, 0,
                    List.of(), false, List.of(), new PvaServerConfig(true, true), List.of(), false, List.of());
            PvaClientService client = new PvaClientService();
            PvaServerService server = new PvaServerService();
            ctx.register(ResolvedNames.class, client);
            ctx.onLoop(() -> {
                client.start(ctx, ServerHarness.config(pva));
                server.start(ctx, ServerHarness.config(pva));
                return null;
            });
            try {
                int tcp = ctx.onLoop(() -> server.snapshot().tcpPort());
                int udp = ctx.onLoop(() -> server.snapshot().udpPort());

                // 1. only Lookout as TCP name server: Lookout resolves the name over UDP on demand
                try (PVAClient viaTcp = coreClient("", "127.0.0.1:" + tcp)) {
                    assertThat(read(viaTcp)).isEqualTo(7.25);
                }
                ResolvedNames.Resolution r = ctx.onLoop(() -> client.lookup(PV));
                assertThat(r).isNotNull();
                assertThat(r.endpoint().getPort()).isEqualTo(core.getTCPAddress(false).getPort());

                // 2. a core-pva client searching Lookout over UDP gets Lookout's reply
                long repliesBefore = ctx.onLoop(() -> server.snapshot().repliesSent());
                try (PVAClient viaUdp = coreClient("127.0.0.1:" + udp, "")) {
                    assertThat(read(viaUdp)).isEqualTo(7.25);
                }
                PvaServerSnapshot s = ctx.onLoop(server::snapshot);
                assertThat(s.repliesSent()).isGreaterThan(repliesBefore);
                assertThat(s.nameServerAccepted()).isPositive();
                assertThat(s.topNames()).extracting(PvaServerSnapshot.SearchedName::name).contains(PV);
            } finally {
                ctx.onLoop(() -> {
                    server.stop();
                    client.stop();
                    return null;
                });
            }
        }
    }

    private static PVAClient coreClient(String addrList, String nameServers) throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
        PVASettings.EPICS_PVA_ADDR_LIST = addrList;
        PVASettings.EPICS_PVA_NAME_SERVERS = nameServers;
        PVASettings.EPICS_PVA_BROADCAST_PORT = CorePvaInteropTest.freeUdpPort();
        return new PVAClient();
    }

    private static double read(PVAClient client) throws Exception {
        PVAChannel ch = client.getChannel(PV);
        ch.connect().get(30, TimeUnit.SECONDS);
        PVAStructure v = ch.read("").get(10, TimeUnit.SECONDS);
        PVADouble d = v.get("value");
        return d.get();
    }

}
