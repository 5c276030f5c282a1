package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Interest;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.seams.PvaPorts.LocalAddress;

/**
 * The sockets of one UDP port and the members holding them. A socket is opened when a member
 * first asks for it and closed when the last one lets go. Each datagram goes to every member whose
 * interest covers the socket it reached ({@link Member#wants}), so that a member sees a datagram
 * once although the kernel gives a broadcast to every socket it matches and a unicast to the most
 * specific one only.
 *
 * <p>Answers made on the reader loop while one of the port's sockets is being read leave together
 * at the end of that read (as the server's own listener did before the port owner): those from
 * the socket being read with its own batch, the others (a broadcast's answer leaves from the
 * interface's unicast socket; a forwarded copy from the forwarding sender) gathered here and
 * written in one batch per socket.
 *
 * <p>Concurrency: {@code sockets}, {@code holders} and {@code members} are confined to the engine
 * loop; {@code reading} and {@code held} to the reader loop.
 */
final class PortGroup implements SharedSocket.Reader {

    /** One hold on the port: a listener. */
    interface Member {
        Interest interest();

        /** Whether a datagram that reached {@code s} as {@code kind} is this member's. */
        boolean wants(SharedSocket s, Kind kind);

        /** One datagram for this member. */
        void deliver(DatagramContents contents, InetSocketAddress source, Arrival arrival);

        /** A send or socket error for this member ({@code to} null: the socket's own). */
        void failed(InetSocketAddress to, NetError error);

        /** How a send of this member to {@code to} went. */
        UdpEndpoint.SendOutcome outcome(InetSocketAddress to);
    }

    private record Key(Kind kind, InetAddress address) {
    }

    /** A send made during a read, written at its end. */
    private record Held(Member from, UdpEndpoint via, ByteBuf data, InetSocketAddress to) {
    }

    private final SocketFactory factory;
    private final Runnable onEmpty;
    private int port;
    private final Map<Key, SharedSocket> sockets = new LinkedHashMap<>();
    private final Map<SharedSocket, Set<Member>> holders = new HashMap<>();
    /** Copy on write: deliveries walk it while a member may let go. */
    private Member[] members = new Member[0];
    // reader loop only
    private SharedSocket reading;
    private final List<Held> held = new ArrayList<>();

