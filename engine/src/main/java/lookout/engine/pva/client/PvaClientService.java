package lookout.engine.pva.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.DatagramChannel;
import io.netty.util.collection.IntObjectHashMap;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.PvaTickSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.PvaConfig;
import lookout.engine.core.Commands;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.Transport;
import lookout.engine.pva.beacon.ServerTable;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchDatagramBuilder;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaSharedPort;
import lookout.engine.seams.ResolvedNames;

/**
 * The PVA client of seed 002 §3, §6, §7: channels for watched and operator-searched names, the
 * search ring, UDP and TCP name-server transport, reply processing, beacon tracking and discovery.
 * Resolution ends at Resolved (SPEC §PVA): GUID and endpoint, no channel creation.
 *
 * <p>Concurrency: all protocol state (channels, ring, table, counters, connections) is confined
 * to the engine loop. Socket handlers decode on their I/O thread (the codec is pure) and hop in
 * with {@code scheduler().run(...)}. {@code listeners} is copy-on-write for any thread.
 */
public final class PvaClientService implements Service, Commands.PvaClient, ResolvedNames, PvaSharedPort {

    private static final Logger LOG = System.getLogger("lookout.pva.client");
    private static final Logger LOG_SEARCH = System.getLogger("lookout.pva.client.search");

    /** seed 002 §3.1: the channel cache sweep. */
    static final long SWEEP_INTERVAL = TimeUnit.SECONDS.toNanos(10);
    /** seed 002 §6 / §9: name-server reconnect check. */
    static final long NAME_SERVER_CHECK = TimeUnit.SECONDS.toNanos(10);
    /** seed 002 §3.5: datagrams processed per receive callback. */
    static final int MAX_DATAGRAMS_PER_READ = 40;
    /** A server table entry not heard from for this long shows STALE (a 180-s beacon missed). */
    static final long STALE_AFTER = TimeUnit.SECONDS.toNanos(195);
    /** Lost servers kept in the snapshot as OFFLINE. */
    static final int RECENTLY_LOST = 100;

    /** Sees SEARCH datagrams that reach the client's beacon socket (it shares the broadcast port). */
    public interface SearchListener {
        void search(DatagramContents contents, InetSocketAddress source);
    }

    // ------------------------------------------------------------ engine-loop state
    private ServiceContext ctx;
    private Scheduler scheduler;
    private PvaConfig config;
    private boolean running;

    private final SearchRing ring = new SearchRing();
    private SearchPacker packer;
    private final Map<String, PvChannel> byName = new HashMap<>();
    private final IntObjectHashMap<PvChannel> byCid = new IntObjectHashMap<>();
    private int nextCid = 1;
    /** Channels in RESOLVED, kept in step so that a snapshot does not walk a million channels. */
    private long resolvedCount;
    /** Names searched by an operator (searchPv), listed first in the snapshot. */
    private final Set<String> operatorNames = new java.util.LinkedHashSet<>();

    private DatagramChannel searchSocket;
    private DatagramChannel beaconSocket;
    private int searchPort;
    private int beaconPort;
    private List<Destination> destinations = List.of();
    private final Map<String, NameServerConnection> nameServers = new LinkedHashMap<>();
    private Set<Guid> ignoreGuids = Set.of();

    private final ServerTable servers = new ServerTable();
    private final ArrayDeque<PvaDiscoveredServer> recentlyLost = new ArrayDeque<>();
    private boolean tableFullReported;

    private Scheduler.Cancellable tickTimer = Scheduler.Cancellable.NONE;
    private Scheduler.Cancellable initialTimer = Scheduler.Cancellable.NONE;
    private final List<Scheduler.Cancellable> periodic = new ArrayList<>();
    private long nextTickAt;
    private PvaTickSnapshot lastTick = PvaTickSnapshot.NONE;
    private boolean sendErrorLogged;
    private int echoCountdown;

