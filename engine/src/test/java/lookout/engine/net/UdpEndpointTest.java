package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both kinds of {@link UdpEndpoint} against the JDK's own sockets on loopback: every datagram of a
 * burst arrives whole with its sender, answers from the reader and from other threads arrive, a
 * datagram longer than the endpoint reads is flagged, and close frees the port.
 */
class UdpEndpointTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
            Transport.choose(null).ioHandlerFactory());
    private UdpEndpoint endpoint;

    @AfterEach
    void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Echoes every datagram back with reply(), prefixed by one byte: 1 when it came cut. */
    private static final class Echo implements UdpReceiver {
        final List<InetSocketAddress> senders = new CopyOnWriteArrayList<>();
        final List<InetAddress> destinations = new CopyOnWriteArrayList<>();
        volatile int bursts;

        @Override
        public void datagram(UdpEndpoint e, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                             boolean truncated) {
            assertThat(e.onReaderThread()).isTrue();
            senders.add(sender);
            if (destination != null) {
                destinations.add(destination);
            }
            byte[] out = new byte[length + 1];
            out[0] = (byte) (truncated ? 1 : 0);
            System.arraycopy(data, 0, out, 1, length);
            e.reply(out, 0, out.length);
        }

        @Override
        public void burstEnd(UdpEndpoint e) {
            bursts++;
        }
    }

    private UdpEndpoint open(String kind, InetSocketAddress local, UdpOptions o, UdpReceiver r) throws IOException {
        if (kind.equals("native-loop")) {
            assumeTrue(Udp.nativeOnLoopUnavailable(group) == null, "native reads on a loop unavailable: "
                    + Udp.nativeOnLoopUnavailable(group));
            return Udp.nativeOnLoop(group.next(), local, o, r);
        }
        if (kind.equals("native")) {
            assumeTrue(Udp.nativeUnavailable() == null, "native datagrams unavailable: " + Udp.nativeUnavailable());
            return Udp.nativeRead(local, o, r, "test-udp-reader");
        }
        return Udp.netty(group, local, o, r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "native", "native-loop"})
    void aBurstIsAnsweredWholeDatagramByDatagram(String kind) throws Exception {
        Echo echo = new Echo();
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        // buffers that hold the whole burst both ways: the test is about the endpoint, not UDP's loss
        endpoint = open(kind, new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS.withReceiveBuffer(1 << 20), echo);
        assertThat(endpoint.localAddress().getPort()).isPositive();
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setReceiveBufferSize(1 << 20);
            client.setSoTimeout(5000); // a bound on a lost answer; answers come in milliseconds
            int n = 200;
            for (int i = 0; i < n; i++) {
                byte[] d = new byte[1 + i * 7 % 1000];
                d[0] = (byte) i;
                client.send(new DatagramPacket(d, d.length, endpoint.localAddress()));
            }
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < n; i++) {
                DatagramPacket p = new DatagramPacket(new byte[4096], 4096);
                client.receive(p);
                assertThat(p.getData()[0]).isZero();
                int id = p.getData()[1] & 0xFF;
                assertThat(p.getLength()).isEqualTo(2 + id * 7 % 1000); // whole: what was sent, and the flag byte
                seen.add(id);
            }
            assertThat(seen).hasSize(n);
            assertThat(echo.senders).containsOnly(new InetSocketAddress(lo, client.getLocalPort()));
            assertThat(echo.bursts).isPositive().isLessThanOrEqualTo(n);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "native", "native-loop"})
    void aDatagramLongerThanTheEndpointReadsArrivesCutAndFlagged(String kind) throws Exception {
        Echo echo = new Echo();
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        endpoint = open(kind, new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS.withMaxDatagram(512), echo);
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setSoTimeout(5000);
            client.send(new DatagramPacket(new byte[2000], 2000, endpoint.localAddress()));
            DatagramPacket p = new DatagramPacket(new byte[4096], 4096);
            client.receive(p);
            assertThat(p.getData()[0]).isEqualTo((byte) 1);
            assertThat(p.getLength()).isEqualTo(1 + 512);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "native", "native-loop"})
    void sendsFromAnotherThreadLeaveAtOnceAndTogether(String kind) throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        endpoint = open(kind, new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS, new Echo());
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setSoTimeout(5000);
            InetSocketAddress to = new InetSocketAddress(lo, client.getLocalPort());
            assertThat(endpoint.onReaderThread()).isFalse();
            assertThat(endpoint.send(new byte[] {9, 8, 7}, 1, 2, to, null)).isTrue();
            endpoint.sendTogether(() -> {
                for (int i = 0; i < 40; i++) {
                    endpoint.send(Unpooled.wrappedBuffer(new byte[] {(byte) i}), to, null);
                }
            });
            DatagramPacket p = new DatagramPacket(new byte[64], 64);
            client.receive(p);
            assertThat(p.getLength()).isEqualTo(2);
            assertThat(p.getData()[0]).isEqualTo((byte) 8);
            Set<Integer> got = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                client.receive(p);
                got.add((int) p.getData()[0]);
            }
            assertThat(got).hasSize(40);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty", "native", "native-loop"})
    void closeFreesThePort(String kind) throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        endpoint = open(kind, new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS, new Echo());
        InetSocketAddress bound = endpoint.localAddress();
        endpoint.close();
        endpoint = open(kind, bound, UdpOptions.DEFAULTS, new Echo());
        assertThat(endpoint.localAddress()).isEqualTo(bound);
    }

    /**
     * Read on the loop: what the loop sends outside a burst (an answer after an upstream reply)
     * waits for the end of the loop's round and leaves with the rest, all of it.
     */
    @Test
    void onTheLoopSendsOutsideABurstLeaveTogetherAtTheEndOfTheRound() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        endpoint = open("native-loop", new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS, new Echo());
        assertThat(endpoint.readBy()).isEqualTo("native-loop");
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setSoTimeout(5000);
            InetSocketAddress to = new InetSocketAddress(lo, client.getLocalPort());
            group.next().submit(() -> {
                assertThat(endpoint.onReaderThread()).isTrue();
                for (int i = 0; i < 40; i++) {
                    endpoint.send(new byte[] {(byte) i, 0}, 0, 2, to, null);
                }
            }).get(5, TimeUnit.SECONDS);
            Set<Integer> got = new HashSet<>();
            DatagramPacket p = new DatagramPacket(new byte[64], 64);
            for (int i = 0; i < 40; i++) {
                client.receive(p);
                got.add((int) p.getData()[0]);
            }
            assertThat(got).hasSize(40);
            assertThat(endpoint.sendErrors()).isZero();
            assertThat(endpoint.receiveBuffer()).isPositive();
            assertThat(endpoint.receiveDrops()).isZero();
        }
    }

    /** A wildcard natively read endpoint knows each datagram's destination and answers from it. */
    @Test
    void aNativeWildcardEndpointKnowsTheDestination() throws Exception {
        Echo echo = new Echo();
        endpoint = open("native", new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0), UdpOptions.DEFAULTS, echo);
        assertThat(endpoint.knowsDestination()).isTrue();
        assertThat(endpoint.choosesSource()).isTrue();
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setSoTimeout(5000);
            client.send(new DatagramPacket(new byte[] {1}, 1, lo, endpoint.localAddress().getPort()));
            DatagramPacket p = new DatagramPacket(new byte[64], 64);
            client.receive(p);
            assertThat(p.getAddress()).isEqualTo(lo);
            assertThat(echo.destinations).containsExactly(lo);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer from the wildcard endpoint", e);
        }
    }
}
