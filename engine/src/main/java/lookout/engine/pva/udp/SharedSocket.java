package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpReceiver;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;

/**
 * One listening socket of a port — or, for a unicast address read on several loops, the
 * {@code SO_REUSEPORT} sockets bound to it, one per loop: its kind, the address it is bound to,
 * and the members holding it. Its receiver decodes each datagram once, on the loop that read it
 * (the codec is pure), and hands it to its {@link Reader} there.
 *
 * <p>Concurrency: {@link #datagram} and {@link #burstEnd} run on the reading loops and touch only
 * what is final or volatile here; {@code endpoints} and {@code holders} are written on the engine
 * loop (copy on write) before and while datagrams are read.
 */
final class SharedSocket implements UdpReceiver {

    /** Who the socket's datagrams go to: its port. */
    interface Reader {
        /** On the reading loop: one datagram of {@code s}, read through {@code e}, decoded. */
        void received(SharedSocket s, UdpEndpoint e, DatagramContents contents, ByteBuf raw,
                      InetSocketAddress source, InetAddress destination);

        /**
         * On the reading loop, before decoding, for a group socket's datagram: true when it is
         * the own forwarded copy of every member it is for, told to them, and needs no decoding.
         */
        boolean ownCopy(SharedSocket s, InetSocketAddress source);

        /** On the reading loop: the read of {@code e} ended. */
        void burstEnd(SharedSocket s, UdpEndpoint e);

        /** On the reading loop: an error of {@code s} itself ({@code to} null) or of a send without outcome. */
        void failed(SharedSocket s, NetError error, InetSocketAddress to);
    }

    /** Each reading loop's view of its endpoint's array ({@link #view}). */
    private static final ThreadLocal<ByteBuf> VIEW = new ThreadLocal<>();

    final Kind kind;
    /** The address bound: the datagrams' destination (the wildcard's: where it is not known). */
    final InetAddress bound;
    /** The arrival of every datagram of this socket, or null when it depends on the datagram (the wildcard). */
    final Arrival arrival;
    /** Read on responder loops (a listener that asked for readers), not the engine loop's own. */
    final boolean responders;
    private final Reader reader;
    private volatile UdpEndpoint[] endpoints = new UdpEndpoint[0];
    private volatile PortMember[] holders = new PortMember[0];
    private volatile boolean closed;
    /** Which of a unicast address's loops get its datagrams; null when the kernel spreads them (engine loop). */
    private ReadSteering steering;
    /** For a group socket: how its holders' own copies are kept out (engine loop writes; {@link PortGroup#ownCopies}). */
    volatile String ownCopies = "not forwarding";

    /** @param replyFrom where replies to its datagrams leave from (its own address; a broadcast's interface address) */
    SharedSocket(Kind kind, InetAddress bound, InetAddress replyFrom, boolean responders, Reader reader) {
        this.kind = kind;
        this.responders = responders;
        this.bound = bound;
        this.arrival = kind == Kind.WILDCARD ? null : new Arrival(kind, bound, replyFrom);
        this.reader = reader;
    }

    /** One more socket bound to this address (engine loop). */
    void opened(UdpEndpoint e) {
        UdpEndpoint[] next = Arrays.copyOf(endpoints, endpoints.length + 1);
        next[endpoints.length] = e;
        endpoints = next;
    }

    /** The first socket: where sends leave from when no read of this address is under way. */
    UdpEndpoint endpoint() {
        return endpoints[0];
    }

    /** True when {@code e} is one of this address's sockets. */
    boolean owns(UdpEndpoint e) {
        for (UdpEndpoint x : endpoints) {
            if (x == e) {
                return true;
            }
        }
        return false;
    }

    /** How many sockets are bound to this address (one per reading loop). */
    int readers() {
        return endpoints.length;
    }

    boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------ holders (engine loop)

    void hold(PortMember m) {
        if (!heldBy(m)) {
            PortMember[] next = Arrays.copyOf(holders, holders.length + 1);
            next[holders.length] = m;
            holders = next;
        }
    }

    /** Lets go for {@code m}; true when nobody holds it any more. */
    boolean release(PortMember m) {
        PortMember[] h = holders;
        for (int i = 0; i < h.length; i++) {
            if (h[i] == m) {
                PortMember[] next = new PortMember[h.length - 1];
                System.arraycopy(h, 0, next, 0, i);
                System.arraycopy(h, i + 1, next, i, h.length - i - 1);
                holders = next;
                break;
            }
        }
        return holders.length == 0;
    }

    /** Any thread. */
    boolean heldBy(PortMember m) {
        for (PortMember x : holders) {
            if (x == m) {
                return true;
            }
        }
        return false;
    }

    PortMember[] holders() {
        return holders;
    }

    /** Every socket bound to this address. */
    UdpEndpoint[] endpoints() {
        return endpoints;
    }

    /** {@code host:port} as bound. */
    String label() {
        return HostPort.format(bound, endpoint().localAddress().getPort());
    }

    void steering(ReadSteering r) {
        steering = r;
    }

    void close() {
        closed = true;
        if (steering != null) {
            steering.close();
        }
        for (UdpEndpoint e : endpoints) {
            e.close();
        }
    }

    // ------------------------------------------------------------------ UdpReceiver (reading loops)

    @Override
    public void datagram(UdpEndpoint from, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                         boolean truncated) {
        if (closed) {
            return;
        }
        // seed 002 §5: a listener's own forwarded copy, looped back to the group it was sent to,
        // is dropped undecoded where the kernel's filter did not drop it already
        if (kind == Kind.GROUP && sender != null && reader.ownCopy(this, sender)) {
            return;
        }
        // a longer datagram arrives cut: decoding it fails and the listeners count it as malformed
        ByteBuf raw = view(data, length);
        DatagramContents contents = PvaCodec.decodeDatagram(raw);
        reader.received(this, from, contents, raw, sender, destination);
    }

    /**
     * {@code data[0, length)} as a buffer, valid during the delivery as {@code data} is: a reading
     * loop hands over the same array every time (its endpoint's), so each loop keeps one view of
     * it rather than two buffer objects made for every datagram.
     */
    private static ByteBuf view(byte[] data, int length) {
        ByteBuf v = VIEW.get();
        if (v == null || v.array() != data) {
            v = Unpooled.wrappedBuffer(data);
            VIEW.set(v);
        }
        return v.setIndex(0, length);
    }

    @Override
    public void burstEnd(UdpEndpoint from) {
        reader.burstEnd(this, from);
    }

    @Override
    public void sendFailed(UdpEndpoint from, NetError error, InetSocketAddress to) {
        reader.failed(this, error, to);
    }
}
