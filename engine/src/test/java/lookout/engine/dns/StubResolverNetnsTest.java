package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lookout as the only resolver of the system's own clients: {@link StubResolverScenario} in
 * private network and mount namespaces ({@code unshare -n -m}: loopback up, a {@code resolv.conf}
 * naming 127.0.0.1 bind-mounted over {@code /etc/resolv.conf}), the engine on 127.0.0.1:53 with
 * the embedded default. {@code getent ahosts} and Python's {@code getaddrinfo} find the address
 * of {@code app.lookout.test}, a DYNC whose CNAME leads into the other demo zone (RFC 1034
 * §4.3.2 step 3a). Needs root (or user namespaces), getent and python3; skipped, loudly, without.
 */
class StubResolverNetnsTest {

    @TempDir
    Path tmp;

    @Test
    void getentAndGetaddrinfoResolveTheDemoCnameThroughLookout() throws Exception {
        Path resolv = tmp.resolve("resolv.conf");
        Files.writeString(resolv, "nameserver 127.0.0.1\noptions timeout:2 attempts:2\n");
        String text = lookout.engine.Netns.run(List.of("-n", "-m"),
                "ip link set lo up && mount --bind " + resolv + " /etc/resolv.conf", List.of(),
                StubResolverScenario.class, "");
        assertThat(text).as(text).doesNotContain("FAIL ")
                .contains("PASS getent ahosts app.lookout.test", "PASS getent ahosts www.lookout.test",
                        "PASS python getaddrinfo app.lookout.test");
        assertThat(text).containsPattern("chains followed: [1-9]");
    }
}
