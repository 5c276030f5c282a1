package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.seams.PvaPorts.LocalAddress;

/**
 * The sockets of one UDP port and the members holding them. A socket is opened when a member
 * first asks for it and closed when the last one lets go. Each datagram goes to every member whose
 * interest covers the socket it reached ({@link PortMember#wants}), so that a member sees a
 * datagram once although the kernel gives a broadcast to every socket it matches and a unicast to
 * the most specific one only: on the loop that read it for a concurrent member (the server's
 * responder), else on the engine loop.
 *
 * <p>Answers made on a reading loop while one of the port's sockets is being read leave together
 * at the end of that read: those from the socket being read with its own batch, the others (a
 * broadcast's answer leaves from the interface's unicast socket; a forwarded copy from the
 * forwarding sender) gathered per thread and written in one batch per socket.
 *
 * <p>Concurrency: {@code sockets} is confined to the engine loop; {@code unicast}, {@code members}
 * and {@code others} are volatile snapshots written there and read by the reading loops; each
 * reading thread's {@link ReadContext} is its own.
 */
final class PortGroup implements SharedSocket.Reader {

    private record Key(Kind kind, InetAddress address) {
    }

    /** A send made during a read, written at its end. */
    private record Held(PortMember from, UdpEndpoint via, ByteBuf data, InetSocketAddress to) {
    }

    /** What one thread is reading now, and the sends to make when that read ends. */
    private static final class ReadContext {
        UdpEndpoint reading;
        final List<Held> held = new ArrayList<>();
    }

    private static final ThreadLocal<ReadContext> CONTEXT = ThreadLocal.withInitial(ReadContext::new);

    private final SocketFactory factory;
    private final Runnable onEmpty;
    private final Runnable onBindChange;
    private int port;
    private final Map<Key, SharedSocket> sockets = new LinkedHashMap<>();
    /** The unicast sockets by address, for replies made on any loop. */
    private volatile Map<InetAddress, SharedSocket> unicast = Map.of();
    /** Copy on write: deliveries walk it while a member may let go. */
    private volatile PortMember[] members = new PortMember[0];
    /** Sockets other processes have on the port (-1: not known). */
    private volatile int others = -1;

    /**
     * @param port         0: an ephemeral port, chosen by the first socket bound
     * @param onEmpty      when nothing is held
     * @param onBindChange when a socket of the port is opened or closed (who else listens is checked again)
     */
    PortGroup(SocketFactory factory, int port, Runnable onEmpty, Runnable onBindChange) {
        this.factory = factory;
        this.port = port;
        this.onEmpty = onEmpty;
        this.onBindChange = onBindChange;
    }

    int port() {
        return port;
    }

    SocketFactory factory() {
        return factory;
    }

    boolean isEmpty() {
        return sockets.isEmpty() && members.length == 0;
    }

    /** Sockets other processes have on the port: -1 when not known. */
    int others() {
        return others;
    }

    void others(int n) {
        others = n;
    }

    // ------------------------------------------------------------------ sockets and holds

    /** The port's wildcard IPv4 socket, learning destinations where it can (the limited broadcast). */
    SharedSocket wildcard(int readers) throws IOException {
        UdpOptions o = UdpSetup.listening(UdpSetup.CLIENT_PER_READ).withDestination(factory.knowsDestinations());
        return open(Kind.WILDCARD, UdpSetup.ANY_V4, null, o, readers, 1);
    }

    /**
     * The sockets of a local unicast address: {@code max(1, readers)} of them sharing it
     * ({@code SO_REUSEPORT}: the kernel spreads senders among them), each read by a loop of its own.
     */
    SharedSocket unicast(InetAddress address, int readers) throws IOException {
        int n = Math.max(1, readers);
        UdpOptions o = UdpSetup.listening(UdpSetup.SERVER_PER_READ).withReusePort(n > 1);
        return open(Kind.OWN_UNICAST, address, address, o, readers, n);
    }

    /** The socket of a broadcast address; replies to it leave from {@code iface}, its interface's address (§4). */
    SharedSocket broadcast(InetAddress address, InetAddress iface, int readers) throws IOException {
        // one socket whatever the readers: the kernel gives a broadcast to every socket bound to it
        return open(Kind.BROADCAST, address, iface, UdpSetup.listening(UdpSetup.SERVER_PER_READ), readers, 1);
    }

