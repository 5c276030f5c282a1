package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embedded default parses cleanly and is loopback only (SPEC "The embedded default"). */
class EmbeddedDefaultTest {

    private final ConfigResult result = new ConfigLoader(Map.of("HOME", "/home/operator")).embeddedDefault();

    @Test
    void parsesWithoutProblems() {
        assertThat(result.problems()).isEmpty();
        assertThat(result.ok()).isTrue();
        assertThat(result.config().source().name()).isEqualTo(ConfigLoader.EMBEDDED_NAME);
    }

    @Test
    void resolverListensOnLoopbackAndHasNoUpstream() {
        ResolverConfig r = result.config().resolver();
        assertThat(r.listen()).contains(new InetSocketAddress("127.0.0.1", 8053));
        assertThat(r.listen()).allMatch(a -> a.getAddress().isLoopbackAddress());
        assertThat(r.scopes()).isEmpty();
        assertThat(r.fallbackServers()).isEmpty();
        assertThat(r.allow()).extracting(Cidr::toString).containsExactly("127.0.0.0/8", "0:0:0:0:0:0:0:1/128");
    }

    @Test
    void pvaStaysOnLoopbackWithItsOwnServerOn() {
        PvaConfig pva = result.config().pva();
        assertThat(pva.addrList()).containsExactly(new PvaConfig.PvaAddress("127.0.0.1", 0));
        assertThat(pva.beaconAddrList()).containsExactly(new PvaConfig.PvaAddress("127.0.0.1", 0));
        assertThat(pva.autoAddrList()).isFalse();
        assertThat(pva.autoBeaconAddrList()).isFalse();
        assertThat(pva.server()).isEqualTo(new PvaConfig.PvaServerConfig(true, true));
        // issue 17 item 7: nothing on loopback hosts PVs, so a watched name would search forever
        assertThat(pva.watch()).isEmpty();
    }

    /**
     * Issue 17 item 7: a healthy first run looks healthy — every address of the demo pools has
     * something listening where its monitor connects (the engine's own DNS listener), so the
     * monitors come UP instead of raising advisories on a fresh install.
     */
    @Test
    void everyMonitoredDemoAddressHasTheEnginesListenerBehindIt() {
        Config c = result.config();
        java.util.Set<InetSocketAddress> listening = new java.util.HashSet<>(c.resolver().listen());
        int monitored = 0;
        for (WeightedResource r : c.weighted().resources().values()) {
            for (WeightedFamily f : r.families()) {
                for (String type : f.serviceTypes()) {
                    ServiceTypeConfig st = c.serviceTypes().get(type);
                    if (!st.plugin().equals("tcp_connect")) {
                        continue;
                    }
                    int port = Integer.parseInt(st.params().get("port"));
                    for (WeightedGroup g : f.groups()) {
                        for (WeightedItem i : g.items()) {
                            assertThat(listening).as(i.target() + ":" + port + " answers " + type)
                                    .contains(new InetSocketAddress(i.target(), port));
                            monitored++;
                        }
                    }
                }
            }
        }
        assertThat(monitored).isEqualTo(3);
    }

    @Test
    void environmentDoesNotReachTheExplicitPvaKeys() {
        ConfigResult r = new ConfigLoader(Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.255",
                "EPICS_PVA_AUTO_ADDR_LIST", "YES")).embeddedDefault();
        assertThat(r.config().pva().addrList()).containsExactly(new PvaConfig.PvaAddress("127.0.0.1", 0));
        assertThat(r.config().pva().autoAddrList()).isFalse();
    }

    @Test
    void demoZonesAndStatusAndStateDir() {
        Config c = result.config();
        assertThat(c.zones()).containsOnlyKeys("lookout.test.", "example.test.");
        ZoneConfig z = c.zones().get("lookout.test.");
        assertThat(z.text()).contains("DYNA weighted!demo").contains("DYNC weighted!demo_cname")
                .contains("TXT   \"Lookout demo zone: loopback only\"");
        assertThat(z.sourceName()).isEqualTo(ConfigLoader.EMBEDDED_NAME);
        assertThat(c.status().listen()).isEqualTo(new InetSocketAddress("127.0.0.1", 9153));
        assertThat(c.stateDir()).isEqualTo(java.nio.file.Path.of("/home/operator/.lookout/state"));
        assertThat(c.serviceTypes()).containsKey("up");
    }
}
