package lookout.engine.pva.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link PortOwnerNetnsScenarios} in a private network namespace whose {@code lo} carries
 * 10.9.0.1/24 (a subnet with a broadcast address, which loopback alone lacks); skipped, loudly,
 * where {@code unshare -n} is refused.
 */
class PortOwnerNetnsTest {

    @Test
    void broadcastsOnTheSharedPortReachEachListenerOnce() throws Exception {
        String text = lookout.engine.Netns.run("ip link set lo up && ip addr add 10.9.0.1/24 broadcast 10.9.0.255 dev lo",
                List.of("-Djava.net.preferIPv4Stack=false"), PortOwnerNetnsScenarios.class, "broadcast");
        for (String e : List.of("server listens on its address, broadcast and the limited broadcast",
                "every datagram reached both", "a broadcast reaches the client once, from the wildcard socket",
                "a broadcast reaches the server once, from its broadcast socket, answered from its own address",
                "a unicast reaches both once",
                "a limited broadcast is told apart on epoll, answered from the address on the sender's subnet")) {
            assertThat(text).as(text).contains("PASS " + e);
        }
        assertThat(text).as(text).doesNotContain("FAIL ");
    }
}