    /** A forwarding group's socket, joined on {@code lo} (seed 002 §5); one, like a broadcast's. */
    SharedSocket group(InetAddress group, NetworkInterface lo, int readers) throws IOException {
        UdpOptions o = UdpOptions.DEFAULTS.withReuseAddress(true).withReceiveBuffer(UdpSetup.RECEIVE_BUFFER)
                .withMaxPerRead(UdpSetup.SERVER_PER_READ).withQueueLimit(UdpSetup.QUEUE_LIMIT).withGroup(group, lo);
        return open(Kind.GROUP, group, null, o, readers, 1);
    }

    private SharedSocket open(Kind kind, InetAddress address, InetAddress replyFrom, UdpOptions options, int readers,
                              int count) throws IOException {
        Key key = new Key(kind, address);
        SharedSocket s = sockets.get(key);
        if (s != null) {
            return s;
        }
        s = new SharedSocket(kind, address, replyFrom, readers > 0, this);
        try {
            for (int i = 0; i < count; i++) {
                EventLoop loop = factory.loop(readers, i);
                InetSocketAddress local = new InetSocketAddress(address, port);
                UdpEndpoint e = kind == Kind.OWN_UNICAST && readers > 0 ? factory.openUnicast(loop, local, options, s)
                        : factory.open(loop, local, options, s);
                s.opened(e);
                if (port == 0) {
                    // an ephemeral port: chosen by the first socket, shared by the others
                    port = e.localAddress().getPort();
                }
            }
        } catch (IOException | RuntimeException e) {
            if (s.readers() > 0) {
                s.close();
            }
            throw e;
        }
        sockets.put(key, s);
        if (kind == Kind.OWN_UNICAST) {
            s.steering(ReadSteering.start(s.endpoints(), factory.scheduler(), s.label()));
            publishUnicast();
        }
        onBindChange.run();
        return s;
    }

    /** How each socket of {@code kind} is read ({@link UdpEndpoint#readBy}), for tests and diagnostics; engine loop. */
    List<String> readBy(Kind kind) {
        List<String> out = new ArrayList<>();
        for (SharedSocket s : sockets.values()) {
            if (s.kind == kind) {
                for (UdpEndpoint e : s.endpoints()) {
                    out.add(e.readBy());
                }
            }
        }
        return out;
    }

    private void publishUnicast() {
        Map<InetAddress, SharedSocket> m = new HashMap<>();
        for (SharedSocket s : sockets.values()) {
            if (s.kind == Kind.OWN_UNICAST) {
                m.put(s.bound, s);
            }
        }
        unicast = Map.copyOf(m);
    }

    /** {@code m} holds {@code s} (until {@link #release}). */
    void hold(PortMember m, SharedSocket s) {
        s.hold(m);
    }

    /** {@code m} receives the port's datagrams from now on. */
    void join(PortMember m) {
        PortMember[] next = Arrays.copyOf(members, members.length + 1);
        next[members.length] = m;
        members = next;
    }

    /** {@code m} lets go of everything it holds; what nobody else holds is closed. */
    void release(PortMember m) {
        boolean changed = false;
        for (Iterator<SharedSocket> it = sockets.values().iterator(); it.hasNext(); ) {
            SharedSocket s = it.next();
            if (s.heldBy(m) && s.release(m)) {
                it.remove();
                s.close();
                changed = true;
            }
        }
        List<PortMember> rest = new ArrayList<>(Arrays.asList(members));
        if (rest.remove(m)) {
            members = rest.toArray(new PortMember[0]);
        }
        if (changed) {
            publishUnicast();
            onBindChange.run();
        }
        forwardersChanged(); // a group socket another listener still holds: its filter follows
        if (isEmpty()) {
            onEmpty.run();
        }
    }

    /** Closes every socket (the owner stops). */
    void closeAll() {
        members = new PortMember[0];
        for (SharedSocket s : sockets.values()) {
            s.close();
        }
        sockets.clear();
        unicast = Map.of();
    }

    // ------------------------------------------------------------------ own forwarded copies

