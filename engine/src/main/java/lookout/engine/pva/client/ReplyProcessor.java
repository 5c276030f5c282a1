package lookout.engine.pva.client;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.net.HostPort;
import lookout.engine.pva.beacon.ServerTable;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts.Arrival;

/**
 * What the client does with what servers say (seed 002 §3.5, §7): search replies resolve channels
 * — first positive reply wins, a second server's claim is reported and never re-resolved —, and
 * beacons and discovery replies feed one {@link ServerTable} (found, restarted, lost after 360 s
 * of silence, at most 20 000 entries). A server lost or restarted withdraws what it had claimed.
 *
 * <p>{@link #datagram} is the one routine for every datagram the client's sockets deliver (its
 * search socket, and everything reaching {@code broadcast_port}); name-server replies come in
 * through {@link #onSearchResponse} with {@code tcp} set.
 *
 * <p>Concurrency: engine loop only.
 */
final class ReplyProcessor {

    private static final Logger LOG_SEARCH = System.getLogger("lookout.pva.client.search");
    /** Lost servers kept in the snapshot as OFFLINE. */
    static final int RECENTLY_LOST = 100;

    private final Scheduler scheduler;
    private final Consumer<EngineEvent> events;
    private final ChannelRegistry registry;
    private final ClientCounters counters;
    private final BooleanSupplier hurryUp;
    private final ServerTable servers = new ServerTable();
    private final ArrayDeque<PvaDiscoveredServer> recentlyLost = new ArrayDeque<>();
    /** Builds a lost server's snapshot row (the status knows how). */
    private final ServerRow lostRow;
    private Set<Guid> ignoreGuids = Set.of();
    private boolean tableFullReported;
    /** What came back per channel, for "why?" (engine loop). */
    private final ReplyFacts facts = new ReplyFacts();
    private boolean running;

    /** A lost server as the snapshot shows it. */
    interface ServerRow {
        PvaDiscoveredServer offline(ServerTable.Entry e, long now);
    }

    /**
     * @param hurryUp asked when a new or restarted server appears (§3.2: it may hold names we search)
     * @param lostRow how a lost server is remembered
     */
    ReplyProcessor(Scheduler scheduler, Consumer<EngineEvent> events, ChannelRegistry registry, ClientCounters counters,
                   BooleanSupplier hurryUp, ServerRow lostRow) {
        this.scheduler = scheduler;
        this.events = events;
        this.registry = registry;
        this.counters = counters;
        this.hurryUp = hurryUp;
        this.lostRow = lostRow;
    }

    void running(boolean on) {
        this.running = on;
    }

    /** §3.5 step 1: replies from these GUIDs are discarded. */
    void ignoreGuids(Set<Guid> guids) {
        this.ignoreGuids = Set.copyOf(guids);
    }

    // ------------------------------------------------------------------ the one dispatch routine

