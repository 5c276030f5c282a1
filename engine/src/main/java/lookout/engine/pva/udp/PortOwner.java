package lookout.engine.pva.udp;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Config;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.Transport;
import lookout.engine.net.NetError;
import lookout.engine.net.Udp;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.net.UdpReceiver;
import lookout.engine.seams.PvaPorts;

/**
 * The one owner of the engine's PVA UDP sockets (seed 002 §3–§5; PVXS's {@code UDPManager}): one
 * socket per bound address and port for the whole process, read by Netty on one loop of the
 * engine's I/O group, each datagram decoded once and handed, with where it arrived, to everyone
 * listening on that port — the PVA client (beacons, search replies) and the PVA server (searches).
 * Sockets are opened when a listener first asks for them and closed when the last one lets go, so
 * a reload that moves {@code broadcast_port} or turns the server on or off needs nothing here:
 * the services close their old hold and open a new one.
 *
 * <p>A listener that asks for readers ({@link Interest#readers()}: the PVA server's responder, one
 * per core by default) has its sockets read on responder loops of their own, never on the engine
 * loop: each of its unicast addresses gets that many {@code SO_REUSEPORT} sockets, one per loop
 * (the kernel spreads senders among them), its broadcast and group sockets one each. The engine
 * loop then carries only what the engine loop's listeners (the client) want of them.
 *
 * <p>Who else listens on each port is checked every {@value #SHARING_CHECK_S} s and on every bind
 * change of ours ({@link PortNeighbours}): unicast forwarding (seed 002 §5) is for them.
 *
 * <p>Java has no IP_PKTINFO, so the destination of a datagram is known from the socket it reached:
 * one socket per local unicast address, one per interface broadcast address, one per forwarding
 * group joined on loopback, and the port's wildcard socket for everything else (on epoll it also
 * learns each datagram's destination, which is how searches to 255.255.255.255 are told apart).
 * All share the port with other PVA processes (SO_REUSEADDR, as PVXS and core-pva set it).
 *
 * <p>Concurrency: the port groups, listeners and holds are confined to the engine loop; each
 * socket's receiver runs on the loop that reads it, decodes, and delivers there to concurrent
 * listeners and through a hop onto the engine loop to the others.
 */
public final class PortOwner implements Service, PvaPorts, SocketFactory {

    /** How often who else listens on each port is checked again. */
    static final int SHARING_CHECK_S = 5;

    private ServiceContext ctx;
    private EventLoop loop;
    private Transport transport;
    private final Map<Integer, PortGroup> groups = new HashMap<>();
    private final List<SearchSocket> searchSockets = new ArrayList<>();
    /** Responder loops by their number: a reload asking for another number gets a group of its own. */
    private final Map<Integer, EventLoopGroup> responders = new TreeMap<>();
    private Scheduler.Cancellable sharingCheck = Scheduler.Cancellable.NONE;
    private boolean sharingCheckPending;
    private final boolean filtersOwnCopies;
    /** Engine loop: the last way of reading the unicast sockets said in the log, so that a rebind does not repeat it. */
    private String toldHowRead;

    /** The engine's port owner: own forwarded copies filtered in the kernel where the sockets allow. */
    public PortOwner() {
        this(true);
    }

    /**
     * @param filtersOwnCopies false: own forwarded copies are never filtered in the kernel, only
     *                         dropped before decoding (to compare the two, or where a kernel
     *                         misbehaves with socket filters)
     */
    public PortOwner(boolean filtersOwnCopies) {
        this.filtersOwnCopies = filtersOwnCopies;
    }

    @Override
    public boolean filtersOwnCopies() {
        return filtersOwnCopies;
    }

    @Override
    public String name() {
        return "pva-ports";
    }

    /** Takes the loop its sockets are read on; opens nothing ({@code config} is not read). */
    @Override
    public void start(ServiceContext context, Config config) {
        this.ctx = context;
        this.loop = context.io().next();
        this.transport = Transport.of(context.io());
        sharingCheck = context.scheduler().scheduleAtFixedRate(this::checkSharing, SHARING_CHECK_S, SHARING_CHECK_S,
                TimeUnit.SECONDS);
    }

    @Override
    public void apply(Config before, Config after) {
        // nothing of its own: listeners move themselves (close the old hold, open a new one)
    }

    @Override
    public void stop() {
        sharingCheck.cancel();
        for (PortGroup g : List.copyOf(groups.values())) {
            g.closeAll();
        }
        groups.clear();
        for (SearchSocket s : List.copyOf(searchSockets)) {
            s.close();
        }
        searchSockets.clear();
        for (EventLoopGroup g : responders.values()) {
            g.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        responders.clear();
    }

    @Override
    public void contribute(SnapshotBuilder snapshot) {
        // the listeners report what they hold
    }

    @Override
    public Port listen(int port, Interest interest, Receiver receiver) throws IOException {
        requireStarted();
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("UDP port " + port);
        }
        PortGroup g = port == 0 ? newGroup(0) : groups.get(port);
        if (g == null) {
            g = newGroup(port);
        }
        Listening l = Listening.open(g, interest, receiver);
        // an ephemeral port is known once bound: others may share it from now on
        groups.putIfAbsent(g.port(), g);
        return l;
    }

