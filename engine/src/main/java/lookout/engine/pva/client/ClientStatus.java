package lookout.engine.pva.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Metric;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.HostPort;
import lookout.engine.pva.beacon.ServerTable;

/**
 * The client's status: its section of the engine snapshot, built on the engine loop from the
 * parts' state and returned as a value, and its metrics (names kept as operators script against
 * them).
 *
 * <p>Concurrency: engine loop only.
 */
final class ClientStatus {

    /** A server table entry not heard from for this long shows STALE (a 180-s beacon missed). */
    static final long STALE_AFTER = TimeUnit.SECONDS.toNanos(195);

    private final Scheduler scheduler;
    private final ChannelRegistry registry;
    private final SearchDriver driver;
    private final ReplyProcessor replies;
    private final NameServers nameServers;
    private final SearchFanOut fanOut;
    private final ClientSockets sockets;
    private final ClientCounters counters;
    private final ClaimChecks checks;

    ClientStatus(Scheduler scheduler, ChannelRegistry registry, SearchDriver driver, ReplyProcessor replies,
                 NameServers nameServers, SearchFanOut fanOut, ClientSockets sockets, ClientCounters counters,
                 ClaimChecks checks) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.driver = driver;
        this.replies = replies;
        this.nameServers = nameServers;
        this.fanOut = fanOut;
        this.sockets = sockets;
        this.counters = counters;
        this.checks = checks;
    }

    /** Puts the snapshot section and the metrics into {@code b}. */
    void contribute(SnapshotBuilder b, List<String> watch) {
        PvaSnapshot s = snapshot(watch);
        b.pva(s);
        PvaCounters k = s.counters();
        b.metric(Metric.gauge("lookout_pva_channels", "PVA client channels", s.channelCount()));
        b.metric(Metric.gauge("lookout_pva_searching_channels", "PVA channels searching", s.searching()));
        b.metric(Metric.gauge("lookout_pva_resolved_channels", "PVA channels resolved", s.resolved()));
        b.metric(Metric.gauge("lookout_pva_servers", "PVA servers in the server table", replies.servers().size()));
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
        b.metric(Metric.counter("lookout_pva_claim_checks_failed_total",
                "Checks of claimed servers that failed (their names searched again)", checks.failures()));
        b.metric(Metric.gauge("lookout_pva_name_servers_ready", "Name-server connections ready", nameServers.ready()));
    }

    /** The client's section; {@code watch} the names of {@code pva.watch}, listed first. */
    PvaSnapshot snapshot(List<String> watch) {
        long now = scheduler.nanoTime();
        SearchRing ring = driver.ring();
        List<Integer> buckets = new ArrayList<>(SearchRing.BUCKETS);
        for (int i = 0; i < SearchRing.BUCKETS; i++) {
            buckets.add(ring.bucketSize(i));
        }
        long resolved = registry.resolvedCount();
        long searching = registry.size() - resolved;
        // watched and operator channels first, then the others, up to the cap
        Set<PvChannel> listed = new LinkedHashSet<>();
        for (String w : watch) {
            addListed(listed, registry.byName(w));
        }
        for (String o : registry.operatorNames()) {
            addListed(listed, registry.byName(o));
        }
        for (Iterator<PvChannel> it = registry.channels().iterator(); it.hasNext() && listed.size() < PvaSnapshot.MAX_CHANNELS; ) {
            listed.add(it.next());
        }
        List<PvaChannelSnapshot> channels = new ArrayList<>(listed.size());
        for (PvChannel c : listed) {
            channels.add(channel(c, ring, now));
        }
        channels.sort((a, b) -> a.name().compareTo(b.name()));
        ServerTable servers = replies.servers();
        List<PvaDiscoveredServer> table = new ArrayList<>(servers.size() + ReplyProcessor.RECENTLY_LOST);
        for (ServerTable.Entry e : servers.entries()) {
            table.add(server(e, now - e.lastSeen() > STALE_AFTER
                    ? PvaDiscoveredServer.Status.STALE : PvaDiscoveredServer.Status.ONLINE, now));
        }
        table.addAll(replies.recentlyLost());
        long avail = ring.hurryUpAvailableAt();
        Instant availableAt = ring.everHurried() && avail > now ? at(avail, now) : null;
        return new PvaSnapshot(true, sockets.searchPort(), sockets.beaconPort(), ring.cursor(), buckets,
                ring.initialSize(), ring.hurryingUp(), ring.fastTicksLeft(), availableAt, at(driver.nextTickAt(), now),
                registry.size(), searching, resolved, driver.lastTick(), channels, registry.size() > channels.size(),
                table, servers.limit(), fanOut.destinations().stream().map(Destination::toString).toList(),
                nameServers.snapshots(), counters(), checks.snapshot());
    }

    private static void addListed(Set<PvChannel> listed, PvChannel c) {
        if (c != null && listed.size() < PvaSnapshot.MAX_CHANNELS) {
            listed.add(c);
        }
    }

    PvaCounters counters() {
        return counters.snapshot(replies.servers().refused());
    }

    private PvaChannelSnapshot channel(PvChannel c, SearchRing ring, long now) {
        long next = c.state == ChannelState.SEARCHING ? ring.nextSearchAt(c) : Long.MIN_VALUE;
        return new PvaChannelSnapshot(c.name, c.cid, c.state.name(), c.attempts, c.searches, c.bucket,
                next == Long.MIN_VALUE ? null : at(next, now), c.guid == null ? null : c.guid.toString(),
                HostPort.format(c.endpoint), c.watched(), c.operator());
    }

    /** What the client knows of {@code name}, for the console's "why?" (engine loop). */
    lookout.engine.api.PvaChannelDiagnosis diagnose(String name) {
        long now = scheduler.nanoTime();
        SearchRing ring = driver.ring();
        List<lookout.engine.api.PvaChannelDiagnosis.SendFailure> failing = fanOut.sendFailures();
        PvChannel c = registry.byName(name);
        if (c == null) {
            return new lookout.engine.api.PvaChannelDiagnosis(name, false, null, false, false, false, 0, 0, null, null, -1,
                    ring.cursor(), List.of(), 0, List.of(), failing);
        }
        List<lookout.engine.api.PvaChannelDiagnosis.Reply> claims = new ArrayList<>();
        long negatives = 0;
        List<String> negativeFrom = List.of();
        ReplyFacts.Facts f = replies.facts().of(c.cid);
        if (f != null) {
            for (ReplyFacts.Claim k : f.claims) {
                claims.add(new lookout.engine.api.PvaChannelDiagnosis.Reply(at(k.at(), now), k.guid().toString(),
                        HostPort.format(k.endpoint()), HostPort.format(k.from()), k.tcp(), k.resolved()));
            }
            negatives = f.negatives;
            negativeFrom = f.negativeFrom;
        }
        long next = c.state == ChannelState.SEARCHING ? ring.nextSearchAt(c) : Long.MIN_VALUE;
        return new lookout.engine.api.PvaChannelDiagnosis(name, true, c.state.name(), c.watched(), c.operator(),
                c.wanted(), c.attempts, c.searches, c.lastSearchNanos == Long.MIN_VALUE ? null : at(c.lastSearchNanos, now),
                next == Long.MIN_VALUE ? null : at(next, now), c.bucket, ring.cursor(), claims, negatives, negativeFrom,
                failing);
    }

    /** A server table entry as the snapshot shows it. */
    PvaDiscoveredServer server(ServerTable.Entry e, PvaDiscoveredServer.Status status, long now) {
        return new PvaDiscoveredServer(e.guid().toString(), HostPort.format(e.key().endpoint()), e.key().protocol(),
                HostPort.format(e.sender()), e.version(), at(e.firstSeen(), now), at(e.lastSeen(), now), e.beacons(),
                e.discoveryReplies(), e.observedPeriod() < 0 ? null : Duration.ofNanos(e.observedPeriod()),
                e.restarts(), at(e.lastSeen() + ServerTable.EXPIRY, now), status);
    }

    /** A lost server, remembered as OFFLINE. */
    PvaDiscoveredServer offline(ServerTable.Entry e, long now) {
        return server(e, PvaDiscoveredServer.Status.OFFLINE, now);
    }

    private Instant at(long nanos, long now) {
        return scheduler.now().plusNanos(nanos - now);
    }
}
