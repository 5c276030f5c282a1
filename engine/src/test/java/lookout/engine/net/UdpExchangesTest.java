package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link UdpExchanges} against the JDK's own sockets on loopback: every exchange its own connected
 * socket (a port of its own, replies from its peer only), replies handed out with their
 * attachment on the loop, an ICMP refusal as a receive error with its errno, a closed exchange
 * silent and its name never reaching a later exchange, and the sockets gone on close.
 */
class UdpExchangesTest {

    private EventLoopGroup group;
    private EventLoop loop;
    private UdpExchanges exchanges;
    private DatagramSocket peer;
    private final List<String> got = new CopyOnWriteArrayList<>();

    private final UdpExchanges.Receiver receiver = new UdpExchanges.Receiver() {
        @Override
        public void datagram(int exchange, Object attachment, byte[] data, int length, boolean truncated) {
            assertThat(loop.inEventLoop()).isTrue();
            got.add(attachment + ":" + new String(data, 0, length) + (truncated ? ":cut" : ""));
        }

        @Override
        public void failed(int exchange, Object attachment, NetError error) {
            got.add(attachment + ":errno " + error.errno());
        }
    };

    @BeforeEach
    void open() throws IOException {
        group = new MultiThreadIoEventLoopGroup(1, Transport.choose(null).ioHandlerFactory());
        loop = group.next();
        assumeTrue(UdpExchanges.unavailable(group) == null, "native exchanges unavailable: " + UdpExchanges.unavailable(group));
        exchanges = UdpExchanges.open(loop, receiver);
        peer = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        peer.setSoTimeout(5000);
    }

    @AfterEach
    void close() {
        if (exchanges != null) {
            exchanges.close();
        }
        if (peer != null) {
            peer.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private InetSocketAddress peerAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.getLocalPort());
    }

    private int openOnLoop(InetSocketAddress to, String data, Object attachment) throws Exception {
        return loop.submit(() -> exchanges.open(to, data.getBytes(), data.length(), attachment)).get(5, TimeUnit.SECONDS);
    }

    private void await(int n) throws InterruptedException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (got.size() < n && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }

    @Test
    void eachExchangeIsItsOwnConnectedSocketAndItsReplyComesWithItsAttachment() throws Exception {
        openOnLoop(peerAddress(), "one", "a");
        openOnLoop(peerAddress(), "two", "b");
        DatagramPacket p1 = new DatagramPacket(new byte[100], 100);
        DatagramPacket p2 = new DatagramPacket(new byte[100], 100);
        peer.receive(p1);
        peer.receive(p2);
        assertThat(p1.getPort()).as("a port of its own each").isNotEqualTo(p2.getPort());
        // a stranger's datagram to the exchange's port is not taken: the socket is connected
        try (DatagramSocket stranger = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            stranger.send(new DatagramPacket("forged".getBytes(), 6, p1.getSocketAddress()));
        }
        peer.send(new DatagramPacket("reply-2".getBytes(), 7, p2.getSocketAddress()));
        peer.send(new DatagramPacket("reply-1".getBytes(), 7, p1.getSocketAddress()));
        await(2);
        String first = new String(p1.getData(), 0, p1.getLength());
        String owner1 = first.equals("one") ? "a" : "b";
        String owner2 = owner1.equals("a") ? "b" : "a";
        assertThat(got).containsExactlyInAnyOrder(owner1 + ":reply-1", owner2 + ":reply-2");
        assertThat(exchanges.openCount()).isEqualTo(2);
    }

    @Test
    void anIcmpRefusalIsAReceiveErrorWithItsErrno() throws Exception {
        int port;
        try (DatagramSocket gone = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            port = gone.getLocalPort();
        }
        openOnLoop(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "anyone?", "x");
        await(1);
        assertThat(got).containsExactly("x:errno " + NetError.ECONNREFUSED);
    }

    @Test
    void aClosedExchangeIsSilentAndItsNameNeverReachesTheNextInItsSlot() throws Exception {
        int first = openOnLoop(peerAddress(), "q", "old");
        DatagramPacket p = new DatagramPacket(new byte[100], 100);
        peer.receive(p);
        loop.submit(() -> exchanges.close(first)).get(5, TimeUnit.SECONDS);
        peer.send(new DatagramPacket("late".getBytes(), 4, p.getSocketAddress())); // to a closed port
        int second = openOnLoop(peerAddress(), "q2", "new");
        assertThat(second & 0xFFFF).as("the slot is given again").isEqualTo(first & 0xFFFF);
        assertThat(second).as("under another name").isNotEqualTo(first);
        loop.submit(() -> exchanges.close(first)).get(5, TimeUnit.SECONDS); // the old name: nothing happens
        assertThat(exchanges.openCount()).isEqualTo(1);
        DatagramPacket p2 = new DatagramPacket(new byte[100], 100);
        peer.receive(p2);
        peer.send(new DatagramPacket("fresh".getBytes(), 5, p2.getSocketAddress()));
        await(1);
        Thread.sleep(50);
        assertThat(got).containsExactly("new:fresh");
    }

    @Test
    void closingEndsEveryExchangeAndRefusesNewOnes() throws Exception {
        for (int i = 0; i < 50; i++) {
            openOnLoop(peerAddress(), "q" + i, i);
        }
        assertThat(exchanges.openCount()).isEqualTo(50);
        exchanges.close();
        assertThat(exchanges.openCount()).isZero();
        assertThatThrownBy(() -> exchanges.open(peerAddress(), new byte[1], 1, null))
                .isInstanceOfSatisfying(NetError.NativeIoError.class, e -> assertThat(e.errno()).isEqualTo(NetError.EBADF));
        exchanges.close(); // idempotent
    }

    @Test
    void aDatagramLongerThanItsRoomArrivesCutAndFlagged() throws Exception {
        openOnLoop(peerAddress(), "big?", "big");
        DatagramPacket p = new DatagramPacket(new byte[100], 100);
        peer.receive(p);
        // 65 507 bytes: the largest IPv4 UDP datagram fits the 64 KiB room; so it arrives whole
        byte[] large = new byte[65507];
        java.util.Arrays.fill(large, (byte) 'x');
        peer.send(new DatagramPacket(large, large.length, p.getSocketAddress()));
        await(1);
        assertThat(got).singleElement().satisfies(s -> assertThat(s).hasSize(4 + 65507).doesNotEndWith(":cut"));
    }
}