    /** @param port 0: an ephemeral port, chosen by the first socket bound; {@code onEmpty} when nothing is held */
    PortGroup(SocketFactory factory, int port, Runnable onEmpty) {
        this.factory = factory;
        this.port = port;
        this.onEmpty = onEmpty;
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

    // ------------------------------------------------------------------ sockets and holds

    /** The port's wildcard IPv4 socket, learning destinations where it can (the limited broadcast). */
    SharedSocket wildcard() throws IOException {
        UdpOptions o = UdpSetup.listening(UdpSetup.CLIENT_PER_READ).withDestination(factory.knowsDestinations());
        return open(Kind.WILDCARD, UdpSetup.ANY_V4, null, o);
    }

    /** The socket of a local unicast address. */
    SharedSocket unicast(InetAddress address) throws IOException {
        return open(Kind.OWN_UNICAST, address, address, UdpSetup.listening(UdpSetup.SERVER_PER_READ));
    }

    /** The socket of a broadcast address; replies to it leave from {@code iface}, its interface's address (§4). */
    SharedSocket broadcast(InetAddress address, InetAddress iface) throws IOException {
        return open(Kind.BROADCAST, address, iface, UdpSetup.listening(UdpSetup.SERVER_PER_READ));
    }

    /** A forwarding group's socket, joined on {@code lo} (seed 002 §5). */
    SharedSocket group(InetAddress group, NetworkInterface lo) throws IOException {
        UdpOptions o = UdpOptions.DEFAULTS.withReuseAddress(true).withReceiveBuffer(UdpSetup.RECEIVE_BUFFER)
                .withMaxPerRead(UdpSetup.SERVER_PER_READ).withQueueLimit(UdpSetup.QUEUE_LIMIT).withGroup(group, lo);
        return open(Kind.GROUP, group, null, o);
    }

    private SharedSocket open(Kind kind, InetAddress address, InetAddress replyFrom, UdpOptions options)
            throws IOException {
        Key key = new Key(kind, address);
        SharedSocket s = sockets.get(key);
        if (s != null) {
            return s;
        }
        s = new SharedSocket(kind, address, replyFrom, this, factory.scheduler());
        UdpEndpoint e = factory.open(new InetSocketAddress(address, port), options, s);
        s.opened(e);
        if (port == 0) {
            // an ephemeral port: chosen by the first socket, shared by the others
            port = e.localAddress().getPort();
        }
        sockets.put(key, s);
        holders.put(s, new LinkedHashSet<>());
        return s;
    }

    /** {@code m} holds {@code s} (until {@link #release}). */
    void hold(Member m, SharedSocket s) {
        holders.get(s).add(m);
    }

    boolean holds(Member m, SharedSocket s) {
        Set<Member> h = holders.get(s);
        return h != null && h.contains(m);
    }

    /** {@code m} receives the port's datagrams from now on. */
    void join(Member m) {
        Member[] next = Arrays.copyOf(members, members.length + 1);
        next[members.length] = m;
        members = next;
    }

    /** {@code m} lets go of everything it holds; what nobody else holds is closed. */
    void release(Member m) {
        for (Iterator<Map.Entry<SharedSocket, Set<Member>>> it = holders.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<SharedSocket, Set<Member>> e = it.next();
            if (e.getValue().remove(m) && e.getValue().isEmpty()) {
                it.remove();
                sockets.values().remove(e.getKey());
                e.getKey().close();
            }
        }
        List<Member> rest = new ArrayList<>(Arrays.asList(members));
        if (rest.remove(m)) {
            members = rest.toArray(new Member[0]);
        }
        if (isEmpty()) {
            onEmpty.run();
        }
    }

    /** Closes every socket (the owner stops). */
    void closeAll() {
        members = new Member[0];
        for (SharedSocket s : sockets.values()) {
            s.close();
        }
        sockets.clear();
        holders.clear();
    }

    // ------------------------------------------------------------------ deliveries (engine loop)

    @Override
    public void deliver(SharedSocket s, DatagramContents contents, InetSocketAddress source, InetAddress destination) {
        if (!holders.containsKey(s) || source == null) {
            return; // closed meanwhile
        }
        Arrival a = s.arrival != null ? s.arrival : wildcardArrival(s, source, destination);
        for (Member m : members) {
            if (m.wants(s, a.kind())) {
                m.deliver(contents, source, a);
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
        for (Member m : members) {
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
        Set<Member> h = holders.get(s);
        if (h != null) {
            for (Member m : List.copyOf(h)) {
                m.failed(to, error);
            }
        }
    }

    // ------------------------------------------------------------------ sending

    /** The socket bound to {@code from}, else the first unicast socket of {@code to}'s family; null when none. */
    UdpEndpoint replySocket(InetSocketAddress to, InetAddress from) {
        SharedSocket s = from == null ? null : sockets.get(new Key(Kind.OWN_UNICAST, WireAddress.unmap(from)));
        if (s == null) {
            s = firstUnicast(UdpSetup.isV4(to.getAddress()));
        }
        return s == null ? null : s.endpoint();
    }

    private SharedSocket firstUnicast(boolean v4) {
        for (SharedSocket s : sockets.values()) {
            if (s.kind == Kind.OWN_UNICAST && (s.bound instanceof Inet4Address) == v4) {
                return s;
            }
        }
        return null;
    }

    /**
     * Sends through {@code via} for {@code from}: at once, or, on the reader loop while one of the
     * port's sockets is being read, at the end of that read (true: taken).
     */
    boolean send(Member from, UdpEndpoint via, ByteBuf data, InetSocketAddress to) {
        if (reading != null && factory.onReaderLoop()) {
            held.add(new Held(from, via, data, to));
            return true;
        }
        return via.send(data, to, null, from.outcome(to));
    }

    @Override
    public void reading(SharedSocket s) {
        reading = s;
    }

    @Override
    public void burstEnd(SharedSocket s) {
        reading = null;
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
