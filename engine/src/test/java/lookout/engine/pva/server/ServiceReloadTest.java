package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import lookout.engine.api.Metric;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.config.PvaConfig;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.config.PvaConfig.PvaServerConfig;
import lookout.engine.pva.wire.SearchRequest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Live reload and lifecycle of the service. */
class ServiceReloadTest {

    private static void apply(ServerHarness h, PvaConfig before, PvaConfig after) {
        h.scheduler.call(() -> {
            h.service.apply(ServerHarness.config(before), ServerHarness.config(after));
            return null;
        });
    }

    @Test
    void ignoreListReloadsInPlaceAndRebindKeepsTheGuid() throws Exception {
        PvaConfig a = ServerHarness.pva(0, 0, List.of(), List.of(), true);
        try (ServerHarness h = new ServerHarness(new FakeResolved(), false).start(a);
             RawPva c = new RawPva()) {
            PvaServerSnapshot s0 = h.serverSnapshot();
            PvaConfig b = ServerHarness.pva(0, 0, List.of(), List.of(new PvaAddress("127.0.0.1", 0)), true);
            apply(h, a, b);
            assertThat(h.serverSnapshot().udpPort()).isEqualTo(s0.udpPort()); // not rebound
            c.send(RawPva.bytes(SearchRequest.discoveryPing(c.port())), h.udp());
            assertThat(c.reply(500)).isNull();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> h.serverSnapshot().drops().get("ignored") == 1L);

            // name server off: sockets rebound, same identity (a reload is not a restart)
            PvaConfig d = new PvaConfig(b.addrList(), false, List.of(), 0, 0, List.of(), false, List.of(),
                    new PvaServerConfig(true, false), List.of(), false, List.of());
            apply(h, b, d);
            PvaServerSnapshot s1 = h.serverSnapshot();
            assertThat(s1.guid()).isEqualTo(s0.guid());
            assertThat(s1.tcpPort()).isZero();
            c.send(RawPva.bytes(SearchRequest.discoveryPing(c.port())), new java.net.InetSocketAddress("127.0.0.1", s1.udpPort()));
            assertThat(c.reply(2000)).isNotNull();

            // disabled: stopped snapshot, no sockets
            PvaConfig off = new PvaConfig(b.addrList(), false, List.of(), 0, 0, List.of(), false, List.of(),
                    new PvaServerConfig(false, false), List.of(), false, List.of());
            apply(h, d, off);
            assertThat(h.serverSnapshot().running()).isFalse();
        }
    }

    @Test
    void aPortHeldWithoutReuseLeavesTheServerStoppedWithAnErrorEvent() throws Exception {
        try (java.net.DatagramSocket holder = new java.net.DatagramSocket(null)) {
            holder.setReuseAddress(false);
            holder.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            try (ServerHarness h = new ServerHarness(new FakeResolved(), false)
                    .start(ServerHarness.pva(holder.getLocalPort(), 0, List.of(), List.of(), true))) {
                assertThat(h.serverSnapshot().running()).isFalse();
                synchronized (h.events) {
                    assertThat(h.events).anySatisfy(e -> {
                        assertThat(e).isInstanceOf(lookout.engine.api.EngineEvent.Notice.class);
                        var n = (lookout.engine.api.EngineEvent.Notice) e;
                        assertThat(n.severity()).isEqualTo(lookout.engine.api.Severity.ERROR);
                        assertThat(n.subsystem()).isEqualTo(lookout.engine.api.Subsystem.PVA_SERVER);
                    });
                }
            }
        }
    }

    @Test
    void metricsAreNamedAndStopIsIdempotent() {
        try (ServerHarness h = new ServerHarness(new FakeResolved(), false)
                .start(ServerHarness.pva(0, 0, List.of(), List.of(), true))) {
            List<Metric> m = h.scheduler.call(h.service::metrics);
            h.contribute(); // the whole contribution runs without error
            assertThat(m).extracting(Metric::name).contains("lookout_pva_server_searches_total",
                    "lookout_pva_server_dropped_total", "lookout_pva_server_beacons_total",
                    "lookout_pva_server_name_server_connections");
            assertThat(m).allMatch(x -> x.name().startsWith("lookout_pva_server_"));
            h.scheduler.call(() -> {
                h.service.stop();
                h.service.stop();
                return null;
            });
        }
    }
}
