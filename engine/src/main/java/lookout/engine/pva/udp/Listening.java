package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.net.UdpReceiver;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Interest;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.seams.PvaPorts.LocalAddress;
import lookout.engine.seams.PvaPorts.Receiver;

/**
 * One listener's hold on a port ({@link PvaPorts#listen}): the shared sockets it holds, and the
 * sockets of its own — the forwarding senders (seed 002 §5) and the ephemeral sender of its
 * beacons.
 *
 * <p>Concurrency: opened and closed on the engine loop. A concurrent receiver's deliveries, send
 * outcomes and sends run on the reading loops: what they read here is final or volatile
 * ({@code closed}, the own sockets); others' outcomes hop onto the engine loop.
 */
final class Listening implements PvaPorts.Port, PortMember {

    private final Interest interest;
    private final PortGroup group;
    private final Receiver receiver;
    private final List<String> boundAs = new ArrayList<>();
    private volatile UdpEndpoint sender;
    /** The forwarding senders, one per reading loop (index: the loop's), so a forward leaves with its read's batch. */
    private volatile UdpEndpoint[] forwardV4 = new UdpEndpoint[0];
    private volatile UdpEndpoint[] forwardV6 = new UdpEndpoint[0];
    /** Where this listener's forwarded copies come from: to tell its own copy on the group. */
    private volatile List<InetSocketAddress> forwardSources = List.of();
    private volatile boolean closed;

    private Listening(PortGroup group, Interest interest, Receiver receiver) {
        this.group = group;
        this.interest = interest;
        this.receiver = receiver;
    }

    /**
     * Opens (or shares) on {@code group} what {@code interest} asks for; on a failure that cannot
     * be done without (the wildcard, a unicast address) lets go of all of it and throws.
     */
    static Listening open(PortGroup group, Interest interest, Receiver receiver) throws IOException {
        Listening l = new Listening(group, interest, receiver);
        try {
            if (interest.catchAll()) {
                l.hold(group.wildcard(interest.readers()), "0.0.0.0");
            }
            for (LocalAddress la : interest.addresses()) {
                l.hold(group.unicast(la.address(), interest.readers()), null);
            }
            if (interest.broadcasts()) {
                l.holdBroadcasts();
            }
            if (interest.limitedBroadcast() && group.factory().knowsDestinations()
                    && interest.addresses().stream().anyMatch(a -> a.address() instanceof Inet4Address)) {
                try {
                    l.hold(group.wildcard(interest.readers()), "255.255.255.255");
                } catch (IOException | RuntimeException e) {
                    UdpSetup.LOG.log(Level.WARNING, "PVA: cannot listen for searches to 255.255.255.255 on UDP port "
                            + group.port() + ": " + UdpSetup.why(e));
                }
            }
            if (interest.forwarding()) {
                l.openForwarding();
                group.forwardersChanged();
            }
            if (interest.sender()) {
                l.openSender();
            }
        } catch (IOException | RuntimeException e) {
            group.release(l);
            l.closeOwn();
            throw e;
        }
        group.join(l);
        return l;
    }

    /** Holds {@code s}, named {@code as} in {@link #bound()} (null: as bound). */
    private void hold(SharedSocket s, String as) {
        group.hold(this, s);
        boundAs.add(as == null ? s.label() : as + ":" + group.port());
    }

    private void holdBroadcasts() {
        Map<InetAddress, InetAddress> broadcasts = new LinkedHashMap<>();
        for (LocalAddress la : interest.addresses()) {
            if (la.broadcast() != null) {
                broadcasts.putIfAbsent(la.broadcast(), la.address());
            }
        }
        for (Map.Entry<InetAddress, InetAddress> b : broadcasts.entrySet()) {
            try {
                hold(group.broadcast(b.getKey(), b.getValue(), interest.readers()), null);
            } catch (IOException | RuntimeException e) {
                UdpSetup.LOG.log(Level.WARNING, "PVA: cannot listen on broadcast "
                        + HostPort.format(b.getKey(), group.port()) + ": " + UdpSetup.why(e));
            }
        }
    }

    @Override
    public Interest interest() {
        return interest;
    }

    /**
     * Whether a datagram that reached a socket as {@code kind} is this listener's ({@code holds}:
     * it holds that socket). A catch-all listener takes what a socket bound to the wildcard address
     * alone would have read, once: the unicasts the kernel gave a more specific socket of the port,
     * and everything of the wildcard socket — never the copies that broadcast and group sockets get
     * of what it also read.
     */
    @Override
    public boolean wants(boolean holds, Kind kind) {
        if (closed) {
            return false;
        }
        return switch (kind) {
            case OWN_UNICAST -> interest.catchAll() || holds;
            case BROADCAST, GROUP -> !interest.catchAll() && holds;
            case LIMITED_BROADCAST -> interest.catchAll() || interest.limitedBroadcast();
            case WILDCARD -> interest.catchAll();
            case SEARCH_SOCKET -> false;
        };
    }

