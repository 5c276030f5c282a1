package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link UdpEndpoint#send(io.netty.buffer.ByteBuf, InetSocketAddress, InetAddress, UdpEndpoint.SendOutcome)}
 * on a Netty-read endpoint: a datagram that leaves is told as such, one the kernel refuses with its
 * error (and counted), one on a closed endpoint at once — so that a sender can log a failure once
 * and its recovery.
 */
class SendOutcomeTest {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transport.choose(null).ioHandlerFactory());
    private UdpEndpoint endpoint;

    @AfterEach
    void close() {
        if (endpoint != null) {
            endpoint.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static CompletableFuture<NetError> send(UdpEndpoint e, InetSocketAddress to) {
        CompletableFuture<NetError> done = new CompletableFuture<>();
        e.send(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), to, null, error -> done.complete(error == null
                ? new NetError(-1, "sent", null) : error));
        return done;
    }

    @Test
    void eachSendTellsHowItWent() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        endpoint = Udp.netty(group, new InetSocketAddress(lo, 0), UdpOptions.DEFAULTS, new UdpReceiver() {
            @Override
            public void datagram(UdpEndpoint e, byte[] data, int length, InetSocketAddress sender, InetAddress d,
                                 boolean truncated) {
            }
        });
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            peer.setSoTimeout(5000);
            NetError ok = send(endpoint, (InetSocketAddress) peer.getLocalSocketAddress()).get(5, TimeUnit.SECONDS);
            assertThat(ok.errno()).as("left").isEqualTo(-1);
            DatagramPacket p = new DatagramPacket(new byte[16], 16);
            peer.receive(p);
            assertThat(p.getLength()).isEqualTo(3);
        }
        // an IPv4 socket cannot send to an IPv6 address: refused, with a message for people
        NetError refused = send(endpoint, new InetSocketAddress(InetAddress.getByName("::1"), 9)).get(5, TimeUnit.SECONDS);
        assertThat(refused.errno()).isNotEqualTo(-1);
        assertThat(refused.message()).isNotBlank();
        assertThat(endpoint.sendErrors()).isEqualTo(1);

        endpoint.close();
        CompletableFuture<NetError> closed = send(endpoint, new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 9));
        assertThat(closed).as("told before send returns").isDone();
        assertThat(closed.get().errno()).isEqualTo(NetError.EBADF);
    }
}
