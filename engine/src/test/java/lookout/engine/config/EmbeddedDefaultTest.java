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
        assertThat(r.listen()).containsExactly(new InetSocketAddress("127.0.0.1", 8053));
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
        assertThat(pva.watch()).isNotEmpty();
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
