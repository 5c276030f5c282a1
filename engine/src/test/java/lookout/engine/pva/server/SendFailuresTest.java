package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.seams.PvaPorts;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's UDP send failures, logged by state per destination in virtual time: beacons by
 * destination, forwarded copies by group, replies by client address (followed for at most
 * {@value UdpListener#MAX_FAILING} addresses), the sockets' own errors apart; each WARNING once,
 * then DEBUG, and INFO when a later send there leaves — where a flag set once had made every later
 * failure DEBUG and never said anything worked again.
 */
class SendFailuresTest {

    static final NetError DENIED = new NetError(NetError.EPERM, "Operation not permitted", null);
    static final InetSocketAddress BEACONS = new InetSocketAddress(HostPort.literal("10.0.0.255"), 5076);
    static final InetSocketAddress GROUP = new InetSocketAddress(PvaPorts.FORWARD_GROUP_V4, 5076);

    final VirtualScheduler clock = new VirtualScheduler();
    final List<String> lines = new ArrayList<>();
    final UdpListener udp = new UdpListener(clock, null, (level, message) -> lines.add(level + " " + message));

    SendFailuresTest() throws Exception {
        udp.open(new PvaPorts() {
            @Override
            public Port listen(int port, Interest interest, Receiver receiver) {
                return new NoPort();
            }

            @Override
            public Port searchSocket(Receiver receiver) {
                return new NoPort();
            }
        }, List.of(), 5076, true, false, 0);
        udp.beaconDestinations(List.of(BEACONS));
    }

    @AfterEach
    void closeClock() {
        clock.close();
    }

    List<String> at(Level level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    static InetSocketAddress client(int i, int port) {
        return new InetSocketAddress(HostPort.literal("10.1." + (i >> 8) + "." + (i & 0xFF)), port);
    }

    @Test
    void eachKindOfDestinationFailsAndRecoversOnItsOwn() {
        udp.sendFailed(BEACONS, DENIED);
        udp.sendFailed(GROUP, DENIED);
        udp.sendFailed(client(1, 40000), DENIED);
        // the same client from another port: the same address, a DEBUG line
        udp.sendFailed(client(1, 40001), DENIED);
        udp.sendFailed(null, DENIED);
        assertThat(at(Level.WARNING)).containsExactly(
                "WARNING PVA beacons to 10.0.0.255:5076 failing: send error (Operation not permitted)",
                "WARNING PVA unicast forwarding to 224.0.0.128:5076 failing: send error (Operation not permitted)",
                "WARNING PVA search replies to 10.1.0.1 failing: send error (Operation not permitted)",
                "WARNING PVA server UDP sockets failing: send error (Operation not permitted)");
        assertThat(at(Level.DEBUG)).hasSize(1);

        clock.advance(Duration.ofSeconds(20));
        udp.sent(client(1, 40002));
        assertThat(at(Level.INFO)).containsExactly(
                "INFO PVA search replies to 10.1.0.1 recovered after 20 s (2 failures)",
                "INFO PVA server UDP sockets recovered after 20 s (1 failure)");
        udp.sent(BEACONS);
        udp.sent(GROUP);
        assertThat(at(Level.INFO)).hasSize(4);
        assertThat(at(Level.WARNING)).hasSize(4);
    }

    @Test
    void repliesAreFollowedForABoundedNumberOfClients() {
        for (int i = 0; i < UdpListener.MAX_FAILING + 10; i++) {
            udp.sendFailed(client(i, 40000), DENIED);
        }
        assertThat(at(Level.WARNING)).hasSize(UdpListener.MAX_FAILING);
        assertThat(at(Level.DEBUG)).hasSize(10).allMatch(l -> l.contains("a UDP send to 10.1.4."));
        // at the bound, a failing beacon destination is still news; a followed client still recovers
        udp.sendFailed(BEACONS, DENIED);
        assertThat(at(Level.WARNING)).hasSize(UdpListener.MAX_FAILING + 1).last().asString()
                .startsWith("WARNING PVA beacons to");
        udp.sent(client(0, 40000));
        assertThat(at(Level.INFO)).hasSize(1);
    }

    /** A port that holds nothing: the test only tells the listener how sends went. */
    private static final class NoPort implements PvaPorts.Port {
        @Override
        public int port() {
            return 5076;
        }

        @Override
        public List<String> bound() {
            return List.of();
        }

        @Override
        public boolean send(ByteBuf data, InetSocketAddress to) {
            data.release();
            return false;
        }

        @Override
        public boolean reply(ByteBuf data, InetSocketAddress to, InetAddress from) {
            data.release();
            return false;
        }

        @Override
        public boolean forwarding() {
            return false;
        }

        @Override
        public boolean forward(ByteBuf datagram, InetAddress origin) {
            datagram.release();
            return false;
        }

        @Override
        public void close() {
        }
    }
}
