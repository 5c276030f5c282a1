package lookout.engine.pva.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.config.PvaConfig;
import lookout.engine.net.HostPort;
import lookout.engine.pva.wire.SearchDatagramBuilder;
import lookout.engine.pva.wire.SearchResponse;

/**
 * The client's TCP name servers (seed 002 §6): one persistent connection each, reconnected by a
 * 10-s check, an echo every 30 s on idle ready ones, and every search datagram appended to each
 * ready one (as PVXS sends it over TCP: Unicast set, reply port 0). Their replies go to the same
 * reply processing as UDP's.
 *
 * <p>Concurrency: engine loop only (the connections hop in).
 */
final class NameServers implements NameServerConnection.Owner {

    private static final Logger LOG_SEARCH = System.getLogger("lookout.pva.client.search");

    /** Where a name server's messages go. */
    interface Inbound {
        void reply(SearchResponse reply, int version, InetSocketAddress from);

        void malformed(String from, String reason);
    }

    private final Scheduler scheduler;
    private final EventLoopGroup io;
    private final Inbound inbound;
    private final Map<String, NameServerConnection> connections = new LinkedHashMap<>();
    /** The local ends of the ready connections: the engine's own searches, seen by its own name server. */
    private volatile Set<InetSocketAddress> localEnds = Set.of();
    private int echoCountdown;
    private boolean closed;

    NameServers(Scheduler scheduler, EventLoopGroup io, Inbound inbound) {
        this.scheduler = scheduler;
        this.io = io;
        this.inbound = inbound;
    }

    /** Connects to the name servers of {@code cfg} not connected yet and closes those no longer listed. */
    void reconcile(PvaConfig cfg) {
        Map<String, PvaConfig.PvaAddress> wanted = new LinkedHashMap<>();
        for (PvaConfig.PvaAddress a : cfg.nameServers()) {
            int port = a.port() == 0 ? cfg.serverPort() : a.port();
            wanted.put(a.host() + ":" + port, new PvaConfig.PvaAddress(a.host(), port));
        }
        for (Iterator<Map.Entry<String, NameServerConnection>> it = connections.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, NameServerConnection> e = it.next();
            if (!wanted.containsKey(e.getKey())) {
                e.getValue().close();
                it.remove();
            }
        }
        for (Map.Entry<String, PvaConfig.PvaAddress> e : wanted.entrySet()) {
            if (!connections.containsKey(e.getKey())) {
                InetAddress a = resolve(e.getValue().host());
                InetSocketAddress target = a == null
                        ? InetSocketAddress.createUnresolved(e.getValue().host(), e.getValue().port())
                        : new InetSocketAddress(a, e.getValue().port());
                NameServerConnection ns = new NameServerConnection(e.getKey(), target, this);
                connections.put(e.getKey(), ns);
                ns.connect();
            }
        }
    }

    /** Every 10 s: reconnects those that are down; an echo on idle ready ones every 30 s. */
    void check() {
        boolean echo = --echoCountdown <= 0;
        if (echo) {
            echoCountdown = 3;
        }
        for (NameServerConnection ns : connections.values()) {
            ns.connect();
            if (echo) {
                ns.echo();
            }
        }
    }

    /** Appends a finished search datagram to every ready connection (sent at {@link #flush}). */
    void append(ByteBuf datagram) {
        ByteBuf tcp = null;
        try {
            for (NameServerConnection ns : connections.values()) {
                if (!ns.ready()) {
                    continue;
                }
                if (tcp == null) {
                    // PVXS: a TCP search is always "unicast", and its reply port is meaningless
                    tcp = datagram.copy();
                    SearchDatagramBuilder.setUnicast(tcp, 0, true);
                    SearchDatagramBuilder.setReplyPort(tcp, 0, 0);
                }
                ns.append(tcp);
            }
        } finally {
            if (tcp != null) {
                tcp.release();
            }
        }
    }

    void flush() {
        for (NameServerConnection ns : connections.values()) {
            ns.flush();
        }
    }

    void close() {
        closed = true;
        for (NameServerConnection ns : connections.values()) {
            ns.close();
        }
        connections.clear();
        localEnds = Set.of();
    }

    /** True when {@code endpoint} is the local end of one of these connections. Any thread. */
    boolean isLocalEnd(InetSocketAddress endpoint) {
        return localEnds.contains(endpoint);
    }

    /**
     * A check of a claimed server ({@link ClaimChecks.Probe}): a connection of its own, the PVA
     * handshake within the connection's deadlines, then closed; {@code done} is told once.
     */
    void check(InetSocketAddress endpoint, Consumer<String> done) {
        boolean[] told = {false};
        NameServerConnection probe = new NameServerConnection("check " + HostPort.format(endpoint), endpoint,
                new NameServerConnection.Owner() {
                    @Override
                    public Scheduler scheduler() {
                        return scheduler;
                    }

                    @Override
                    public EventLoopGroup io() {
                        return io;
                    }

                    @Override
                    public void nameServerReply(NameServerConnection from, SearchResponse reply, int version) {
                    }

                    @Override
                    public void nameServerMalformed(NameServerConnection from, String reason) {
                    }

                    @Override
                    public void nameServerState(NameServerConnection from, NameServerConnection.State state,
                                                String error) {
                        if (told[0]) {
                            return;
                        }
                        if (state == NameServerConnection.State.READY) {
                            told[0] = true;
                            from.close();
                            done.accept(null);
                        } else if (state == NameServerConnection.State.DISCONNECTED) {
                            told[0] = true;
                            from.close();
                            done.accept(error == null || error.isEmpty() ? "connection closed" : error);
                        }
                    }
                });
        probe.connect();
        if (!told[0] && probe.state() == NameServerConnection.State.DISCONNECTED) {
            told[0] = true; // not even started (an unresolved address)
            done.accept("cannot connect");
        }
    }

    List<String> labels() {
        return List.copyOf(connections.keySet());
    }

    List<PvaNameServerSnapshot> snapshots() {
        return connections.values().stream().map(NameServerConnection::snapshot).toList();
    }

    long ready() {
        return connections.values().stream().filter(NameServerConnection::ready).count();
    }

    /** For tests of this package. */
    Map<String, NameServerConnection> connections() {
        return Collections.unmodifiableMap(connections);
    }

    static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ NameServerConnection.Owner

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public EventLoopGroup io() {
        return io;
    }

    @Override
    public void nameServerReply(NameServerConnection from, SearchResponse reply, int version) {
        if (!closed) {
            inbound.reply(reply, version, from.target());
        }
    }

    @Override
    public void nameServerMalformed(NameServerConnection from, String reason) {
        inbound.malformed(from.label(), reason);
    }

    @Override
    public void nameServerState(NameServerConnection from, NameServerConnection.State state, String error) {
        Set<InetSocketAddress> ends = new java.util.HashSet<>();
        for (NameServerConnection ns : connections.values()) {
            InetSocketAddress a = ns.localAddress();
            if (a != null && (ns == from ? state : ns.state()) != NameServerConnection.State.DISCONNECTED) {
                ends.add(a);
            }
        }
        localEnds = Set.copyOf(ends);
        LOG_SEARCH.log(state == NameServerConnection.State.DISCONNECTED && error != null ? Level.DEBUG : Level.INFO,
                "name server {0}: {1}{2}", from.label(), state, error == null ? "" : " (" + error + ")");
    }
}