    @Override
    public boolean concurrent() {
        return receiver.concurrent();
    }

    @Override
    public boolean accepts(DatagramContents contents) {
        return receiver.accepts(contents);
    }

    @Override
    public void deliver(DatagramContents contents, ByteBuf raw, InetSocketAddress source, Arrival arrival) {
        if (closed) {
            return;
        }
        try {
            receiver.datagram(contents, raw, source, arrival);
        } catch (RuntimeException e) {
            // no exception escapes the port: the other listeners still get the datagram
            UdpSetup.LOG.log(Level.WARNING, "PVA: a UDP listener failed on a datagram from " + source, e);
        }
    }

    @Override
    public void failed(InetSocketAddress to, NetError error) {
        if (!closed) {
            receiver.sendFailed(to, error);
        }
    }

    /** How a send to {@code to} went, told to the receiver: where it is known for a concurrent one, else on the engine loop. */
    @Override
    public UdpEndpoint.SendOutcome outcome(InetSocketAddress to) {
        if (receiver.concurrent()) {
            return error -> tell(to, error);
        }
        return error -> group.factory().scheduler().run(() -> tell(to, error));
    }

    private void tell(InetSocketAddress to, NetError error) {
        if (closed) {
            return;
        }
        try {
            if (error == null) {
                receiver.sent(to);
            } else {
                receiver.sendFailed(to, error);
            }
        } catch (RuntimeException e) {
            UdpSetup.LOG.log(Level.WARNING, "PVA: a UDP listener failed on a send outcome", e);
        }
    }

    // ------------------------------------------------------------------ own sockets

    /**
     * seed 002 §5: the forwarding groups, each joined on loopback, and a sender for each, TTL 1 out
     * of loopback: 224.0.0.128 via 127.0.0.1, ff02::42:1 via ::1. Each family is best effort.
     */
    private void openForwarding() {
        NetworkInterface lo = UdpSetup.loopbackInterface();
        if (lo == null) {
            UdpSetup.LOG.log(Level.WARNING, "PVA: no loopback interface, unicast forwarding off");
            return;
        }
        List<InetSocketAddress> sources = new ArrayList<>();
        try {
            hold(group.group(PvaPorts.FORWARD_GROUP_V4, lo, interest.readers()), null);
            forwardV4 = forwarders(UdpSetup.LOOPBACK_V4, lo, sources);
        } catch (IOException | RuntimeException e) {
            UdpSetup.LOG.log(Level.WARNING, "PVA: unicast forwarding over IPv4 unavailable: " + UdpSetup.why(e));
        }
        try {
            // the link-local group needs its scope: loopback
            InetAddress scoped = Inet6Address.getByAddress(null, PvaPorts.FORWARD_GROUP_V6.getAddress(), lo);
            hold(group.group(scoped, lo, interest.readers()), null);
            forwardV6 = forwarders(UdpSetup.LOOPBACK_V6, lo, sources);
        } catch (IOException | RuntimeException e) {
            // inside a namespace with only lo, the kernel has no IPv6 multicast route: expected
            UdpSetup.LOG.log(Level.DEBUG, "PVA: unicast forwarding over IPv6 unavailable: " + UdpSetup.why(e));
        }
        forwardSources = List.copyOf(sources);
    }

