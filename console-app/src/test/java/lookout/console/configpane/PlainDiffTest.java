package lookout.console.configpane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigDiff.Change;
import lookout.engine.config.ConfigDiff.Kind;
import org.junit.jupiter.api.Test;

class PlainDiffTest {

    @Test
    void aServerAddedToAScopeReadsAsOneServer() {
        ConfigDiff d = new ConfigDiff(List.of(new Change("resolver", "resolver.scopes.corp.servers", Kind.CHANGED,
                "[192.0.2.53, 192.0.2.54:5353]", "[192.0.2.53, 192.0.2.54:5353, 192.0.2.55]")));
        assertThat(PlainDiff.describe(d)).containsExactly("resolver scope corp servers: server 192.0.2.55 added");
    }

    @Test
    void pvaAddressRemoved() {
        ConfigDiff d = new ConfigDiff(List.of(new Change("pva", "pva.addr_list", Kind.CHANGED,
                "[127.0.0.1, 10.0.0.255]", "[127.0.0.1]")));
        assertThat(PlainDiff.describe(d)).containsExactly("PVA addr_list: address 10.0.0.255 removed");
    }

    @Test
    void weightChange() {
        ConfigDiff d = new ConfigDiff(List.of(new Change("plugins", "plugins.weighted.pubwww.dc1.a", Kind.CHANGED,
                "10", "20")));
        assertThat(PlainDiff.describe(d)).containsExactly("weight of pool pubwww/dc1/a changed 10 → 20");
    }

    @Test
    void anAddressWeightPairReadsAsAWeightChange() {
        ConfigDiff d = new ConfigDiff(List.of(new Change("plugins", "plugins.weighted.pool.b", Kind.CHANGED,
                "[ 192.0.2.2, 10 ]", "[ 192.0.2.2, 30 ]")));
        assertThat(PlainDiff.describe(d)).containsExactly("weight of pool pool/b changed 10 → 30");
    }

    @Test
    void addedAndRemovedKeys() {
        ConfigDiff d = new ConfigDiff(List.of(
                new Change("status", "status.listen", Kind.ADDED, null, "127.0.0.1:9153"),
                new Change("resolver", "resolver.cache_size", Kind.REMOVED, "100000", null)));
        assertThat(PlainDiff.describe(d)).containsExactly("status.listen added: 127.0.0.1:9153",
                "resolver.cache_size removed (was 100000)");
    }

    @Test
    void noChangesIsSaidPlainly() {
        assertThat(PlainDiff.describe(new ConfigDiff(List.of()))).singleElement().asString().startsWith("No changes");
    }
}
