package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.DatagramChannel;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.api.Scheduler;
import lookout.engine.net.Transport;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.PvaCodec;

/**
 * The UDP side of the server: search sockets on {@code pva.broadcast_port}, the forwarding group
 * and the sockets that send forwarded searches and beacons.
 *
 * <p>seed 002 §4 wants each reply sent through the arrival interface from the address the
 * request was sent to. Java and Netty expose no IP_PKTINFO (on NIO or epoll), so this listener
 * binds one socket per local unicast address (its destination is then known, and a reply sent
 * on it leaves from that address), one per IPv4 interface broadcast address (replies go out on
 * the socket of that interface's unicast address), and one bound to each forwarding group joined
 * on loopback. All share the port with other PVA servers (SO_REUSEADDR, as PVXS and core-pva set
 * it). Searches to the limited broadcast address 255.255.255.255 reach only a socket bound to the
 * wildcard address, which on Linux also receives every subnet broadcast and every joined group's
 * traffic: on epoll, where each datagram's original destination is known (IP_RECVORIGDSTADDR),
 * one wildcard IPv4 socket takes the datagrams sent to 255.255.255.255 and ignores the rest (each
 * also reached its own socket); its replies leave from the local address on the client's subnet.
 * It is opened only when the server listens beyond loopback. On NIO there is no such socket.
 *
 * <p>Concurrency: sockets are opened and closed on the engine loop; their handlers run on the
 * I/O group, decode there (the codec is pure) and hop onto the engine loop with the decoded
 * messages. {@code byLocal} and {@code channels} are written only before registration and at close.
 */
final class UdpListener implements SearchResponder.Transmit {

    private static final Logger LOG = System.getLogger("lookout.pva.server.udp");
    private static final int RECEIVE_BUFFER = 1 << 20;
    /** Datagrams taken per wake-up of a socket (on epoll in recvmmsg batches of up to 16). */
    private static final int MAX_DATAGRAMS_PER_READ = 64;
    /** Replies queued beyond this are dropped (a flood must not grow memory). */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(64 * 1024, 256 * 1024);

    private final Scheduler scheduler;
    private final SearchResponder responder;
    private final List<Channel> channels = new ArrayList<>();
    private final Map<InetAddress, Channel> byLocal = new HashMap<>();
    private final List<String> bound = new ArrayList<>();
    private Channel fallbackV4;
    private Channel fallbackV6;
    private Channel forwardV4;
    private Channel forwardV6;
    private Channel sender;
    private int port;
    private boolean forwarding;
    private boolean warnedSend;
    // I/O thread only: true from the first datagram of a read burst to its end; the channels
    // written to meanwhile, flushed together at the end
    private boolean inBurst;
    private final List<Channel> unflushed = new ArrayList<>(4);

    UdpListener(Scheduler scheduler, SearchResponder responder) {
        this.scheduler = scheduler;
        this.responder = responder;
    }

    /**
     * A local address to listen on, with the broadcast address of its interface (IPv4, may be
     * null) and the interface's network prefix length (-1 when unknown).
     */
    record LocalAddress(InetAddress address, InetAddress broadcast, int prefix) {
        LocalAddress(InetAddress address, InetAddress broadcast) {
            this(address, broadcast, -1);
        }

        /** True when {@code a} lies on this address's IPv4 subnet. */
        boolean sameSubnet(InetAddress a) {
            if (!(address instanceof Inet4Address) || !(a instanceof Inet4Address) || prefix < 0 || prefix > 32) {
                return false;
            }
            int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            return (Addresses.v4Int(address) & mask) == (Addresses.v4Int(a) & mask);
        }
    }

    static final InetAddress LIMITED_BROADCAST = Addresses.byBytes(new byte[] {-1, -1, -1, -1});
    /** Subnets for choosing where a reply to a limited broadcast leaves from (written before registration). */
    private final List<LocalAddress> locals = new ArrayList<>();

