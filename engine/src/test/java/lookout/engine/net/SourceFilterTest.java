package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link UdpEndpoint#dropFrom}, the socket filter of the PVA group socket (seed 002 §5: our own
 * forwarded copies), on this kernel: it reads the IPv4 source address at {@code SKF_NET_OFF + 12}
 * and, at offset 0, the UDP source port — a UDP socket's filter sees the datagram from its UDP
 * header, which this test shows by dropping one sender and not another on the same address, and
 * not the same port on another address. The kernel counts what it drops in the socket's drops
 * ({@code SO_MEMINFO}), which the status reports.
 */
class SourceFilterTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transport.choose(Transport.EPOLL)
            .ioHandlerFactory());
    private UdpEndpoint endpoint;
    private final List<String> got = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void open() throws Exception {
        endpoint = Udp.netty(group, new InetSocketAddress("127.0.0.1", 0), UdpOptions.DEFAULTS, new UdpReceiver() {
            @Override
            public void datagram(UdpEndpoint e, byte[] data, int length, InetSocketAddress sender,
                                 InetAddress destination, boolean truncated) {
                got.add(new String(data, 0, length, java.nio.charset.StandardCharsets.US_ASCII));
            }
        });
    }

    private static void send(DatagramSocket from, String text, InetSocketAddress to) throws Exception {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        from.send(new DatagramPacket(b, b.length, to));
    }

    /**
     * Sends 5 datagrams from each of {@code senders} (named by index), then waits (bounded) until
     * the {@code heard} ones have all arrived and the kernel has counted {@code dropped} more drops;
     * returns what arrived. Waiting for both, not for a last datagram: loopback may reorder
     * datagrams of different senders.
     */
    private List<String> round(String round, List<Integer> heard, int dropped, DatagramSocket... senders)
            throws Exception {
        got.clear();
        long drops = endpoint.receiveDrops();
        InetSocketAddress to = endpoint.localAddress();
        for (int i = 0; i < 5; i++) {
            for (int s = 0; s < senders.length; s++) {
                send(senders[s], round + s, to);
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> heard.stream()
                .allMatch(h -> got.stream().filter((round + h)::equals).count() == 5)
                && endpoint.receiveDrops() - drops >= dropped);
        assertThat(endpoint.receiveDrops() - drops).as("kernel drops").isEqualTo(dropped);
        return List.copyOf(got);
    }

    @Test
    void theKernelDropsExactlyTheListedSourcesAndCountsThem() throws Exception {
        open();
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket b = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket sameNumber = new DatagramSocket(new InetSocketAddress("127.0.0.2", a.getLocalPort()))) {
            assertThat(endpoint.receiveDrops()).isGreaterThanOrEqualTo(0);
            assertThat(endpoint.dropFrom(List.of((InetSocketAddress) a.getLocalSocketAddress()))).isNull();

            // a's five dropped in the kernel (and counted there); b (same address, another port)
            // and 127.0.0.2 (same port number) heard
            List<String> r = round("f", List.of(1, 2), 5, a, b, sameNumber);
            assertThat(r).doesNotContain("f0").hasSize(10);

            // replaced: now b's are dropped and a's heard
            assertThat(endpoint.dropFrom(List.of((InetSocketAddress) b.getLocalSocketAddress()))).isNull();
            r = round("g", List.of(1), 5, b, a);
            assertThat(r).doesNotContain("g0").hasSize(5);

            // removed: everything heard, nothing dropped
            assertThat(endpoint.dropFrom(List.of())).isNull();
            r = round("h", List.of(0, 1), 0, a, b);
            assertThat(r).hasSize(10);
        }
    }

    @Test
    void whatItCannotFilterIsSaidNotThrown() throws Exception {
        open();
        assertThat(endpoint.dropFrom(List.of(new InetSocketAddress("::1", 5076)))).contains("IPv4 sources only");
        List<InetSocketAddress> many = new java.util.ArrayList<>();
        for (int i = 0; i < 33; i++) {
            many.add(new InetSocketAddress("127.0.0.1", 1000 + i));
        }
        assertThat(endpoint.dropFrom(many)).contains("more than 32");
        EventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, Transport.NIO.ioHandlerFactory());
        try {
            UdpEndpoint plain = Udp.netty(nio, new InetSocketAddress("127.0.0.1", 0), UdpOptions.DEFAULTS,
                    (e, data, length, sender, destination, truncated) -> { });
            try {
                assertThat(plain.dropFrom(List.of(new InetSocketAddress("127.0.0.1", 1)))).contains("no socket filter");
            } finally {
                plain.close();
            }
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