    /**
     * One datagram from any of the client's sockets, decoded: its replies and beacons processed,
     * anything else (other clients' searches, forwarded copies) ignored and counted, a malformed
     * one counted and dropped. Where it arrived does not change what it means.
     */
    void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
        if (!running) {
            return;
        }
        if (contents.dropped()) {
            counters.malformed++;
            LOG_SEARCH.log(Level.DEBUG, "dropped datagram from {0}: {1}", source, contents.dropReason());
            return;
        }
        for (Frame f : contents.frames()) {
            if (f.message() instanceof SearchResponse r) {
                onSearchResponse(r, f.header().version(), source, false);
            } else if (f.message() instanceof Beacon b) {
                onBeacon(b, f.header().version(), source);
            } else {
                counters.ignored++;
            }
        }
    }

    /** A name server's message that could not be decoded. */
    void malformed(String from, String reason) {
        counters.malformed++;
        LOG_SEARCH.log(Level.DEBUG, "name server {0} sent a malformed message: {1}", from, reason);
    }

    // ------------------------------------------------------------------ replies (§3.5)

    /** seed 002 §3.5 reply processing; {@code tcp} for replies over a name-server connection. */
    void onSearchResponse(SearchResponse r, int version, InetSocketAddress source, boolean tcp) {
        if (!running) {
            return;
        }
        counters.replies++;
        InetAddress addr = WireAddress.orSource(r.serverAddress(), source.getAddress());
        int port = r.serverPort();
        if (tcp && port == 0) {
            port = source.getPort();
        }
        InetSocketAddress endpoint = new InetSocketAddress(addr, port);
        // 1. the GUID ignore list
        if (ignoreGuids.contains(r.guid())) {
            counters.ignoredGuid++;
            return;
        }
        // 2. found=false with no names: a discovery answer, handled like a beacon (§7); any
        //    sequence ID is accepted (core-pva answers with 0, PVA-WIRE.md)
        if (r.discoveryReply()) {
            counters.discoveryReplies++;
            if (port == 0) {
                // a responder without a TCP listener (Lookout's with its name server off): no
                // server to list
                counters.ignored++;
                return;
            }
            observe(new ServerTable.Key(endpoint, r.protocol()), r.guid(), version, source, ServerTable.Via.DISCOVERY);
            return;
        }
        // a negative reply never suppresses or delays searching
        if (!r.found()) {
            for (int cid : r.cids()) {
                if (registry.byCid(cid) != null) {
                    facts.negative(cid, source, tcp);
                }
            }
            return;
        }
        // 3. protocol filter
        if (!"tcp".equals(r.protocol()) && !"tls".equals(r.protocol())) {
            counters.ignored++;
            return;
        }
        for (int cid : r.cids()) {
            PvChannel c = registry.byCid(cid);
            if (c == null) {
                continue;
            }
            if (c.state == ChannelState.SEARCHING || !r.guid().equals(c.guid)) {
                // the claim that resolves it, or another server's (a repeat of the same server's is not news)
                facts.positive(cid, scheduler.nanoTime(), r.guid(), endpoint, source, tcp, c.state == ChannelState.SEARCHING);
            }
            if (c.state == ChannelState.SEARCHING) {
                // 4. first positive reply wins
                events.accept(new EngineEvent.PvResolved(scheduler.now(), c.name, r.guid().toString(),
                        HostPort.format(endpoint)));
                registry.resolved(c, r.guid(), endpoint);
            } else if (!r.guid().equals(c.guid)) {
                // 5. a second server claims a resolved name: reported, never re-resolved
                counters.duplicateClaims++;
                events.accept(new EngineEvent.DuplicatePvClaim(scheduler.now(), c.name, c.guid.toString(),
                        HostPort.format(c.endpoint), r.guid().toString(), HostPort.format(endpoint)));
            }
        }
    }

    // ------------------------------------------------------------------ beacons and the server table

    void onBeacon(Beacon b, int version, InetSocketAddress source) {
        if (!running) {
            return;
        }
        counters.beacons++;
        InetAddress addr = WireAddress.orSource(b.serverAddress(), source.getAddress());
        if (b.serverPort() == 0) {
            counters.ignored++; // announces no TCP endpoint: nothing to track
            return;
        }
        InetSocketAddress endpoint = new InetSocketAddress(addr, b.serverPort());
        observe(new ServerTable.Key(endpoint, b.protocol()), b.guid(), version, source, ServerTable.Via.BEACON);
    }

    private void observe(ServerTable.Key key, Guid guid, int version, InetSocketAddress source, ServerTable.Via via) {
        ServerTable.Observation o = servers.observe(key, guid, version, source, via, scheduler.nanoTime());
        switch (o.outcome()) {
            case NEW -> {
                tableFullReported = false;
                events.accept(new EngineEvent.PvaServerFound(scheduler.now(), guid.toString(),
                        HostPort.format(key.endpoint()), via.toString()));
                // §3.2: a new server may hold names we search: hurry up
                hurryUp.getAsBoolean();
            }
            case RESTARTED -> {
                events.accept(new EngineEvent.PvaServerRestarted(scheduler.now(), HostPort.format(key.endpoint()),
                        o.previousGuid().toString(), guid.toString()));
                registry.withdrawOthers(guid, key.endpoint());
                hurryUp.getAsBoolean();
                return;
            }
            case REFUSED -> {
                if (!tableFullReported) {
                    tableFullReported = true;
                    events.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.PVA_CLIENT, Severity.WARNING,
                            "PVA server table full (" + servers.limit()
                                    + " entries): new servers are refused until old ones expire"));
                }
            }
            default -> {
            }
        }
        // The claims resting on this endpoint may be another GUID's, one the table never saw (a
        // server that sends no beacons, replaced on the same port): that server is gone.
        int n = registry.withdrawOthers(guid, key.endpoint());
        if (n > 0) {
            events.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.PVA_CLIENT, Severity.WARNING,
                    "PVA server at " + HostPort.format(key.endpoint()) + " is now " + guid + ": the " + n
                            + (n == 1 ? " name" : " names") + " another server there claimed "
                            + (n == 1 ? "is" : "are") + " searched again"));
            hurryUp.getAsBoolean();
        }
    }

    /** Every 180 s: servers not heard from for 360 s are lost (§9), and what they claimed withdrawn. */
    void expireServers() {
        long now = scheduler.nanoTime();
        List<ServerTable.Entry> lost = servers.expire(now);
        for (ServerTable.Entry e : lost) {
            events.accept(new EngineEvent.PvaServerLost(scheduler.now(), e.guid().toString(),
                    HostPort.format(e.key().endpoint())));
            if (recentlyLost.size() == RECENTLY_LOST) {
                recentlyLost.removeFirst();
            }
            recentlyLost.addLast(lostRow.offline(e, now));
            registry.withdraw(e.guid(), e.key().endpoint());
        }
    }

    ServerTable servers() {
        return servers;
    }

    /** What came back per channel (for "why?"). */
    ReplyFacts facts() {
        return facts;
    }

    /** The last {@value #RECENTLY_LOST} servers lost, oldest first. */
    List<PvaDiscoveredServer> recentlyLost() {
        return List.copyOf(recentlyLost);
    }
}