    /**
     * seed 002 §5: every search this port's listeners forward comes back to their own group socket
     * (multicast loop, which the other servers on the host need). Each group socket gets a kernel
     * filter dropping datagrams from its holder's forwarding senders, so those copies never reach
     * the process; where it cannot have one they are dropped here before decoding
     * ({@link #ownCopy}). Called on the engine loop whenever the forwarding senders or the group
     * sockets' holders change.
     */
    void forwardersChanged() {
        for (SharedSocket s : sockets.values()) {
            if (s.kind == Kind.GROUP) {
                filter(s);
            }
        }
    }

    private void filter(SharedSocket s) {
        PortMember[] h = s.holders();
        List<InetSocketAddress> sources = new ArrayList<>();
        for (PortMember m : h) {
            for (InetSocketAddress a : m.forwardSources()) {
                if ((a.getAddress() instanceof Inet4Address) == (s.bound instanceof Inet4Address)) {
                    sources.add(a);
                }
            }
        }
        String why = null;
        if (sources.isEmpty()) {
            why = "";
        } else if (!(s.bound instanceof Inet4Address)) {
            why = "the kernel filter is for IPv4 only";
        } else if (h.length > 1) {
            // one listener's copies may be another's searches: each tells its own (ownCopy)
            why = "the group socket is held by " + h.length + " listeners";
        } else if (!factory.filtersOwnCopies()) {
            why = "the kernel filter is turned off";
        }
        if (why == null) {
            for (UdpEndpoint e : s.endpoints()) {
                String r = e.dropFrom(sources);
                if (r != null) {
                    why = r;
                    break;
                }
            }
        }
        if (why != null) {
            for (UdpEndpoint e : s.endpoints()) {
                e.dropFrom(List.of()); // all or nothing, and none left behind by an earlier holder
            }
        }
        String state = why == null ? FILTERED : why.isEmpty() ? NOT_FORWARDING : "dropped before decoding: " + why;
        if (!state.equals(s.ownCopies) && !sources.isEmpty()) {
            boolean notice = why != null && s.bound instanceof Inet4Address;
            UdpSetup.LOG.log(notice ? System.Logger.Level.INFO : System.Logger.Level.DEBUG, why == null
                    ? "PVA: own forwarded copies from " + sources + " on " + s.label() + " are filtered in the kernel"
                    : "PVA: own forwarded copies on " + s.label() + " are not filtered in the kernel (" + why
                            + "): each is read and dropped before decoding");
        }
        s.ownCopies = state;
    }

    static final String FILTERED = "filtered in the kernel";
    static final String NOT_FORWARDING = "not forwarding";

    /**
     * How own copies are kept out on this port's group sockets: the IPv4 group's state when it is
     * forwarding (where nearly every copy goes), else the IPv6 group's, else {@code not forwarding}.
     */
    String ownCopies() {
        String v6 = null;
        for (SharedSocket s : sockets.values()) {
            if (s.kind == Kind.GROUP && !NOT_FORWARDING.equals(s.ownCopies)) {
                if (s.bound instanceof Inet4Address) {
                    return s.ownCopies;
                }
                v6 = s.ownCopies;
            }
        }
        return v6 == null ? NOT_FORWARDING : v6;
    }

    /** Datagrams the kernel dropped on the group sockets (the filter's own copies, and any overflow); -1: not known. */
    long groupKernelDrops() {
        long sum = -1;
        for (SharedSocket s : sockets.values()) {
            if (s.kind == Kind.GROUP) {
                for (UdpEndpoint e : s.endpoints()) {
                    long d = e.receiveDrops();
                    if (d >= 0) {
                        sum = Math.max(sum, 0) + d;
                    }
                }
            }
        }
        return sum;
    }

