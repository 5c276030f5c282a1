package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import lookout.engine.config.PvaConfig.PvaAddress;
import org.junit.jupiter.api.Test;

/** SPEC "pva": when a key is absent the EPICS_PVA_* variable is honoured, then the default. */
class PvaEnvironmentTest {

    private static PvaConfig bind(String text, Map<String, String> env) {
        ConfigResult r = new ConfigLoader(env).parse(text, "env.conf", null);
        assertThat(r.problems()).isEmpty();
        return r.config().pva();
    }

    @Test
    void everyVariableIsReadWhenItsKeyIsAbsent() {
        PvaConfig pva = bind("", Map.of(
                "EPICS_PVA_ADDR_LIST", " 10.0.0.255  10.1.0.255:5077 ",
                "EPICS_PVA_AUTO_ADDR_LIST", "NO",
                "EPICS_PVA_NAME_SERVERS", "gateway.example:5075 [2001:db8::7]:5075",
                "EPICS_PVA_BROADCAST_PORT", "5086",
                "EPICS_PVA_SERVER_PORT", "5085",
                "EPICS_PVAS_BEACON_ADDR_LIST", "10.0.0.255",
                "EPICS_PVAS_AUTO_BEACON_ADDR_LIST", "no",
                "EPICS_PVAS_IGNORE_ADDR_LIST", "10.9.9.9"));
        assertThat(pva.addrList()).containsExactly(new PvaAddress("10.0.0.255", 0), new PvaAddress("10.1.0.255", 5077));
        assertThat(pva.autoAddrList()).isFalse();
        assertThat(pva.nameServers()).containsExactly(new PvaAddress("gateway.example", 5075),
                new PvaAddress("2001:db8::7", 5075));
        assertThat(pva.broadcastPort()).isEqualTo(5086);
        assertThat(pva.serverPort()).isEqualTo(5085);
        assertThat(pva.beaconAddrList()).containsExactly(new PvaAddress("10.0.0.255", 0));
        assertThat(pva.autoBeaconAddrList()).isFalse();
        assertThat(pva.ignoreAddrList()).containsExactly(new PvaAddress("10.9.9.9", 0));
    }

    @Test
    void aKeyInTheFileWinsOverTheVariable() {
        PvaConfig pva = bind("pva => { addr_list => [ 127.0.0.1 ], broadcast_port => 6076, auto_addr_list => true }",
                Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.255", "EPICS_PVA_BROADCAST_PORT", "5086",
                        "EPICS_PVA_AUTO_ADDR_LIST", "NO"));
        assertThat(pva.addrList()).containsExactly(new PvaAddress("127.0.0.1", 0));
        assertThat(pva.broadcastPort()).isEqualTo(6076);
        assertThat(pva.autoAddrList()).isTrue();
    }

    @Test
    void anEmptyListInTheFileIsNotAbsent() {
        PvaConfig pva = bind("pva => { addr_list => [ ] }", Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.255"));
        assertThat(pva.addrList()).isEmpty();
    }

    @Test
    void beaconSettingsFallBackToTheClientVariablesAsInPvxs() {
        PvaConfig pva = bind("", Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.255", "EPICS_PVA_AUTO_ADDR_LIST", "NO"));
        assertThat(pva.beaconAddrList()).containsExactly(new PvaAddress("10.0.0.255", 0));
        assertThat(pva.autoBeaconAddrList()).isFalse();
    }

    @Test
    void withoutKeyOrVariableTheEpicsDefaultsApply() {
        PvaConfig pva = bind("", Map.of());
        assertThat(pva.addrList()).isEmpty();
        assertThat(pva.autoAddrList()).isTrue();
        assertThat(pva.autoBeaconAddrList()).isTrue();
        assertThat(pva.broadcastPort()).isEqualTo(5076);
        assertThat(pva.serverPort()).isEqualTo(5075);
    }

    @Test
    void aBadVariableIsAProblemAtThePvaKey() {
        ConfigResult r = new ConfigLoader(Map.of("EPICS_PVA_BROADCAST_PORT", "none", "EPICS_PVA_AUTO_ADDR_LIST", "maybe"))
                .parse("# x\npva => { watch => [ a ] }\n", "env.conf", null);
        assertThat(r.problems()).extracting(Object::toString).containsExactlyInAnyOrder(
                "env.conf:2:1: environment EPICS_PVA_AUTO_ADDR_LIST: expected YES or NO, found 'maybe'",
                "env.conf:2:1: environment EPICS_PVA_BROADCAST_PORT: expected a port from 1 to 65535, found 'none'");
    }

    @Test
    void aBadVariableWithoutAPvaSectionIsReportedAtTheTopOfTheFile() {
        ConfigResult r = new ConfigLoader(Map.of("EPICS_PVA_ADDR_LIST", "10.0.0.1:http")).parse("", "env.conf", null);
        assertThat(r.problems()).extracting(Object::toString).containsExactly(
                "env.conf:1:1: environment EPICS_PVA_ADDR_LIST: expected space-separated host[:port] entries, "
                        + "found '10.0.0.1:http': port 'http' is not a number from 1 to 65535");
    }
}