    /**
     * Binds every socket. {@code port} 0 binds an ephemeral port for the first socket and the same
     * port for the rest. Returns the port bound.
     * {@code limitedBroadcast}: also take searches sent to 255.255.255.255 (epoll only).
     */
    int open(EventLoopGroup io, List<LocalAddress> locals, int wantedPort, boolean forwardingWanted,
             boolean limitedBroadcast) throws IOException {
        Transport transport = Transport.of(io);
        port = wantedPort;
        this.locals.addAll(locals);
        Map<InetAddress, InetAddress> broadcasts = new LinkedHashMap<>();
        for (LocalAddress la : locals) {
            Channel c = open(io, transport, la.address(), true,
                    new Arrival(Arrival.Kind.OWN_UNICAST, la.address(), la.address()));
            byLocal.put(la.address(), c);
            if (la.address() instanceof Inet4Address && fallbackV4 == null) {
                fallbackV4 = c;
            } else if (la.address() instanceof Inet6Address && fallbackV6 == null) {
                fallbackV6 = c;
            }
            if (la.broadcast() != null) {
                broadcasts.putIfAbsent(la.broadcast(), la.address());
            }
        }
        for (Map.Entry<InetAddress, InetAddress> b : broadcasts.entrySet()) {
            try {
                open(io, transport, b.getKey(), false, new Arrival(Arrival.Kind.BROADCAST, b.getKey(), b.getValue()));
            } catch (IOException e) {
                LOG.log(Level.WARNING, "PVA server: cannot listen on broadcast " + b.getKey() + ": " + e);
            }
        }
        if (limitedBroadcast && transport == Transport.EPOLL && fallbackV4 != null) {
            try {
                openLimitedBroadcast(io, transport);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "PVA server: cannot listen for searches to 255.255.255.255: " + e);
            }
        }
        forwarding = forwardingWanted && openForwarding(io, transport);
        // Beacons leave from an ephemeral port, like PVXS's beacon socket: one dual-stack socket
        // bound to [::] (IPv4 destinations go out through their mapped form), IPv4 where there is
        // no IPv6.
        DatagramChannel s;
        try {
            s = sendOnly(io, transport, Addresses.byBytes(new byte[16]), ch -> ch.config().setBroadcast(true));
        } catch (IOException | RuntimeException e) {
            s = sendOnly(io, transport, Addresses.byBytes(new byte[4]), ch -> ch.config().setBroadcast(true));
        }
        sender = s;
        return port;
    }

    private boolean openForwarding(EventLoopGroup io, Transport transport) {
        NetworkInterface lo = loopbackInterface();
        if (lo == null) {
            LOG.log(Level.WARNING, "PVA server: no loopback interface, unicast forwarding off");
            return false;
        }
        boolean any = false;
        // §5: IPv4 form 224.0.0.128 via 127.0.0.1; IPv6 form ff02::42:1 via ::1. Each is best effort.
        try {
            openGroup(io, transport, Addresses.FORWARD_GROUP_V4, lo);
            forwardV4 = sendOnly(io, transport, Addresses.byBytes(new byte[] {127, 0, 0, 1}), ch -> {
                ch.config().setNetworkInterface(lo);
                ch.config().setTimeToLive(1);
                ch.config().setLoopbackModeDisabled(false);
            });
            any = true;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "PVA server: IPv4 unicast forwarding unavailable: " + e);
        }
        try {
            Inet6Address group = Inet6Address.getByAddress(null, Addresses.FORWARD_GROUP_V6.getAddress(), lo);
            openGroup(io, transport, group, lo);
            forwardV6 = sendOnly(io, transport, InetAddress.getByName("::1"), ch -> {
                ch.config().setNetworkInterface(lo);
                ch.config().setTimeToLive(1);
            });
            any = true;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "PVA server: IPv6 unicast forwarding unavailable: " + e);
        }
        return any;
    }

    /** The socket bound to a forwarding group, joined on loopback; it only receives. */
    private void openGroup(EventLoopGroup io, Transport transport, InetAddress group, NetworkInterface lo)
            throws IOException {
        InetSocketAddress at = new InetSocketAddress(group, port);
        DatagramChannel ch = Transport.bind(io, transport.batchedDatagram(group, MAX_DATAGRAMS_PER_READ), at, c -> {
            c.config().setReuseAddress(true);
            c.config().setReceiveBufferSize(RECEIVE_BUFFER);
            c.config().setWriteBufferWaterMark(WATER_MARK);
            c.pipeline().addLast(new Inbound(new Arrival(Arrival.Kind.GROUP, group, null)));
        });
        try {
            Transport.sync(ch.joinGroup(at, lo));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        channels.add(ch);
        bound.add(fmt(group, port));
    }

    /** The wildcard IPv4 socket that keeps only datagrams sent to 255.255.255.255 (see the class comment). */
    private void openLimitedBroadcast(EventLoopGroup io, Transport transport) throws IOException {
        InetAddress any = Addresses.byBytes(new byte[4]);
        DatagramChannel ch = Transport.bind(io, transport.batchedDatagram(any, MAX_DATAGRAMS_PER_READ),
                new InetSocketAddress(any, port), c -> {
                    transport.reportOriginalDestination(c);
                    listening(c, null);
                });
        channels.add(ch);
        bound.add(fmt(LIMITED_BROADCAST, port));
    }

    /** Where a reply to a limited broadcast from {@code client} leaves: the local address on its subnet. */
    private InetAddress replyFromFor(InetAddress client) {
        InetAddress c = Addresses.unmap(client);
        for (LocalAddress la : locals) {
            if (la.sameSubnet(c)) {
                return la.address();
            }
        }
        return ((InetSocketAddress) fallbackV4.localAddress()).getAddress();
    }

    /** The options of every search socket: the port shared (SO_REUSEADDR), broadcast allowed, bounded queues. */
    private void listening(DatagramChannel c, Arrival arrival) {
        c.config().setReuseAddress(true);
        c.config().setBroadcast(true);
        c.config().setReceiveBufferSize(RECEIVE_BUFFER);
        c.config().setWriteBufferWaterMark(WATER_MARK);
        c.pipeline().addLast(new Inbound(arrival));
    }

    /** A listening socket on {@code local} and the shared port (SO_REUSEADDR, broadcast allowed). */
    private Channel open(EventLoopGroup io, Transport transport, InetAddress local, boolean mayPickPort,
                         Arrival arrival) throws IOException {
        DatagramChannel ch = Transport.bind(io, transport.batchedDatagram(local, MAX_DATAGRAMS_PER_READ),
                new InetSocketAddress(local, port), c -> listening(c, arrival));
        if (port == 0 && mayPickPort) {
            port = ch.localAddress().getPort();
        }
        channels.add(ch);
        bound.add(fmt(local, port));
        return ch;
    }

    /** A socket that only sends, bound to an ephemeral port of {@code local}. */
    private DatagramChannel sendOnly(EventLoopGroup io, Transport transport, InetAddress local,
                                     java.util.function.Consumer<DatagramChannel> options) throws IOException {
        DatagramChannel ch = Transport.bind(io, transport.datagram(local), new InetSocketAddress(local, 0), c -> {
            options.accept(c);
            c.config().setWriteBufferWaterMark(WATER_MARK);
            c.pipeline().addLast(new Discard());
        });
        channels.add(ch);
        return ch;
    }

    int port() {
        return port;
    }

    boolean forwarding() {
        return forwarding;
    }

    List<String> bound() {
        return List.copyOf(bound);
    }

    void close() {
        for (Channel c : channels) {
            c.close();
        }
        channels.clear();
        byLocal.clear();
        locals.clear();
    }

    @Override
    public ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    public boolean reply(ByteBuf message, InetSocketAddress to, InetAddress from) {
        Channel c = from == null ? null : byLocal.get(Addresses.unmap(from));
        if (c == null) {
            c = Addresses.isV4(to.getAddress()) ? fallbackV4 : fallbackV6;
        }
        if (c == null) {
            c = sender;
        }
        return send(c, message, new InetSocketAddress(Addresses.unmap(to.getAddress()), to.getPort()));
    }

    @Override
    public boolean forward(ByteBuf datagram, InetAddress origin) {
        boolean v4 = Addresses.isV4(origin);
        Channel c = v4 ? forwardV4 : forwardV6;
        if (c == null) {
            c = forwardV4 != null ? forwardV4 : forwardV6;
            v4 = c == forwardV4;
        }
        if (c == null) {
            datagram.release();
            return false;
        }
        InetSocketAddress group = v4 ? new InetSocketAddress(Addresses.FORWARD_GROUP_V4, port)
                : new InetSocketAddress(Addresses.FORWARD_GROUP_V6, port);
        return send(c, datagram, group);
    }

    /** Beacons: from the ephemeral sender socket. */
    boolean beacon(ByteBuf message, InetSocketAddress to) {
        Channel c = sender;
        InetAddress a = Addresses.unmap(to.getAddress());
        if (a instanceof Inet4Address) {
            // the dual-stack sender reaches IPv4 through its mapped form
            return send(c, message, new InetSocketAddress(a, to.getPort()));
        }
        return send(c, message, to);
    }

    private boolean send(Channel c, ByteBuf message, InetSocketAddress to) {
        if (c == null || !c.isActive() || !c.isWritable()) {
            message.release();
            return false;
        }
        // Hot path: a void promise, no listener per datagram; a failed send surfaces as
        // exceptionCaught on the socket's pipeline, which reports it through sendFailed.
        DatagramPacket p = new DatagramPacket(message, to);
        if (c.eventLoop().inEventLoop() && inBurst) {
            // made while a read burst is delivered: leaves with the burst's other replies, in
            // one sendmmsg on epoll, when the burst ends (Inbound.channelReadComplete)
            c.write(p, c.voidPromise());
            if (!unflushed.contains(c)) {
                unflushed.add(c);
            }
        } else {
            c.writeAndFlush(p, c.voidPromise());
        }
        return true;
    }

    private void flushBurst() {
        inBurst = false;
        for (int i = 0; i < unflushed.size(); i++) {
            unflushed.get(i).flush();
        }
        unflushed.clear();
    }

    private void sendFailed(Throwable cause) {
        // pvxs: repeated I/O errors are logged once at WARNING, then DEBUG.
        LOG.log(warnedSend ? Level.DEBUG : Level.WARNING, "PVA server: UDP error: " + cause);
        warnedSend = true;
    }

    static NetworkInterface loopbackInterface() {
        try {
            NetworkInterface lo = NetworkInterface.getByInetAddress(Addresses.byBytes(new byte[] {127, 0, 0, 1}));
            if (lo != null) {
                return lo;
            }
            for (NetworkInterface ni : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isLoopback()) {
                    return ni;
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    static String fmt(InetAddress a, int port) {
        String h = a.getHostAddress();
        return (a instanceof Inet6Address ? "[" + h + "]" : h) + ":" + port;
    }

    /**
     * Decodes on the I/O thread, then hands the messages to the responder on the engine loop.
     * {@code arrival} null: the limited-broadcast socket, which keeps only datagrams whose original
     * destination is 255.255.255.255.
     */
    private final class Inbound extends SimpleChannelInboundHandler<DatagramPacket> {
        private final Arrival arrival;

        Inbound(Arrival arrival) {
            this.arrival = arrival;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            InetSocketAddress source = packet.sender();
            Arrival arrival = this.arrival;
            if (arrival == null) {
                InetSocketAddress to = packet.recipient();
                if (to == null || source == null || !LIMITED_BROADCAST.equals(to.getAddress())) {
                    return; // sent to an address another socket of ours listens on: answered there
                }
                arrival = new Arrival(Arrival.Kind.BROADCAST, LIMITED_BROADCAST, replyFromFor(source.getAddress()));
            }
            DatagramContents contents = PvaCodec.decodeDatagram(packet.content());
            Arrival at = arrival;
            inBurst = true;
            scheduler.run(() -> responder.onDatagram(contents, source, at));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            flushBurst();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            scheduler.run(() -> sendFailed(cause));
        }
    }

    /** Sockets that only send. */
    private final class Discard extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
            // released by SimpleChannelInboundHandler
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            scheduler.run(() -> sendFailed(cause));
        }
    }
}
