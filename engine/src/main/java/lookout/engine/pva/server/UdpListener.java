package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import lookout.engine.api.Scheduler;
import lookout.engine.api.FailureFold;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.LocalAddress;

/**
 * The server's UDP side (seed 002 §4, §5): its hold on {@code pva.broadcast_port} through the
 * engine's port owner — a socket per local address and per interface broadcast address, the
 * forwarding groups joined on loopback, the searches to 255.255.255.255 beyond loopback — whose
 * datagrams go to the {@link SearchResponder}; and the sends: replies from the address searched,
 * forwarded copies to the group, beacons from an ephemeral socket.
 *
 * <p>Send failures are logged by state, per destination ({@link FailureFold}): WARNING the first
 * time with the cause, DEBUG while they go on, a summary at most once a minute, INFO when a later
 * send to that destination leaves. Search replies are followed for at most {@link #MAX_FAILING}
 * client addresses (clients are many and a reply address may be anything); beyond that they are
 * logged at DEBUG only.
 *
 * <p>Concurrency: a concurrent receiver ({@link #concurrent()}): the port owner delivers on its
 * responder loops, several at once, and tells send outcomes there; the failure fold is under this
 * object's monitor, taken only while something is failing. Opened and closed on the engine loop.
 */
final class UdpListener implements SearchResponder.Transmit, PvaPorts.Receiver {

    /** Failing client addresses followed at once; more are only logged at DEBUG. */
    static final int MAX_FAILING = 1024;
    /** The key of errors of the sockets themselves, not tied to one send. */
    private static final Object SOCKETS = new Object();

    private final Scheduler scheduler;
    private final SearchResponder responder;
    private final FailureFold.Sink log;
    private final FailureFold<Object> failures;
    private volatile Set<InetSocketAddress> beaconDestinations = Set.of();
    private volatile PvaPorts.Port port;
    /** Something is failing: a success must be told to the fold (else it costs nothing). */
    private volatile boolean anyFailing;

    UdpListener(Scheduler scheduler, SearchResponder responder, FailureFold.Sink log) {
        this.scheduler = scheduler;
        this.responder = responder;
        this.log = log;
        this.failures = new FailureFold<>(log, FailureFold.MINUTE, this::label);
    }

    /**
     * Listens on {@code wantedPort} (0: an ephemeral port) on each of {@code locals} and its
     * broadcast address, with the forwarding groups when {@code forwarding}, and the limited
     * broadcast when {@code limitedBroadcast}. Returns the port bound.
     */
    int open(PvaPorts ports, List<LocalAddress> locals, int wantedPort, boolean forwarding, boolean limitedBroadcast,
             int readers) throws IOException {
        port = ports.listen(wantedPort, new PvaPorts.Interest(false, locals, true, forwarding, limitedBroadcast, true,
                readers), this);
        return port.port();
    }

    /** Sockets on each address, each read by a responder loop of its own. */
    int readers() {
        return port.readers();
    }

    /** {@code alone}, {@code shared} or {@code unknown}: whether another process listens on the port. */
    String sharing() {
        return port.sharing();
    }

    int port() {
        return port.port();
    }

    @Override
    public boolean forwarding() {
        return port.forwarding();
    }

    @Override
    public boolean othersListening() {
        return port.othersListening();
    }

    @Override
    public boolean ownForwarder(InetSocketAddress source) {
        return port.ownForwarder(source);
    }

    List<String> bound() {
        return port.bound();
    }

    /** Where beacons go now: their send failures are logged as such. */
    void beaconDestinations(List<InetSocketAddress> destinations) {
        this.beaconDestinations = Set.copyOf(destinations);
    }

    void close() {
        if (port != null) {
            port.close();
        }
    }

    // ------------------------------------------------------------------ receiving

    @Override
    public boolean concurrent() {
        return true;
    }

    @Override
    public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
        responder.onDatagram(contents, source, arrival);
    }

    @Override
    public void datagram(DatagramContents contents, ByteBuf raw, InetSocketAddress source, Arrival arrival) {
        responder.onDatagram(contents, raw, source, arrival);
    }

    @Override
    public void ownCopy(InetSocketAddress source) {
        responder.onOwnCopy(source);
    }

    /** How own forwarded copies are kept out ({@code filtered in the kernel}, or dropped before decoding and why). */
    String ownCopies() {
        PvaPorts.Port p = port;
        return p == null ? "not forwarding" : p.ownCopies();
    }

    /** Datagrams the kernel dropped on the group sockets: the own copies filtered, and any overflow (-1: not known). */
    long ownCopiesFiltered() {
        PvaPorts.Port p = port;
        return p == null ? -1 : p.ownCopiesFiltered();
    }

    // ------------------------------------------------------------------ sending

    @Override
    public ByteBufAllocator alloc() {
        return ByteBufAllocator.DEFAULT;
    }

    @Override
    public boolean reply(ByteBuf message, InetSocketAddress to, InetAddress from) {
        return port.reply(message, to, from);
    }

    @Override
    public boolean forward(ByteBuf datagram, InetAddress origin) {
        return port.forward(datagram, origin);
    }

    /** A beacon, from the ephemeral sender. */
    boolean beacon(ByteBuf message, InetSocketAddress to) {
        return port.send(message, to);
    }

    @Override
    public void sent(InetSocketAddress to) {
        if (!anyFailing) {
            return; // the common case, on every reply: nothing to recover from
        }
        long now = scheduler.nanoTime();
        Object key = key(to);
        synchronized (this) {
            if (key != null) {
                failures.succeeded(key, now);
            }
            if (failures.isFailing(SOCKETS)) {
                failures.succeeded(SOCKETS, now);
            }
            anyFailing = failures.failingCount() > 0;
        }
    }

    @Override
    public void sendFailed(InetSocketAddress to, NetError error) {
        Object key = to == null ? SOCKETS : key(to);
        // replies are followed for a bounded number of clients; beacons, forwarding and the
        // sockets (a few configured destinations) always
        boolean reply = key instanceof InetAddress;
        synchronized (this) {
            if (key == null || (reply && !failures.isFailing(key) && failures.failingCount() >= MAX_FAILING)) {
                log.line(Level.DEBUG, "PVA server: a UDP send to " + HostPort.format(to) + " failed: " + error.message());
                return;
            }
            failures.failed(key, "send error", error.message(), scheduler.nanoTime());
            anyFailing = true;
        }
    }

    /** Beacons and forwarded copies by destination; replies by client address (its port changes). */
    private Object key(InetSocketAddress to) {
        if (to == null || to.getAddress() == null) {
            return null;
        }
        if (isGroup(to.getAddress()) || beaconDestinations.contains(to)) {
            return to;
        }
        return WireAddress.unmap(to.getAddress());
    }

    private String label(Object key) {
        if (key == SOCKETS) {
            return "PVA server UDP sockets";
        }
        if (key instanceof InetSocketAddress to) {
            return (isGroup(to.getAddress()) ? "PVA unicast forwarding to " : "PVA beacons to ") + HostPort.format(to);
        }
        return "PVA search replies to " + HostPort.address((InetAddress) key);
    }

    private static boolean isGroup(InetAddress a) {
        return PvaPorts.FORWARD_GROUP_V4.equals(a) || PvaPorts.FORWARD_GROUP_V6.equals(a);
    }
}
