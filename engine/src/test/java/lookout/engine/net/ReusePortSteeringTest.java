package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link UdpEndpoint#steerGroup} on this kernel: two natively read sockets sharing one address
 * ({@code SO_REUSEPORT}), each on a loop of its own, as the PVA responder's are. Steered, the
 * datagrams of 32 senders all reach the first socket; spread again, the kernel's hash of each
 * sender's flow shares them out. Were the steering not undone, or the hash to put every one of 32
 * flows on one socket, the second half fails: for a uniform hash that is a chance of 2 × 2^-32.
 */
class ReusePortSteeringTest {

    private static final int SENDERS = 32;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, Transport.choose(Transport.EPOLL)
            .ioHandlerFactory());
    private final List<UdpEndpoint> endpoints = new ArrayList<>();
    private final AtomicInteger[] got = {new AtomicInteger(), new AtomicInteger()};

    @AfterEach
    void close() {
        endpoints.forEach(UdpEndpoint::close);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private UdpEndpoint open(int index, int port) throws Exception {
        UdpEndpoint e = Udp.nativeOnLoop(group.next(), new InetSocketAddress("127.0.0.1", port),
                UdpOptions.DEFAULTS.withReusePort(true), new UdpReceiver() {
                    @Override
                    public void datagram(UdpEndpoint from, byte[] data, int length, InetSocketAddress sender,
                                         InetAddress destination, boolean truncated) {
                        got[index].incrementAndGet();
                    }
                });
        endpoints.add(e);
        return e;
    }

    /** One datagram from each of SENDERS new sockets; waits (bounded) until all have arrived. */
    private void round(InetSocketAddress to) throws Exception {
        got[0].set(0);
        got[1].set(0);
        for (int i = 0; i < SENDERS; i++) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                s.send(new DatagramPacket(new byte[] {(byte) i}, 1, to));
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> got[0].get() + got[1].get() == SENDERS);
    }

    @Test
    void steeredEverySenderReachesTheFirstSocketAndSpreadTheKernelSharesThemOut() throws Exception {
        String why = Udp.nativeOnLoopUnavailable(group);
        assumeTrue(why == null, () -> "natively read sockets unavailable here: " + why);
        UdpEndpoint first = open(0, 0);
        UdpEndpoint second = open(1, first.localAddress().getPort());
        assertThat(first.steerGroup(true)).isNull();
        round(first.localAddress());
        assertThat(got[0].get()).as("datagrams on the first socket, steered").isEqualTo(SENDERS);
        assertThat(first.reads()[0]).isEqualTo(SENDERS);
        assertThat(second.reads()[0]).isZero();

        assertThat(second.steerGroup(false)).as("any socket of the group steers it").isNull();
        round(first.localAddress());
        assertThat(got[0].get()).as("datagrams on the first socket, spread").isPositive();
        assertThat(got[1].get()).as("datagrams on the second socket, spread").isPositive();
        assertThat(first.reads()[0] + second.reads()[0]).isEqualTo(2L * SENDERS);
    }
}
