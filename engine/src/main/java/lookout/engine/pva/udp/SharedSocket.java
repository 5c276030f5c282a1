package lookout.engine.pva.udp;

import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import lookout.engine.api.Scheduler;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpReceiver;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;

/**
 * One listening socket of a port: its kind and the address it is bound to. Its receiver decodes
 * each datagram once, on the reader loop (the codec is pure), and hands it to its {@link Reader}
 * on the engine loop.
 *
 * <p>Concurrency: {@link #datagram} and {@link #burstEnd} run on the reader loop and touch only
 * what is final here; {@code endpoint} is set once, before the first datagram.
 */
final class SharedSocket implements UdpReceiver {

    /** Who the socket's datagrams go to: its port. */
    interface Reader {
        /** On the reader loop: a read of {@code s} starts or goes on. */
        void reading(SharedSocket s);

        /** On the engine loop: one datagram of {@code s}, decoded. */
        void deliver(SharedSocket s, DatagramContents contents, InetSocketAddress source, InetAddress destination);

        /** On the reader loop: the read of {@code s} ended. */
        void burstEnd(SharedSocket s);

        /** On the engine loop: an error of {@code s} itself ({@code to} null) or of a send without outcome. */
        void failed(SharedSocket s, NetError error, InetSocketAddress to);
    }

    final Kind kind;
    /** The address bound: the datagrams' destination (the wildcard's: where it is not known). */
    final InetAddress bound;
    /** The arrival of every datagram of this socket, or null when it depends on the datagram (the wildcard). */
    final Arrival arrival;
    private final Reader reader;
    private final Scheduler scheduler;
    private volatile UdpEndpoint endpoint;

    /** @param replyFrom where replies to its datagrams leave from (its own address; a broadcast's interface address) */
    SharedSocket(Kind kind, InetAddress bound, InetAddress replyFrom, Reader reader, Scheduler scheduler) {
        this.kind = kind;
        this.bound = bound;
        this.arrival = kind == Kind.WILDCARD ? null : new Arrival(kind, bound, replyFrom);
        this.reader = reader;
        this.scheduler = scheduler;
    }

    void opened(UdpEndpoint e) {
        this.endpoint = e;
    }

    UdpEndpoint endpoint() {
        return endpoint;
    }

    /** {@code host:port} as bound. */
    String label() {
        return HostPort.format(bound, endpoint.localAddress().getPort());
    }

    void close() {
        endpoint.close();
    }

    @Override
    public void datagram(UdpEndpoint from, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                         boolean truncated) {
        // a longer datagram arrives cut: decoding it fails and the listeners count it as malformed
        DatagramContents contents = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(data, 0, length));
        reader.reading(this);
        scheduler.run(() -> reader.deliver(this, contents, sender, destination));
    }

    @Override
    public void burstEnd(UdpEndpoint from) {
        reader.burstEnd(this);
    }

    @Override
    public void sendFailed(UdpEndpoint from, NetError error, InetSocketAddress to) {
        scheduler.run(() -> reader.failed(this, error, to));
    }
}
