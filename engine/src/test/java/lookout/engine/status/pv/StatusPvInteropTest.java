package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 15 acceptance: core-pva 4.7.3 finds, reads and monitors the engine's status PVs over UDP
 * search and the TCP name server, and a demotion shows on {@code resolver:servers_demoted} within
 * 1 s and clears when its mark runs out. In a private network namespace ({@link StatusPvScenario}).
 */
class StatusPvInteropTest {

    @Test
    void corePvaFindsReadsAndMonitorsTheStatusPvs() throws Exception {
        String out = lookout.engine.Netns.run("ip link set lo up", List.of("-Djava.net.preferIPv4Stack=false"),
                StatusPvScenario.class, "run");
        for (String check : List.of("udp-search-reads-config-version", "reads-a-string-scalar", "reads-an-nttable",
                "monitor-first-update", "demotion-raises-servers-demoted-within-1s",
                "every-server-of-a-scope-demoted-is-major", "mark-expiry-returns-to-no-alarm",
                "name-server-reads-config-version", "snapshot-lists-the-pvs")) {
            assertThat(out).as(out).contains("PASS " + check);
        }
        assertThat(out).as(out).doesNotContain("FAIL ");
    }
}
