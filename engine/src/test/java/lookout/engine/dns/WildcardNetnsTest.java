package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link WildcardScenario} in a private network namespace: {@code unshare -n sh -c 'ip link
 * set lo up && ip addr add 10.9.0.1/24 dev lo && ip addr add fd00:9::1/64 dev lo nodad && exec java
 * ...'}: a host with a second address, where a resolver listening on the wildcard address must
 * answer from the address each question was sent to. Needs root (or user namespaces) and the
 * engine's native library (liblookoutnet.so); skipped, loudly, when either is missing.
 */
class WildcardNetnsTest {

    private static String run(String mode) throws Exception {
        Assumptions.assumeTrue(lookout.engine.net.Transport.nativeDatagramsUnavailable() == null,
                "native datagrams unavailable in this JVM");
        String text = lookout.engine.Netns.run(
                "ip link set lo up && ip addr add 10.9.0.1/24 dev lo && ip addr add fd00:9::1/64 dev lo nodad",
                java.util.List.of("-Djava.net.preferIPv4Stack=false"), WildcardScenario.class, mode);
        assertThat(text).as(text).doesNotContain("FAIL ");
        return text;
    }

    @Test
    void onAWildcardIpv4AddressEveryAnswerLeavesFromTheAddressAsked() throws Exception {
        String text = run("v4");
        assertThat(text).contains("read natively: true").contains("PASS local zone", "PASS handed to the engine loop",
                "PASS forwarded upstream");
    }

    @Test
    void onAWildcardIpv6AddressEveryAnswerLeavesFromTheAddressAsked() throws Exception {
        String text = run("v6");
        assertThat(text).contains("read natively: true").contains("PASS local zone", "PASS handed to the engine loop",
                "PASS forwarded upstream");
    }

    @Test
    void anIpv4ClientOfADualStackWildcardGetsItsAnswerFromTheAddressAsked() throws Exception {
        String text = run("mapped");
        assertThat(text).contains("listening on /[0:0:0:0:0:0:0:0]").contains("PASS local zone",
                "PASS handed to the engine loop", "PASS forwarded upstream");
    }

    /** The control: through Netty the answers leave from the routed address, so the checks above can fail. */
    @Test
    void throughNettyTheAnswersLeaveFromTheRoutedAddress() throws Exception {
        String text = run("netty");
        assertThat(text).contains("read natively: false").contains("PASS control, through Netty: local zone");
    }
}
