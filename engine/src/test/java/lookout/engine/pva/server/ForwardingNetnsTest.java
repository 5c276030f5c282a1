package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link NetnsScenarios} in a private network namespace: {@code unshare -n sh -c
 * 'ip link set lo up && ip addr add 10.9.0.1/24 dev lo && exec java -cp <test class path> ...'}
 * (the extra address: a subnet that is not loopback, for the limited-broadcast scenario). Needs root (or user namespaces)
 * and python3 (the forged multicast source); skipped, loudly, when {@code unshare} is refused.
 */
class ForwardingNetnsTest {

    private static String run(String scenario) throws Exception {
        return run(scenario, List.of());
    }

    private static String run(String scenario, List<String> options) throws Exception {
        List<String> jvm = new java.util.ArrayList<>(List.of("-Djava.net.preferIPv4Stack=false"));
        jvm.addAll(options);
        return lookout.engine.Netns.run("ip link set lo up && ip addr add 10.9.0.1/24 dev lo", jvm,
                NetnsScenarios.class, scenario);
    }

    private static void assertAllPass(String text, List<String> expected) {
        for (String e : expected) {
            assertThat(text).as(text).contains("PASS " + e);
        }
        assertThat(text).as(text).doesNotContain("FAIL ");
    }

    @Test
    void twoServersShareThePortAndAUnicastSearchReachesBoth() throws Exception {
        assertAllPass(run("shared"), List.of("child server started", "forwarding active",
                "each server sees the other on the port",
                "unicast search answered by both servers", "replies come from the address searched",
                "unicast discovery ping reaches both processes"));
    }

    @Test
    void aSearchToTheLimitedBroadcastAddressIsAnsweredOnceFromTheClientsSubnet() throws Exception {
        assertAllPass(run("limited"), List.of("listening for limited broadcasts", "search to 255.255.255.255 answered once",
                "reply from the address on the client's subnet", "search to an own address answered once",
                "two searches counted"));
    }

    @Test
    void unicastSearchesAreForwardedOnlyWhenAnotherServerListensAndItGetsEachOnce() throws Exception {
        assertAllPass(run("neighbour"), List.of("forwarding active", "alone on the port",
                "alone: each unicast search answered once, none forwarded", "second server on the port",
                "the second server is seen", "shared: each unicast search answered once here",
                "shared: each forwarded once", "shared: own copies filtered in the kernel, none read",
                "shared: a foreign forwarded search on the group is answered",
                "the second server got every unicast search exactly once"));
    }

    /**
     * Where the kernel filter is not attached (here turned off; IPv6, another platform), each own
     * copy is read, dropped before decoding and counted as {@code own_forwarded_copy}, exactly as
     * the rules would; the other server still gets every search once.
     */
    @Test
    void withoutTheKernelFilterOwnCopiesAreDroppedBeforeDecodingAndCounted() throws Exception {
        assertAllPass(run("neighbour-unfiltered"), List.of("forwarding active",
                "second server on the port", "the second server is seen", "shared: each unicast search answered once here",
                "shared: each forwarded once", "shared: own copies dropped before decoding, each counted",
                "shared: a foreign forwarded search on the group is answered",
                "the second server got every unicast search exactly once"));
    }

    @Test
    void eachReceiveRuleDropsAndCounts() throws Exception {
        assertAllPass(run("rules"), List.of("own copies filtered in the kernel",
                "control: tagged search on loopback group answered",
                "rule 1 tag only on loopback group", "rule 2 at most one tag", "rule 3 answered, never re-forwarded",
                "rule 4 multicast source ignored", "all-zero reply address dropped",
                "dropped datagrams were not forwarded", "unicast search alone on the port answered once, not forwarded",
                "reply from 127.0.0.1:5076"));
    }
}