    @Override
    public boolean ownCopy(SharedSocket s, InetSocketAddress source) {
        if (s.isClosed()) {
            return false;
        }
        PortMember owner = null;
        for (PortMember m : members) {
            if (!m.wants(s.heldBy(m), s.kind)) {
                continue;
            }
            if (!m.ownForwarder(source)) {
                return false; // another member's search: decoded for it (the owner drops it by the rules)
            }
            owner = m;
        }
        if (owner == null) {
            return false;
        }
        for (PortMember m : members) {
            if (m.wants(s.heldBy(m), s.kind)) {
                if (m.concurrent()) {
                    m.ownCopy(source);
                } else {
                    factory.scheduler().run(() -> m.ownCopy(source));
                }
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ deliveries (reading loops)

    @Override
    public void received(SharedSocket s, UdpEndpoint e, DatagramContents contents, ByteBuf raw,
                         InetSocketAddress source, InetAddress destination) {
        CONTEXT.get().reading = e;
        if (s.isClosed() || source == null) {
            return; // closed meanwhile
        }
        Arrival a = s.arrival != null ? s.arrival : wildcardArrival(s, source, destination);
        for (PortMember m : members) {
            if (!m.wants(s.heldBy(m), a.kind())) {
                continue;
            }
            if (m.concurrent()) {
                m.deliver(contents, raw, source, a);
            } else if (!s.responders || m.accepts(contents)) {
                // read by the engine loop's own I/O loop: there (inline where that is the engine
                // loop); read by a responder: only what the member wants of it is worth the hop
                factory.scheduler().run(() -> {
                    if (!s.isClosed()) {
                        m.deliver(contents, null, source, a); // the bytes are the reader's again by then
                    }
                });
            }
        }
    }

    /**
     * The arrival of a datagram on the wildcard socket: a search to 255.255.255.255 is answered from
     * the local address on the sender's subnet, else from the first IPv4 address listened on.
     */
    private Arrival wildcardArrival(SharedSocket s, InetSocketAddress source, InetAddress destination) {
        if (destination != null && PvaPorts.LIMITED_BROADCAST.equals(destination)) {
            return new Arrival(Kind.LIMITED_BROADCAST, PvaPorts.LIMITED_BROADCAST, replyFromFor(source.getAddress()));
        }
        return new Arrival(Kind.WILDCARD, destination != null ? destination : s.bound, null);
    }

    private InetAddress replyFromFor(InetAddress client) {
        InetAddress c = WireAddress.unmap(client);
        for (PortMember m : members) {
            for (LocalAddress la : m.interest().addresses()) {
                if (la.sameSubnet(c)) {
                    return la.address();
                }
            }
        }
        SharedSocket first = firstUnicast(true);
        return first == null ? null : first.bound;
    }

    @Override
    public void failed(SharedSocket s, NetError error, InetSocketAddress to) {
        factory.scheduler().run(() -> {
            for (PortMember m : s.holders()) {
                m.failed(to, error);
            }
        });
    }

    // ------------------------------------------------------------------ sending (any loop)

    /**
     * The socket a reply to {@code to} leaves from: bound to {@code from} (seed 002 §4) — the one
     * being read on this thread when it is one of that address's —, else the first unicast socket
     * of {@code to}'s family; null when none.
     */
    UdpEndpoint replySocket(InetSocketAddress to, InetAddress from) {
        SharedSocket s = from == null ? null : unicast.get(WireAddress.unmap(from));
        if (s == null) {
            s = firstUnicast(UdpSetup.isV4(to.getAddress()));
        }
        if (s == null) {
            return null;
        }
        UdpEndpoint reading = CONTEXT.get().reading;
        return reading != null && s.owns(reading) ? reading : s.endpoint();
    }

    private SharedSocket firstUnicast(boolean v4) {
        for (SharedSocket s : unicast.values()) {
            if ((s.bound instanceof Inet4Address) == v4) {
                return s;
            }
        }
        return null;
    }

    /**
     * Sends through {@code via} for {@code from}: at once, or, on a thread reading one of the
     * port's sockets, with that read's others (true: taken).
     */
    boolean send(PortMember from, UdpEndpoint via, ByteBuf data, InetSocketAddress to) {
        ReadContext ctx = CONTEXT.get();
        if (ctx.reading != null && ctx.reading != via) {
            ctx.held.add(new Held(from, via, data, to));
            return true;
        }
        // the socket being read: Netty writes it with the read's other answers (one sendmmsg)
        return via.send(data, to, null, from.outcome(to));
    }

    @Override
    public void burstEnd(SharedSocket s, UdpEndpoint e) {
        ReadContext ctx = CONTEXT.get();
        ctx.reading = null;
        List<Held> held = ctx.held;
        while (!held.isEmpty()) {
            UdpEndpoint via = held.get(0).via();
            via.sendTogether(() -> {
                for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
                    Held h = it.next();
                    if (h.via() == via) {
                        it.remove();
                        via.send(h.data(), h.to(), null, h.from().outcome(h.to()));
                    }
                }
            });
        }
    }
}
