package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link WildcardScenario} in a private network namespace: {@code unshare -n sh -c 'ip link
 * set lo up && ip addr add 10.9.0.1/24 dev lo && ip addr add fd00:9::1/64 dev lo nodad && exec java
 * ...'}: a host with a second address, where a resolver listening on the wildcard address must
 * answer from the address each question was sent to. Needs root (or user namespaces) and the
 * foreign-function module; skipped, loudly, when either is missing.
 */
class WildcardNetnsTest {

    private static String run(String mode) throws Exception {
        Assumptions.assumeTrue(lookout.engine.core.Transport.nativeDatagramsUnavailable() == null,
                "native datagrams unavailable in this JVM");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = ProcessHandle.current().info().command().orElse("java");
        Process probe = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
        boolean can = probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        Assumptions.assumeTrue(can, "unshare -n not permitted here: namespace tests skipped");
        ProcessBuilder pb = new ProcessBuilder("unshare", "-n", "sh", "-c",
                "ip link set lo up && ip addr add 10.9.0.1/24 dev lo && ip addr add fd00:9::1/64 dev lo nodad"
                        + " && exec \"$0\" -Djava.net.preferIPv4Stack=false --add-modules jdk.incubator.foreign"
                        + " --enable-native-access=ALL-UNNAMED -cp \"$1\" " + WildcardScenario.class.getName() + " \"$2\"",
                java, cp, mode);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread pump = new Thread(() -> {
            try {
                p.getInputStream().transferTo(out);
            } catch (java.io.IOException e) {
                // process ended
            }
        });
        pump.start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        pump.join(5000);
        String text = out.toString();
        System.out.println(text);
        assertThat(done).as("scenario finished in time").isTrue();
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