    /**
     * One forwarding sender per reading loop, each on its loop: a search read there is forwarded
     * from there, so its copy leaves in that read's batch ({@code sendmmsg}) rather than through
     * another loop's queue, a wake-up and a send of its own each.
     */
    private UdpEndpoint[] forwarders(InetAddress local, NetworkInterface lo, List<InetSocketAddress> sources)
            throws IOException {
        UdpEndpoint[] out = new UdpEndpoint[Math.max(1, interest.readers())];
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = ownSocket(local, forwarding(lo), i);
            }
        } catch (IOException | RuntimeException e) {
            for (UdpEndpoint x : out) {
                if (x != null) {
                    x.close();
                }
            }
            throw e;
        }
        for (UdpEndpoint x : out) {
            sources.add(x.localAddress());
        }
        return out;
    }

    private static UdpOptions forwarding(NetworkInterface lo) {
        return UdpOptions.DEFAULTS.withMulticastSend(lo, 1, true).withQueueLimit(UdpSetup.QUEUE_LIMIT);
    }

    /**
     * The beacon sender: like PVXS's, one socket on an ephemeral port of the wildcard IPv6 address
     * (IPv4 destinations go out through their mapped form), IPv4 where there is no IPv6.
     */
    private void openSender() throws IOException {
        UdpOptions o = UdpOptions.DEFAULTS.withBroadcast(true).withQueueLimit(UdpSetup.QUEUE_LIMIT);
        try {
            sender = ownSocket(UdpSetup.ANY_V6, o, 0);
        } catch (IOException | RuntimeException e) {
            UdpSetup.LOG.log(Level.DEBUG, "PVA: no IPv6 beacon sender, IPv4 only: " + UdpSetup.why(e));
            sender = ownSocket(UdpSetup.ANY_V4, o, 0);
        }
    }

    /**
     * A socket of this listener alone on an ephemeral port, on its reading loop {@code loop}: it
     * only sends; what it reads is dropped.
     */
    private UdpEndpoint ownSocket(InetAddress local, UdpOptions o, int loop) throws IOException {
        SocketFactory f = group.factory();
        return f.open(f.loop(interest.readers(), loop), new InetSocketAddress(local, 0), o, new UdpReceiver() {
            @Override
            public void datagram(UdpEndpoint e, byte[] data, int length, InetSocketAddress from, InetAddress to,
                                 boolean truncated) {
                // nobody searches a sender
            }

            @Override
            public void sendFailed(UdpEndpoint e, NetError error, InetSocketAddress to) {
                group.factory().scheduler().run(() -> failed(to, error));
            }
        });
    }

    private void closeOwn() {
        List<UdpEndpoint> own = new ArrayList<>(List.of(forwardV4));
        own.addAll(List.of(forwardV6));
        if (sender != null) {
            own.add(sender);
        }
        for (UdpEndpoint e : own) {
            e.close();
        }
        forwardSources = List.of();
        sender = null;
        forwardV4 = new UdpEndpoint[0];
        forwardV6 = new UdpEndpoint[0];
    }

    // ------------------------------------------------------------------ Port

    @Override
    public int port() {
        return group.port();
    }

    @Override
    public List<String> bound() {
        return List.copyOf(boundAs);
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to) {
        UdpEndpoint via = sender;
        if (closed || via == null) {
            data.release();
            return false;
        }
        return group.send(this, via, data, unmapped(to));
    }

    @Override
    public boolean reply(ByteBuf data, InetSocketAddress to, InetAddress from) {
        InetSocketAddress dest = unmapped(to);
        UdpEndpoint via = closed ? null : group.replySocket(dest, from);
        if (via == null) {
            via = sender;
        }
        if (closed || via == null) {
            data.release();
            return false;
        }
        return group.send(this, via, data, dest);
    }

    @Override
    public boolean forwarding() {
        return forwardV4.length > 0 || forwardV6.length > 0;
    }

    @Override
    public boolean forward(ByteBuf datagram, InetAddress origin) {
        UdpEndpoint f4 = onThisLoop(forwardV4);
        UdpEndpoint f6 = onThisLoop(forwardV6);
        boolean v4 = UdpSetup.isV4(origin);
        UdpEndpoint via = v4 ? f4 : f6;
        if (via == null) {
            via = f4 != null ? f4 : f6;
            v4 = via == f4;
        }
        if (closed || via == null) {
            datagram.release();
            return false;
        }
        InetAddress g = v4 ? PvaPorts.FORWARD_GROUP_V4 : PvaPorts.FORWARD_GROUP_V6;
        return group.send(this, via, datagram, new InetSocketAddress(g, group.port()));
    }

    /** The sender read on the calling thread's loop, else the first; null when there is none. */
    private static UdpEndpoint onThisLoop(UdpEndpoint[] senders) {
        for (UdpEndpoint e : senders) {
            if (e.onReaderThread()) {
                return e;
            }
        }
        return senders.length == 0 ? null : senders[0];
    }

    @Override
    public List<InetSocketAddress> forwardSources() {
        return forwardSources;
    }

    @Override
    public void ownCopy(InetSocketAddress source) {
        if (closed) {
            return;
        }
        try {
            receiver.ownCopy(source);
        } catch (RuntimeException e) {
            UdpSetup.LOG.log(Level.WARNING, "PVA: a UDP listener failed on its own forwarded copy", e);
        }
    }

    @Override
    public String ownCopies() {
        return group.ownCopies();
    }

    @Override
    public long ownCopiesFiltered() {
        return group.groupKernelDrops();
    }

    @Override
    public boolean othersListening() {
        return group.others() != 0;
    }

    @Override
    public String sharing() {
        int n = group.others();
        return n < 0 ? "unknown" : n == 0 ? "alone" : "shared";
    }

    @Override
    public boolean ownForwarder(InetSocketAddress source) {
        if (source == null) {
            return false;
        }
        InetAddress a = WireAddress.unmap(source.getAddress());
        for (InetSocketAddress f : forwardSources) {
            if (f.getPort() == source.getPort() && WireAddress.unmap(f.getAddress()).equals(a)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int readers() {
        return interest.readers();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        group.release(this);
        closeOwn();
    }

    /** An IPv4-mapped destination in its IPv4 form: an IPv4 socket cannot send to the mapped one. */
    private static InetSocketAddress unmapped(InetSocketAddress to) {
        InetAddress a = WireAddress.unmap(to.getAddress());
        return a == to.getAddress() ? to : new InetSocketAddress(a, to.getPort());
    }
}