    private PortGroup newGroup(int port) {
        PortGroup[] made = new PortGroup[1];
        made[0] = new PortGroup(this, port, () -> groups.remove(made[0].port(), made[0]), this::sharingChanged);
        return made[0];
    }

    /** A bind of ours changed: who else listens is checked again, once, after what changes with it. */
    private void sharingChanged() {
        if (!sharingCheckPending && ctx != null) {
            sharingCheckPending = true;
            ctx.scheduler().execute(this::checkSharing);
        }
    }

    /** Engine loop: how many sockets of other processes each port has now. */
    void checkSharing() {
        sharingCheckPending = false;
        for (PortGroup g : List.copyOf(groups.values())) {
            if (g.port() != 0) {
                g.others(PortNeighbours.others(g.port()));
            }
        }
    }

    @Override
    public Port searchSocket(Receiver receiver) throws IOException {
        requireStarted();
        SearchSocket[] made = new SearchSocket[1];
        made[0] = new SearchSocket(this, receiver, () -> searchSockets.remove(made[0]));
        searchSockets.add(made[0]);
        return made[0];
    }

    private void requireStarted() {
        if (ctx == null) {
            throw new IllegalStateException("the PVA port owner is not started");
        }
    }

    /** How the sockets of {@code kind} on {@code port} are read (for tests and diagnostics); engine loop. */
    List<String> readBy(int port, PvaPorts.Kind kind) {
        PortGroup g = groups.get(port);
        return g == null ? List.of() : g.readBy(kind);
    }

    /** The ports listened on now (for tests and diagnostics). */
    List<Integer> ports() {
        return List.copyOf(groups.keySet());
    }

    // ------------------------------------------------------------------ SocketFactory

    @Override
    public Scheduler scheduler() {
        return ctx.scheduler();
    }

    @Override
    public EventLoop loop(int readers, int index) {
        if (readers <= 0) {
            return loop;
        }
        EventLoopGroup g = responders.computeIfAbsent(readers, n -> new MultiThreadIoEventLoopGroup(n,
                new DefaultThreadFactory("lookout-pva-responder", true), transport.ioHandlerFactory()));
        // a group's next() is round robin: walk to the index-th loop of a stable order
        List<EventLoop> loops = new ArrayList<>();
        g.forEach(e -> loops.add((EventLoop) e));
        return loops.get(Math.floorMod(index, loops.size()));
    }

    @Override
    public boolean knowsDestinations() {
        return transport == Transport.EPOLL;
    }

    /** Every PVA UDP socket comes through here: Netty-read on {@code on}. */
    @Override
    public UdpEndpoint open(EventLoop on, InetSocketAddress local, UdpOptions options, UdpReceiver receiver)
            throws IOException {
        return Udp.netty(on, local, options, receiver);
    }

    /**
     * A server's unicast socket, read natively on its responder loop ({@code recvmmsg} 256 at a
     * time into memory of the socket's own, the read's answers in one {@code sendmmsg}: issue 24's
     * one-name search cost 1.7× to 2.2× the kernel's floor through Netty, whose epoll read takes
     * eight datagrams a call into pooled buffers), unless the engine reads UDP through Netty
     * ({@code --udp-reads netty}) or the native library cannot watch a socket from this loop. The
     * port's other sockets — broadcasts, groups (joined), the wildcard (destinations) — stay Netty's.
     */
    @Override
    public UdpEndpoint openUnicast(EventLoop on, InetSocketAddress local, UdpOptions options, UdpReceiver receiver)
            throws IOException {
        String why = ctx.options().udpReads() == EngineOptions.UdpReads.NETTY ? "--udp-reads netty"
                : options.joinGroup() != null || options.destination() ? "options only Netty reads"
                : Udp.nativeOnLoopUnavailable(on);
        if (why == null) {
            try {
                UdpEndpoint e = Udp.nativeOnLoop(on, local, options, receiver);
                sayHowRead(null);
                return e;
            } catch (IOException e) {
                why = NetError.of(e).message();
            }
        }
        sayHowRead(why);
        return open(on, local, options, receiver);
    }

    private void sayHowRead(String whyNot) {
        String how = whyNot == null ? "natively on the responder loops (recvmmsg/sendmmsg)" : "through Netty (" + whyNot + ")";
        if (!how.equals(toldHowRead)) {
            toldHowRead = how;
            System.getLogger("lookout.pva.udp").log(System.Logger.Level.INFO, "PVA server's unicast sockets read " + how);
        }
    }
}
