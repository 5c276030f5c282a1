package lookout.console.configedit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConfigEditsTest {

    private static final String TEXT = """
            # comment kept
            pva => {
              addr_list => [ 127.0.0.1, "10.0.0.255" ]   # EPICS_PVA_ADDR_LIST
              broadcast_port => 5076
            }
            """;

    @Test
    void replacesAListKeepingEverythingElse() {
        String out = ConfigEdits.set(TEXT, "pva.addr_list", "[ 192.168.1.255 ]");
        assertThat(out).isEqualTo(TEXT.replace("[ 127.0.0.1, \"10.0.0.255\" ]", "[ 192.168.1.255 ]"));
    }

    @Test
    void replacesAScalar() {
        String out = ConfigEdits.set(TEXT, "pva.broadcast_port", "5086");
        assertThat(out).contains("  broadcast_port => 5086\n}").contains("# EPICS_PVA_ADDR_LIST");
    }

    @Test
    void addsAMissingKeyInsideItsHash() {
        String out = ConfigEdits.set(TEXT, "pva.auto_addr_list", "false");
        assertThat(out).endsWith("  broadcast_port => 5076\n  auto_addr_list => false\n}\n");
    }

    @Test
    void addsAMissingSectionAtTheEnd() {
        String out = ConfigEdits.set("resolver => { listen => [ 127.0.0.1:8053 ] }\n", "pva.addr_list", "[ 10.0.0.255 ]");
        assertThat(out).isEqualTo("resolver => { listen => [ 127.0.0.1:8053 ] }\npva => { addr_list => [ 10.0.0.255 ] }\n");
    }

    @Test
    void aKeyMissingFromAOneLineHash() {
        String out = ConfigEdits.set("pva => { broadcast_port => 5076 }\n", "pva.addr_list", "[ 10.0.0.255 ]");
        assertThat(out).isEqualTo("pva => { broadcast_port => 5076  addr_list => [ 10.0.0.255 ] }\n");
    }

    @Test
    void refusesTextThatDoesNotParse() {
        assertThatThrownBy(() -> ConfigEdits.set("pva => { ", "pva.addr_list", "[]"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