    // counters (engine loop)
    private long searchDatagrams;
    private long searchBytes;
    private long searchNames;
    private long sendErrors;
    private long replies;
    private long ignoredGuid;
    private long resolvedTotal;
    private long duplicateClaims;
    private long beacons;
    private long discoveryReplies;
    private long discoveryPings;
    private long malformed;
    private long ignored;
    private long namesTooLong;
    private long hurryUps;

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final List<SearchListener> searchListeners = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return "pva-client";
    }

    // ================================================================ lifecycle

    @Override
    public void start(ServiceContext context, Config cfg) throws Exception {
        this.ctx = context;
        this.scheduler = context.scheduler();
        this.config = cfg.pva();
        ignoreGuids = parseGuids(config.ignoreGuids());
        searchSocket = udpSocket(new InetSocketAddress(0), false, new SearchSocketHandler());
        searchPort = searchSocket.localAddress().getPort();
        packer = new SearchPacker(ByteBufAllocator.DEFAULT, searchPort, this::sendSearch);
        try {
            bindBeaconSocket();
        } catch (IOException e) {
            // Another process may hold the port without SO_REUSEADDR: searching still works.
            beaconPort = 0;
            notice(Severity.WARNING, "cannot listen for PVA beacons on UDP port " + config.broadcastPort()
                    + ": " + e.getMessage() + "; searching continues, beacons are not tracked");
        }
        destinations = computeDestinations(config);
        reconcileNameServers(config);
        for (String w : config.watch()) {
            reference(w, PvChannel.REF_WATCHED);
        }
        running = true;
        long now = scheduler.nanoTime();
        nextTickAt = now + SearchRing.TICK;
        ring.nextTickAt(nextTickAt);
        tickTimer = scheduler.schedule(this::onTick, SearchRing.TICK, TimeUnit.NANOSECONDS);
        periodic.add(scheduler.scheduleAtFixedRate(this::sweep, SWEEP_INTERVAL, SWEEP_INTERVAL, TimeUnit.NANOSECONDS));
        periodic.add(scheduler.scheduleAtFixedRate(this::expireServers, ServerTable.CHECK_INTERVAL,
                ServerTable.CHECK_INTERVAL, TimeUnit.NANOSECONDS));
        periodic.add(scheduler.scheduleAtFixedRate(this::checkNameServers, NAME_SERVER_CHECK, NAME_SERVER_CHECK,
                TimeUnit.NANOSECONDS));
        if (config.discoveryAtStart()) {
            discoveryPing();
        }
        LOG.log(Level.INFO, "PVA client searching from UDP port " + searchPort + ", beacons on "
                + (beaconPort == 0 ? "(none)" : String.valueOf(beaconPort)) + ", destinations " + destinations
                + ", name servers " + nameServers.keySet());
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        PvaConfig old = config;
        PvaConfig neu = after.pva();
        config = neu;
        ignoreGuids = parseGuids(neu.ignoreGuids());
        if (old.broadcastPort() != neu.broadcastPort()) {
            if (beaconSocket != null) {
                beaconSocket.close();
                beaconSocket = null;
            }
            try {
                bindBeaconSocket();
            } catch (IOException e) {
                beaconPort = 0;
                notice(Severity.WARNING, "cannot listen for PVA beacons on UDP port " + neu.broadcastPort()
                        + ": " + e.getMessage());
            }
        }
        destinations = computeDestinations(neu);
        reconcileNameServers(neu);
        // SPEC live reload: channels still watched keep their ring position — only flags change
        Set<String> watch = new HashSet<>(neu.watch());
        for (PvChannel c : byName.values()) {
            if ((c.refs & PvChannel.REF_WATCHED) != 0 && !watch.contains(c.name)) {
                c.refs &= ~PvChannel.REF_WATCHED;
            }
        }
        for (String w : neu.watch()) {
            reference(w, PvChannel.REF_WATCHED);
        }
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        tickTimer.cancel();
        initialTimer.cancel();
        periodic.forEach(Scheduler.Cancellable::cancel);
        periodic.clear();
        for (NameServerConnection ns : nameServers.values()) {
            ns.close();
        }
        nameServers.clear();
        if (searchSocket != null) {
            searchSocket.close();
            searchSocket = null;
        }
        if (beaconSocket != null) {
            beaconSocket.close();
            beaconSocket = null;
        }
    }

    private DatagramChannel udpSocket(InetSocketAddress bind, boolean reuse, io.netty.channel.ChannelHandler handler)
            throws IOException {
        // Registered and bound here, synchronously (inline on the engine loop), so that a bind
        // error surfaces at start or reload rather than in a future nobody waits for.
        return Transport.bind(ctx.io(), ctx.transport().batchedDatagram(bind.getAddress(), MAX_DATAGRAMS_PER_READ), bind,
                ch -> {
                    ch.config().setReuseAddress(reuse);
                    ch.config().setBroadcast(true);
                    // §3.5: reply bursts can overrun the receive buffer; size it generously
                    ch.config().setReceiveBufferSize(1 << 20);
                    ch.pipeline().addLast(handler);
                });
    }

    private void bindBeaconSocket() throws IOException {
        // SO_REUSEADDR: the broadcast port is shared with every other PVA process on the host
        beaconSocket = udpSocket(new InetSocketAddress(config.broadcastPort()), true, new BeaconSocketHandler());
        beaconPort = config.broadcastPort();
    }

    private List<Destination> computeDestinations(PvaConfig cfg) {
        List<String> problems = new ArrayList<>();
        List<Destination> d = Destination.of(cfg, cfg.autoAddrList() ? Destination.interfaceBroadcasts() : List.of(),
                PvaClientService::resolveHost, problems);
        problems.forEach(p -> notice(Severity.WARNING, p));
        return d;
    }

    private static InetAddress resolveHost(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private void reconcileNameServers(PvaConfig cfg) {
        Map<String, PvaConfig.PvaAddress> wanted = new LinkedHashMap<>();
        for (PvaConfig.PvaAddress a : cfg.nameServers()) {
            int port = a.port() == 0 ? cfg.serverPort() : a.port();
            wanted.put(a.host() + ":" + port, new PvaConfig.PvaAddress(a.host(), port));
        }
        for (Iterator<Map.Entry<String, NameServerConnection>> it = nameServers.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, NameServerConnection> e = it.next();
            if (!wanted.containsKey(e.getKey())) {
                e.getValue().close();
                it.remove();
            }
        }
        for (Map.Entry<String, PvaConfig.PvaAddress> e : wanted.entrySet()) {
            if (!nameServers.containsKey(e.getKey())) {
                InetAddress a = resolveHost(e.getValue().host());
                InetSocketAddress target = a == null
                        ? InetSocketAddress.createUnresolved(e.getValue().host(), e.getValue().port())
                        : new InetSocketAddress(a, e.getValue().port());
                NameServerConnection ns = new NameServerConnection(e.getKey(), target, nameServerOwner);
                nameServers.put(e.getKey(), ns);
                ns.connect();
            }
        }
    }

    private static Set<Guid> parseGuids(List<String> hex) {
        Set<Guid> out = new HashSet<>();
        for (String h : hex) {
            try {
                out.add(Guid.parse(h));
            } catch (IllegalArgumentException e) {
                LOG.log(Level.WARNING, "ignoring pva.ignore_guids entry {0}: not 24 hex digits", h);
            }
        }
        return Set.copyOf(out);
    }

    // ================================================================ channels

    /** Gets or creates the (unforced) channel of {@code name} and sets reference {@code flag}. */
    private PvChannel reference(String name, byte flag) {
        PvChannel c = byName.get(name);
        if (c == null) {
            if (!packer.fitsBuffer(ByteBufUtil.utf8Bytes(name))) {
                // seed 002 §3.3: a name too long for the 64 KiB buffer is dropped with an error
                namesTooLong++;
                notice(Severity.ERROR, "PV name of " + ByteBufUtil.utf8Bytes(name)
                        + " bytes exceeds the 64 KiB search buffer; not searched");
                return null;
            }
            c = new PvChannel(name, allocateCid());
            byName.put(name, c);
            byCid.put(c.cid, c);
            startSearching(c);
        }
        c.refs |= flag;
        c.refs &= ~PvChannel.SWEEP_MARK;
        return c;
    }

    private int allocateCid() {
        // CIDs are stable for a channel's life; skip any still in use after wrap-around
        for (int i = 0; i < Integer.MAX_VALUE; i++) {
            int cid = nextCid++;
            if (nextCid == Integer.MAX_VALUE) {
                nextCid = 1;
            }
            if (!byCid.containsKey(cid)) {
                return cid;
            }
        }
        throw new IllegalStateException("no free CID");
    }

    private void startSearching(PvChannel c) {
        long delay = ring.addNew(c, scheduler.nanoTime());
        if (delay >= 0) {
            initialTimer = scheduler.schedule(this::onInitial, delay, TimeUnit.NANOSECONDS);
        }
    }

    private void discard(PvChannel c) {
        ring.remove(c);
        byCid.remove(c.cid);
        byName.remove(c.name);
        operatorNames.remove(c.name);
        if (c.state == ChannelState.RESOLVED) {
            resolvedCount--;
            Resolution r = resolution(c);
            for (Listener l : listeners) {
                safely(() -> l.withdrawn(r));
            }
        }
    }

    /** seed 002 §3.1: unreferenced channels go after two consecutive sweeps. */
    private void sweep() {
        List<PvChannel> gone = new ArrayList<>();
        for (PvChannel c : byName.values()) {
            if (c.referenced()) {
                c.refs &= ~PvChannel.SWEEP_MARK;
            } else if ((c.refs & PvChannel.REF_WANTED) != 0) {
                c.refs &= ~(PvChannel.REF_WANTED | PvChannel.SWEEP_MARK);
            } else if ((c.refs & PvChannel.SWEEP_MARK) != 0) {
                gone.add(c);
            } else {
                c.refs |= PvChannel.SWEEP_MARK;
            }
        }
        gone.forEach(this::discard);
    }

    // ================================================================ the ring's timers

    private void onInitial() {
        if (!running) {
            return;
        }
        packer.begin();
        try {
            ring.drainInitial(packer);
        } finally {
            packer.flush();
            flushSockets();
        }
        recordTick(-1, false);
    }

    private void onTick() {
        if (!running) {
            return;
        }
        long now = scheduler.nanoTime();
        int bucket = ring.cursor();
        boolean fast = ring.hurryingUp();
        long delay = SearchRing.TICK;
        packer.begin();
        try {
            delay = ring.tick(now, packer);
        } finally {
            packer.flush();
            flushSockets();
            // always re-arm, whatever happened in the drain: the ring must keep turning
            nextTickAt = now + delay;
            ring.nextTickAt(nextTickAt);
            tickTimer = scheduler.schedule(this::onTick, delay, TimeUnit.NANOSECONDS);
        }
        recordTick(bucket, fast);
    }

    private void recordTick(int bucket, boolean fast) {
        lastTick = new PvaTickSnapshot(scheduler.now(), bucket, packer.names(), packer.datagrams(), packer.bytes(),
                packer.maxDatagram(), fast);
        searchDatagrams += packer.datagrams();
        searchBytes += packer.bytes();
        searchNames += packer.names();
    }

    /** {@link SearchPacker.Sink}: every datagram to every destination and every ready name server (§3.3). */
    private void sendSearch(ByteBuf datagram, int names) {
        ByteBuf unicastCopy = null;
        try {
            if (searchSocket != null) {
                for (Destination d : destinations) {
                    ByteBuf b;
                    if (d.unicast()) {
                        if (unicastCopy == null) {
                            unicastCopy = datagram.copy();
                            SearchDatagramBuilder.setUnicast(unicastCopy, 0, true);
                        }
                        b = unicastCopy.retainedDuplicate();
                    } else {
                        b = datagram.retainedDuplicate();
                    }
                    searchSocket.write(new DatagramPacket(b, d.address())).addListener(sendResult);
                }
            }
            appendToNameServers(datagram);
        } finally {
            if (unicastCopy != null) {
                unicastCopy.release();
            }
        }
    }

    private void appendToNameServers(ByteBuf datagram) {
        ByteBuf tcp = null;
        try {
            for (NameServerConnection ns : nameServers.values()) {
                if (!ns.ready()) {
                    continue;
                }
                if (tcp == null) {
                    // PVXS: a TCP search is always "unicast", and its reply port is meaningless
                    tcp = datagram.copy();
                    SearchDatagramBuilder.setUnicast(tcp, 0, true);
                    tcp.setShort(SearchDatagramBuilder.REPLY_PORT_OFFSET, 0);
                }
                ns.append(tcp);
            }
        } finally {
            if (tcp != null) {
                tcp.release();
            }
        }
    }

    private void flushSockets() {
        if (searchSocket != null) {
            searchSocket.flush();
        }
        for (NameServerConnection ns : nameServers.values()) {
            ns.flush();
        }
    }

    private final ChannelFutureListener sendResult = f -> {
        if (!f.isSuccess()) {
            String why = String.valueOf(f.cause());
            scheduler.run(() -> {
                sendErrors++;
                // repeated send errors: WARN once, then DEBUG until a tick sends cleanly (PVXS style)
                LOG_SEARCH.log(sendErrorLogged ? Level.DEBUG : Level.WARNING, "search send failed: {0}", why);
                sendErrorLogged = true;
            });
        }
    };

    // ================================================================ receiving

    private final class SearchSocketHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext c, DatagramPacket p) {
            DatagramContents contents = PvaCodec.decodeDatagram(p.content());
            InetSocketAddress source = p.sender();
            scheduler.run(() -> onSearchSocketDatagram(contents, source));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            LOG_SEARCH.log(Level.DEBUG, "search socket error", cause);
        }
    }

    private final class BeaconSocketHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext c, DatagramPacket p) {
            DatagramContents contents = PvaCodec.decodeDatagram(p.content());
            InetSocketAddress source = p.sender();
            scheduler.run(() -> onBeaconSocketDatagram(contents, source));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            LOG.log(Level.DEBUG, "beacon socket error", cause);
        }
    }

    private void onSearchSocketDatagram(DatagramContents contents, InetSocketAddress source) {
        if (!running) {
            return;
        }
        if (contents.dropped()) {
            malformed++;
            LOG_SEARCH.log(Level.DEBUG, "dropped datagram from {0}: {1}", source, contents.dropReason());
            return;
        }
        for (Frame f : contents.frames()) {
            if (f.message() instanceof SearchResponse r) {
                onSearchResponse(r, f.header().version(), source, false);
            } else if (f.message() instanceof Beacon b) {
                onBeacon(b, f.header().version(), source);
            } else {
                ignored++;
            }
        }
    }

    /**
     * A beacon or search reply that arrived on a socket of this engine's own PVA server (the
     * shared broadcast port: unicast datagrams go to the most specific bind, which is the
     * server's). Processed exactly as if the client's own beacon socket had read it.
     */
    @Override
    public void received(DatagramContents contents, InetSocketAddress source) {
        if (!running || contents.dropped()) {
            return;
        }
        for (Frame f : contents.frames()) {
            if (f.message() instanceof Beacon b) {
                onBeacon(b, f.header().version(), source);
            } else if (f.message() instanceof SearchResponse r) {
                onSearchResponse(r, f.header().version(), source, false);
            }
        }
    }

    private void onBeaconSocketDatagram(DatagramContents contents, InetSocketAddress source) {
        if (!running) {
            return;
        }
        if (contents.dropped()) {
            malformed++;
            return;
        }
        boolean search = false;
        for (Frame f : contents.frames()) {
            if (f.message() instanceof Beacon b) {
                onBeacon(b, f.header().version(), source);
            } else if (f.message() instanceof SearchResponse r) {
                onSearchResponse(r, f.header().version(), source, false);
            } else if (f.message() instanceof SearchRequest) {
                search = true;
            } else {
                ignored++;
            }
        }
        if (search) {
            if (searchListeners.isEmpty()) {
                ignored++;
            }
            for (SearchListener l : searchListeners) {
                safely(() -> l.search(contents, source));
            }
        }
    }

    /** seed 002 §3.5 reply processing; {@code tcp} for replies over a name-server connection. */
    void onSearchResponse(SearchResponse r, int version, InetSocketAddress source, boolean tcp) {
        replies++;
        InetAddress addr = WireAddress.orSource(r.serverAddress(), source.getAddress());
        int port = r.serverPort();
        if (tcp && port == 0) {
            port = source.getPort();
        }
        InetSocketAddress endpoint = new InetSocketAddress(addr, port);
        // 1. the GUID ignore list
        if (ignoreGuids.contains(r.guid())) {
            ignoredGuid++;
            return;
        }
        // 2. found=false with no names: a discovery answer, handled like a beacon (§7); any
        //    sequence ID is accepted (core-pva answers with 0, PVA-WIRE.md)
        if (r.discoveryReply()) {
            discoveryReplies++;
            observeServer(new ServerTable.Key(endpoint, r.protocol()), r.guid(), version, source,
                    ServerTable.Via.DISCOVERY);
            return;
        }
        // a negative reply never suppresses or delays searching
        if (!r.found()) {
            return;
        }
        // 3. protocol filter
        if (!"tcp".equals(r.protocol()) && !"tls".equals(r.protocol())) {
            ignored++;
            return;
        }
        for (int cid : r.cids()) {
            PvChannel c = byCid.get(cid);
            if (c == null) {
                continue;
            }
            if (c.state == ChannelState.SEARCHING) {
                // 4. first positive reply wins
                c.state = ChannelState.RESOLVED;
                c.guid = r.guid();
                c.endpoint = endpoint;
                c.attempts = 0;
                ring.remove(c);
                resolvedCount++;
                resolvedTotal++;
                ctx.publish(new EngineEvent.PvResolved(scheduler.now(), c.name, r.guid().toString(), text(endpoint)));
                Resolution res = resolution(c);
                for (Listener l : listeners) {
                    safely(() -> l.resolved(res));
                }
            } else if (!r.guid().equals(c.guid)) {
                // 5. a second server claims a resolved name: reported, never re-resolved
                duplicateClaims++;
                ctx.publish(new EngineEvent.DuplicatePvClaim(scheduler.now(), c.name, c.guid.toString(),
                        text(c.endpoint), r.guid().toString(), text(endpoint)));
            }
        }
    }

    private void onBeacon(Beacon b, int version, InetSocketAddress source) {
        beacons++;
        InetAddress addr = WireAddress.orSource(b.serverAddress(), source.getAddress());
        InetSocketAddress endpoint = new InetSocketAddress(addr, b.serverPort());
        observeServer(new ServerTable.Key(endpoint, b.protocol()), b.guid(), version, source, ServerTable.Via.BEACON);
    }

    /**
     * Feeds a beacon heard elsewhere (e.g. by the engine's own PVA server on the shared broadcast
     * port, which receives unicast beacons in its place) into the client's server table.
     * Engine loop only.
     */
    public void beaconHeard(Beacon b, int version, InetSocketAddress source) {
        if (running) {
            onBeacon(b, version, source);
        }
    }

    private void observeServer(ServerTable.Key key, Guid guid, int version, InetSocketAddress source,
                               ServerTable.Via via) {
        long now = scheduler.nanoTime();
        ServerTable.Observation o = servers.observe(key, guid, version, source, via, now);
        switch (o.outcome()) {
            case NEW -> {
                tableFullReported = false;
                ctx.publish(new EngineEvent.PvaServerFound(scheduler.now(), guid.toString(), text(key.endpoint()),
                        via.toString()));
                // §3.2: a new server may hold names we search: hurry up
                hurryUp();
            }
            case RESTARTED -> {
                ctx.publish(new EngineEvent.PvaServerRestarted(scheduler.now(), text(key.endpoint()),
                        o.previousGuid().toString(), guid.toString()));
                withdrawResolutions(o.previousGuid(), key.endpoint());
                hurryUp();
            }
            case REFUSED -> {
                if (!tableFullReported) {
                    tableFullReported = true;
                    notice(Severity.WARNING, "PVA server table full (" + servers.limit()
                            + " entries): new servers are refused until old ones expire");
                }
            }
            default -> {
            }
        }
    }

    /** Every 180 s: servers not heard from for 360 s are lost (§9). */
    private void expireServers() {
        long now = scheduler.nanoTime();
        for (ServerTable.Entry e : servers.expire(now)) {
            ctx.publish(new EngineEvent.PvaServerLost(scheduler.now(), e.guid().toString(), text(e.key().endpoint())));
            if (recentlyLost.size() == RECENTLY_LOST) {
                recentlyLost.removeFirst();
            }
            recentlyLost.addLast(serverSnapshot(e, PvaDiscoveredServer.Status.OFFLINE, now));
            withdrawResolutions(e.guid(), e.key().endpoint());
        }
    }

    /**
     * The server that claimed these channels is gone (lost or restarted): like a TCP connection
     * lost while Active (§3.6), its channels search again from the next tick, backoff restarted.
     */
    private void withdrawResolutions(Guid guid, InetSocketAddress endpoint) {
        List<PvChannel> hit = new ArrayList<>();
        for (PvChannel c : byName.values()) {
            if (c.state == ChannelState.RESOLVED && guid.equals(c.guid) && endpoint.equals(c.endpoint)) {
                hit.add(c);
            }
        }
        for (PvChannel c : hit) {
            Resolution old = resolution(c);
            resolvedCount--;
            c.state = ChannelState.SEARCHING;
            c.guid = null;
            c.endpoint = null;
            c.attempts = 0;
            ring.reenter(c, SearchRing.Placement.CURSOR);
            for (Listener l : listeners) {
                safely(() -> l.withdrawn(old));
            }
        }
    }

    // ================================================================ name servers

    private final NameServerConnection.Owner nameServerOwner = new NameServerConnection.Owner() {
        @Override
        public Scheduler scheduler() {
            return scheduler;
        }

        @Override
        public EventLoopGroup io() {
            return ctx.io();
        }

        @Override
        public void nameServerReply(NameServerConnection from, SearchResponse reply, int version) {
            if (running) {
                onSearchResponse(reply, version, from.target(), true);
            }
        }

        @Override
        public void nameServerMalformed(NameServerConnection from, String reason) {
            malformed++;
            LOG_SEARCH.log(Level.DEBUG, "name server {0} sent a malformed message: {1}", from.label(), reason);
        }

        @Override
        public void nameServerState(NameServerConnection from, NameServerConnection.State state, String error) {
            LOG_SEARCH.log(state == NameServerConnection.State.DISCONNECTED && error != null ? Level.DEBUG : Level.INFO,
                    "name server {0}: {1}{2}", from.label(), state, error == null ? "" : " (" + error + ")");
        }
    };

    /** Every 10 s: reconnect name servers that are down; echo on idle ready ones every 30 s. */
    private void checkNameServers() {
        boolean echo = --echoCountdown <= 0;
        if (echo) {
            echoCountdown = 3;
        }
        for (NameServerConnection ns : nameServers.values()) {
            ns.connect();
            if (echo) {
                ns.echo();
            }
        }
    }

    // ================================================================ commands

    @Override
    public void searchPv(String name) {
        String n = validName(name);
        if (reference(n, PvChannel.REF_OPERATOR) != null) {
            operatorNames.add(n);
        }
    }

    @Override
    public void dropPv(String name) {
        PvChannel c = byName.get(name == null ? "" : name.strip());
        if (c != null) {
            operatorNames.remove(c.name);
            // §3.1: the channel goes after two sweeps unless something else still references it
            c.refs &= ~(PvChannel.REF_OPERATOR | PvChannel.REF_WANTED);
        }
    }

    private static String validName(String name) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            throw new IllegalArgumentException("empty PV name");
        }
        return n;
    }

    @Override
    public void discoveryPing() {
        if (!running) {
            return;
        }
        // §7: empty protocol list, no names, MustReply; PVXS sends it like any search
        ByteBuf ping = ByteBufAllocator.DEFAULT.buffer(64);
        try {
            PvaCodec.encode(SearchRequest.discoveryPing(searchPort), ping);
            sendSearch(ping, 0);
            flushSockets();
            discoveryPings++;
        } finally {
            ping.release();
        }
    }

    @Override
    public boolean searchNow() {
        return running && hurryUp();
    }

    /** §9 hurryUp(): one fast revolution, then a 30-s holdoff. */
    private boolean hurryUp() {
        long now = scheduler.nanoTime();
        if (!ring.hurryUp(now)) {
            return false;
        }
        hurryUps++;
        tickTimer.cancel();
        nextTickAt = now;
        ring.nextTickAt(now);
        tickTimer = scheduler.schedule(this::onTick, 0, TimeUnit.NANOSECONDS);
        return true;
    }

    /** Subscribes to SEARCH datagrams reaching the beacon socket (the shared broadcast port). */
    public void addSearchListener(SearchListener l) {
        searchListeners.add(l);
    }

    public void removeSearchListener(SearchListener l) {
        searchListeners.remove(l);
    }

    // ================================================================ ResolvedNames

    @Override
    public Resolution lookup(String name) {
        PvChannel c = byName.get(name);
        return c != null && c.state == ChannelState.RESOLVED ? resolution(c) : null;
    }

    @Override
    public void want(String name) {
        if (!running || name == null || name.isEmpty()) {
            return;
        }
        reference(name, PvChannel.REF_WANTED);
    }

    @Override
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    private static Resolution resolution(PvChannel c) {
        return new Resolution(c.name, c.guid.toString(), c.endpoint);
    }

    // ================================================================ snapshot

    @Override
    public void contribute(SnapshotBuilder b) {
        PvaSnapshot s = snapshot();
        b.pva(s);
        PvaCounters k = s.counters();
        b.metric(Metric.gauge("lookout_pva_channels", "PVA client channels", s.channelCount()));
        b.metric(Metric.gauge("lookout_pva_searching_channels", "PVA channels searching", s.searching()));
        b.metric(Metric.gauge("lookout_pva_resolved_channels", "PVA channels resolved", s.resolved()));
        b.metric(Metric.gauge("lookout_pva_servers", "PVA servers in the server table", servers.size()));
        b.metric(Metric.gauge("lookout_pva_tick_datagrams", "Search datagrams of the last ring tick", s.lastTick().datagrams()));
        b.metric(Metric.counter("lookout_pva_search_datagrams_total", "Search datagrams built", k.searchDatagrams()));
        b.metric(Metric.counter("lookout_pva_search_bytes_total", "Bytes of search datagrams built", k.searchBytes()));
        b.metric(Metric.counter("lookout_pva_search_names_total", "Names searched", k.searchNames()));
        b.metric(Metric.counter("lookout_pva_send_errors_total", "Search sends that failed", k.sendErrors()));
        b.metric(Metric.counter("lookout_pva_replies_total", "Search replies processed", k.replies()));
        b.metric(Metric.counter("lookout_pva_resolved_total", "Channels resolved", k.resolvedTotal()));
        b.metric(Metric.counter("lookout_pva_duplicate_claims_total", "Claims by a second server for a resolved name", k.duplicateClaims()));
        b.metric(Metric.counter("lookout_pva_beacons_total", "Beacons received", k.beacons()));
        b.metric(Metric.counter("lookout_pva_discovery_replies_total", "Discovery replies received", k.discoveryReplies()));
        b.metric(Metric.counter("lookout_pva_malformed_total", "Malformed PVA messages dropped", k.malformed()));
        b.metric(Metric.counter("lookout_pva_servers_refused_total", "New servers refused by the full table", k.serverTableRefused()));
        b.metric(Metric.counter("lookout_pva_hurry_ups_total", "Hurry-up revolutions", k.hurryUps()));
        long ready = nameServers.values().stream().filter(NameServerConnection::ready).count();
        b.metric(Metric.gauge("lookout_pva_name_servers_ready", "Name-server connections ready", ready));
    }

    /** The client's section, built on the engine loop. */
    public PvaSnapshot snapshot() {
        if (!running) {
            return PvaSnapshot.stopped();
        }
        long now = scheduler.nanoTime();
        List<Integer> buckets = new ArrayList<>(SearchRing.BUCKETS);
        for (int i = 0; i < SearchRing.BUCKETS; i++) {
            buckets.add(ring.bucketSize(i));
        }
        long resolved = resolvedCount;
        long searching = byName.size() - resolved;
        // watched and operator channels first, then the others, up to the cap
        Set<PvChannel> listed = new java.util.LinkedHashSet<>();
        for (String w : config.watch()) {
            PvChannel c = byName.get(w);
            if (c != null && listed.size() < PvaSnapshot.MAX_CHANNELS) {
                listed.add(c);
            }
        }
        for (String o : operatorNames) {
            PvChannel c = byName.get(o);
            if (c != null && listed.size() < PvaSnapshot.MAX_CHANNELS) {
                listed.add(c);
            }
        }
        for (Iterator<PvChannel> it = byName.values().iterator(); it.hasNext() && listed.size() < PvaSnapshot.MAX_CHANNELS; ) {
            listed.add(it.next());
        }
        List<PvaChannelSnapshot> channels = new ArrayList<>(listed.size());
        for (PvChannel c : listed) {
            channels.add(channelSnapshot(c, now));
        }
        channels.sort((a, b2) -> a.name().compareTo(b2.name()));
        List<PvaDiscoveredServer> table = new ArrayList<>(servers.size() + recentlyLost.size());
        for (ServerTable.Entry e : servers.entries()) {
            table.add(serverSnapshot(e, now - e.lastSeen() > STALE_AFTER
                    ? PvaDiscoveredServer.Status.STALE : PvaDiscoveredServer.Status.ONLINE, now));
        }
        table.addAll(recentlyLost);
        List<PvaNameServerSnapshot> ns = nameServers.values().stream().map(NameServerConnection::snapshot).toList();
        boolean hurry = ring.hurryingUp();
        long avail = ring.hurryUpAvailableAt();
        Instant availableAt = ring.everHurried() && avail > now ? at(avail, now) : null;
        return new PvaSnapshot(true, searchPort, beaconPort, ring.cursor(), buckets, ring.initialSize(), hurry,
                ring.fastTicksLeft(), availableAt, at(nextTickAt, now), byName.size(), searching, resolved,
                lastTick, channels, byName.size() > channels.size(), table, servers.limit(),
                destinations.stream().map(Destination::toString).toList(), ns, counters());
    }

    PvaCounters counters() {
        return new PvaCounters(searchDatagrams, searchBytes, searchNames, sendErrors, replies, ignoredGuid,
                resolvedTotal, duplicateClaims, beacons, discoveryReplies, discoveryPings, malformed, ignored,
                servers.refused(), namesTooLong, hurryUps);
    }

    private PvaChannelSnapshot channelSnapshot(PvChannel c, long now) {
        long next = c.state == ChannelState.SEARCHING ? ring.nextSearchAt(c) : Long.MIN_VALUE;
        return new PvaChannelSnapshot(c.name, c.cid, c.state.name(), c.attempts, c.searches, c.bucket,
                next == Long.MIN_VALUE ? null : at(next, now), c.guid == null ? null : c.guid.toString(),
                c.endpoint == null ? null : text(c.endpoint), (c.refs & PvChannel.REF_WATCHED) != 0,
                (c.refs & PvChannel.REF_OPERATOR) != 0);
    }

    private PvaDiscoveredServer serverSnapshot(ServerTable.Entry e, PvaDiscoveredServer.Status status, long now) {
        return new PvaDiscoveredServer(e.guid().toString(), text(e.key().endpoint()), e.key().protocol(),
                text(e.sender()), e.version(), at(e.firstSeen(), now), at(e.lastSeen(), now), e.beacons(),
                e.discoveryReplies(), e.observedPeriod() < 0 ? null : Duration.ofNanos(e.observedPeriod()),
                e.restarts(), at(e.lastSeen() + ServerTable.EXPIRY, now), status);
    }

    private Instant at(long nanos, long now) {
        return scheduler.now().plusNanos(nanos - now);
    }

    // ================================================================ helpers

    private static String text(InetSocketAddress a) {
        if (a == null) {
            return null;
        }
        String host = a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    private void notice(Severity severity, String message) {
        ctx.publish(new EngineEvent.Notice(scheduler.now(), Subsystem.PVA_CLIENT, severity, message));
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "PVA client listener failed", e);
        }
    }

    // ---- for tests in this package
    SearchRing ring() {
        return ring;
    }

    int searchPort() {
        return searchPort;
    }

    int beaconPort() {
        return beaconPort;
    }

    ServerTable serverTable() {
        return servers;
    }

    PvChannel channel(String name) {
        return byName.get(name);
    }

    Map<String, NameServerConnection> nameServers() {
        return Collections.unmodifiableMap(nameServers);
    }
}
