package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.net.UdpReceiver;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.seams.PvaPorts.Receiver;

/**
 * The PVA client's search socket ({@link PvaPorts#searchSocket}): the wildcard IPv4 address, an
 * ephemeral port, broadcasts allowed, a generous receive buffer and at most 40 datagrams a read
 * (seed 002 §3.5). Searches leave from it; the replies sent to its port come back to it.
 *
 * <p>Concurrency: the receiver callbacks run on the reader loop and hop onto the engine loop;
 * everything else is on the engine loop.
 */
final class SearchSocket implements PvaPorts.Port, UdpReceiver {

    private final SocketFactory factory;
    private final Runnable onClose;
    private final Receiver receiver;
    private final UdpEndpoint endpoint;
    private final Arrival arrival;
    private boolean closed;

    /** Opens it; {@code onClose} runs when it is closed. */
    SearchSocket(SocketFactory factory, Receiver receiver, Runnable onClose) throws IOException {
        this.factory = factory;
        this.receiver = receiver;
        this.onClose = onClose;
        UdpOptions o = UdpOptions.DEFAULTS.withBroadcast(true).withReceiveBuffer(UdpSetup.RECEIVE_BUFFER)
                .withMaxPerRead(UdpSetup.CLIENT_PER_READ);
        this.endpoint = factory.open(factory.loop(0, 0), new InetSocketAddress(UdpSetup.ANY_V4, 0), o, this);
        this.arrival = new Arrival(Kind.SEARCH_SOCKET, UdpSetup.ANY_V4, null);
    }

    @Override
    public int port() {
        return endpoint.localAddress().getPort();
    }

    @Override
    public List<String> bound() {
        return List.of(HostPort.format(endpoint.localAddress()));
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to) {
        if (closed) {
            data.release();
            return false;
        }
        return endpoint.send(data, to, null, error -> factory.scheduler().run(() -> {
            if (closed) {
                return;
            }
            if (error == null) {
                receiver.sent(to);
            } else {
                receiver.sendFailed(to, error);
            }
        }));
    }

    /** A ring tick's datagrams leave in one batch. */
    @Override
    public void together(Runnable work) {
        endpoint.sendTogether(work);
    }

    @Override
    public boolean reply(ByteBuf data, InetSocketAddress to, InetAddress from) {
        return send(data, to);
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
        if (closed) {
            return;
        }
        closed = true;
        endpoint.close();
        onClose.run();
    }

    // ------------------------------------------------------------------ UdpReceiver (reader loop)

    @Override
    public void datagram(UdpEndpoint e, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                         boolean truncated) {
        DatagramContents contents = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(data, 0, length));
        factory.scheduler().run(() -> {
            if (!closed) {
                receiver.datagram(contents, sender, arrival);
            }
        });
    }

    @Override
    public void sendFailed(UdpEndpoint e, NetError error, InetSocketAddress to) {
        factory.scheduler().run(() -> {
            if (!closed) {
                receiver.sendFailed(to, error);
            }
        });
    }
}
