package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code pva.server}: the on-demand limits, the checks of claimed servers and the responder threads (issue 18). */
class PvaServerLimitsTest {

    private static ConfigResult parse(String text) {
        return new ConfigLoader(Map.of()).parse(text, "limits.conf", null);
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        ConfigResult r = parse("pva => { server => { enable => true } }");
        assertThat(r.problems()).isEmpty();
        PvaConfig.PvaServerConfig s = r.config().pva().server();
        assertThat(s.onDemandLimit()).isEqualTo(5000);
        assertThat(s.onDemandRate()).isEqualTo(100);
        assertThat(s.onDemandPerClient()).isEqualTo(1250);
        assertThat(s.onDemandHold()).isEqualTo(90);
        assertThat(s.checkInterval()).isEqualTo(15);
        assertThat(s.checkAfter()).isEqualTo(30);
        assertThat(s.udpThreads()).isZero();
        assertThat(s.responderThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(s).isEqualTo(new PvaConfig.PvaServerConfig(true, false));
    }

    @Test
    void everyKeyIsRead() {
        ConfigResult r = parse("""
                pva => {
                  server => {
                    enable => true
                    on_demand_limit => 800
                    on_demand_rate => 20
                    on_demand_per_client => 50
                    on_demand_hold => 120
                    check_interval => 5
                    check_after => 60
                    udp_threads => 3
                  }
                }
                """);
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().pva().server())
                .isEqualTo(new PvaConfig.PvaServerConfig(true, false, 800, 20, 50, 120, 5, 60, 3));
    }

    @Test
    void theClientShareDefaultsToAQuarterOfTheLimit() {
        ConfigResult r = parse("pva => { server => { on_demand_limit => 400 } }");
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().pva().server().onDemandPerClient()).isEqualTo(100);
    }

    @Test
    void badValuesAreReportedWithFileLineAndColumn() {
        ConfigResult r = parse("""
                pva => {
                  server => {
                    on_demand_limit => 0
                    on_demand_rate => lots
                    on_demand_per_client => 6000
                    udp_threads => 99
                    check_interval => -1
                    on_demand_hold_time => 5
                  }
                }
                """);
        List<String> p = r.problems().stream().map(Object::toString).toList();
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:3:").contains("pva.server.on_demand_limit")
                .contains("an integer from 1 to"));
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:4:").contains("pva.server.on_demand_rate"));
        // a share above the limit (the default 5 000, the bad 0 having been refused)
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:5:")
                .contains("pva.server.on_demand_per_client").contains("from 1 to 5000"));
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:6:").contains("pva.server.udp_threads")
                .contains("from 0 to 64"));
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:7:").contains("pva.server.check_interval"));
        assertThat(p).anySatisfy(s -> assertThat(s).startsWith("limits.conf:8:").contains("on_demand_hold"));
        assertThat(p).allSatisfy(s -> assertThat(s).matches("limits\\.conf:\\d+:\\d+: .*"));
    }
}
