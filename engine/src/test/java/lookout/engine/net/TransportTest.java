package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine loop's transport: epoll on Linux, batched reads whole, bind errors as the JDK's. */
class TransportTest {

    private final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1, auto().ioHandlerFactory());

    private static Transport auto() {
        return Transport.choose(null);
    }

    @AfterEach
    void close() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void linuxGetsTheNativeEpollTransport() {
        String arch = System.getProperty("os.arch");
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && List.of("amd64", "x86_64", "aarch64").contains(arch), "Netty ships epoll for this machine");
        assertThat(auto()).isEqualTo(Transport.EPOLL);
        assertThat(Transport.epollUnavailableReason(auto())).isNull();
        assertThat(Transport.choose(Transport.NIO)).isEqualTo(Transport.NIO);
        assertThat(Transport.epollUnavailableReason(Transport.NIO)).isNotNull();
        assertThat(Transport.of(io)).isEqualTo(Transport.EPOLL);
        assertThat(Transport.EPOLL.datagram(null)).isInstanceOf(EpollDatagramChannel.class);
    }

    @Test
    void aBatchedListenerTakesEveryDatagramOfABurstWhole() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        List<byte[]> got = new CopyOnWriteArrayList<>();
        DatagramChannel ch = Transport.of(io).batchedDatagram(lo, 64);
        ch.pipeline().addLast(new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                got.add(ByteBufUtil.getBytes(p.content()));
            }
        });
        ch.config().setReceiveBufferSize(1 << 20);
        Transport.sync(io.register(ch));
        Transport.sync(ch.bind(new InetSocketAddress(lo, 0)));
        int port = ch.localAddress().getPort();

        // 200 datagrams sent back to back: recvmmsg takes them in batches; every size up to the
        // batched limit arrives whole, in order, with its own content
        int n = 200;
        try (DatagramSocket out = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            for (int i = 0; i < n; i++) {
                byte[] b = payload(i, 1 + (i * 997) % Transport.BATCHED_DATAGRAM_SIZE);
                out.send(new java.net.DatagramPacket(b, b.length, lo, port));
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == n);
        for (int i = 0; i < n; i++) {
            assertThat(got.get(i)).isEqualTo(payload(i, 1 + (i * 997) % Transport.BATCHED_DATAGRAM_SIZE));
        }
        ch.close().syncUninterruptibly();
    }

    @Test
    void anAddressInUseIsABindExceptionLikeTheJdks() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            DatagramChannel ch = Transport.of(io).datagram(lo);
            Transport.sync(io.register(ch));
            assertThatThrownBy(() -> Transport.sync(ch.bind(new InetSocketAddress(lo, taken.getLocalPort()))))
                    .isInstanceOf(BindException.class)
                    .hasMessageContaining("Address already in use");
            ch.close().syncUninterruptibly();
        }
    }

    /**
     * resolver.udp_threads rests on this: with SO_REUSEPORT on every socket, two sockets of this
     * process bind one address and port, on either transport; without it on the second, the bind
     * fails as the first test says.
     */
    @Test
    void reusePortLetsTwoSocketsOfOneProcessShareAPortOnEitherTransport() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        for (Transport t : Transport.values()) {
            if (t == Transport.EPOLL && auto() != Transport.EPOLL) {
                continue; // no native library here
            }
            assertThat(t.reusePortSupported()).as(t.name()).isTrue();
            EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, t.ioHandlerFactory());
            try {
                DatagramChannel first = Transport.bind(group, t.datagram(lo), new InetSocketAddress(lo, 0), t::reusePort);
                int port = first.localAddress().getPort();
                DatagramChannel second = Transport.bind(group, t.datagram(lo), new InetSocketAddress(lo, port), t::reusePort);
                assertThat(second.localAddress().getPort()).as(t.name()).isEqualTo(port);
                DatagramChannel third = t.datagram(lo);
                assertThatThrownBy(() -> Transport.bind(group, third, new InetSocketAddress(lo, port), c -> { }))
                        .as(t.name()).isInstanceOf(BindException.class);
                first.close().syncUninterruptibly();
                second.close().syncUninterruptibly();
            } finally {
                group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    private static byte[] payload(int seq, int length) {
        byte[] b = new byte[length];
        for (int k = 0; k < length; k++) {
            b[k] = (byte) (seq * 31 + k);
        }
        return b;
    }
}
