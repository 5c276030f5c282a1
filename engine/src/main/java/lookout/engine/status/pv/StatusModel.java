package lookout.engine.status.pv;

import static lookout.engine.status.pv.StatusPvCatalog.INVALID;
import static lookout.engine.status.pv.StatusPvCatalog.MAJOR;
import static lookout.engine.status.pv.StatusPvCatalog.MINOR;
import static lookout.engine.status.pv.StatusPvCatalog.NO_ALARM;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.status.pv.StatusPvCatalog.Def;
import lookout.engine.status.pv.TableBuilder.Table;

/**
 * The status PVs' values and alarms, read from an engine snapshot (issue 15's rules; the table in
 * docs/design/status-pvs.md). Keeps what a snapshot alone cannot give: the counter histories of
 * the per-minute and last-hour PVs, restarts seen per server endpoint, the last demotion reason of
 * each upstream. Pure: {@code now} is given; confined to the engine loop.
 */
final class StatusModel {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    /** Endpoints and upstreams remembered at most (the server table's own bound, seed 002 §9). */
    static final int MAX_REMEMBERED = 20_000;

    /** One PV's reading: its value (a scalar's, or a table's column arrays) and its alarm. */
    record Reading(Object value, int severity, int status, String message) {
        static Reading of(Object value) {
            return new Reading(value, NO_ALARM, NormativeTypes.STATUS_NONE, "");
        }

        static Reading alarm(Object value, int severity, String message) {
            return new Reading(value, severity, NormativeTypes.STATUS_RECORD, message);
        }

        static Reading invalid(Object value, String why) {
            return new Reading(value, INVALID, NormativeTypes.STATUS_UNDEFINED, why);
        }
    }

    private final CounterWindow refused = new CounterWindow(MINUTE, SECOND);
    private final CounterWindow duplicates = new CounterWindow(HOUR, 10 * SECOND);
    private final CounterWindow restarts = new CounterWindow(HOUR, 10 * SECOND);
    private final Map<String, Long> restartsSeen = new HashMap<>();
    private long restartTotal;
    private final Map<String, String> demotionReasons = new LinkedHashMap<>();

    /**
     * The readings of every PV of {@link StatusPvCatalog#ALL}, in that order.
     *
     * @param heapUsed bytes of Java heap in use
     */
    List<Reading> read(EngineSnapshot s, long now, long heapUsed) {
        Map<Def, Reading> r = new HashMap<>();
        config(s, r);
        resolver(s.resolver(), s.recentEvents(), now, r);
        pools(s.pools(), r);
        pva(s.pva(), now, r);
        long up = s.startedAt() == null ? 0 : Duration.between(s.startedAt(), s.takenAt()).toSeconds();
        r.put(StatusPvCatalog.UPTIME, Reading.of(clamp(up)));
        r.put(StatusPvCatalog.HEAP, Reading.of(Math.round(heapUsed / 1048576.0 * 10) / 10.0));
        List<Reading> out = new ArrayList<>(StatusPvCatalog.ALL.size());
        for (Def d : StatusPvCatalog.ALL) {
            out.add(r.get(d));
        }
        return out;
    }

    private static int clamp(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    private static void config(EngineSnapshot s, Map<Def, Reading> r) {
        if (s.config() == null) {
            r.put(StatusPvCatalog.CONFIG_VERSION, Reading.invalid(0, "no configuration"));
            r.put(StatusPvCatalog.CONFIG_LAST_RELOAD, Reading.invalid("", "no configuration"));
            return;
        }
        r.put(StatusPvCatalog.CONFIG_VERSION, Reading.of(clamp(s.config().version())));
        var last = s.config().lastReload();
        String text = "OK";
        if (last != null && !last.applied()) {
            List<String> reasons = last.reasons();
            text = reasons.isEmpty() ? "rejected" : reasons.get(0);
        }
        r.put(StatusPvCatalog.CONFIG_LAST_RELOAD, Reading.of(text));
    }

    // ---------------------------------------------------------------- resolver

    private void resolver(ResolverSnapshot res, List<EngineEvent> events, long now, Map<Def, Reading> r) {
        for (EngineEvent e : events) {
            if (e instanceof EngineEvent.UpstreamDemoted d) {
                demotionReasons.remove(d.address()); // re-insert: the newest last
                demotionReasons.put(d.address(), d.reason());
                if (demotionReasons.size() > MAX_REMEMBERED) {
                    demotionReasons.remove(demotionReasons.keySet().iterator().next());
                }
            }
        }
        if (res == null) {
            String why = "resolver not running";
            for (Def d : List.of(StatusPvCatalog.QUERIES_PER_S, StatusPvCatalog.INFLIGHT, StatusPvCatalog.REFUSED_PER_MIN,
                    StatusPvCatalog.SERVERS_TOTAL, StatusPvCatalog.SERVERS_HEALTHY, StatusPvCatalog.SERVERS_DEMOTED)) {
                r.put(d, Reading.invalid(d == StatusPvCatalog.QUERIES_PER_S ? (Object) 0.0 : (Object) 0, why));
            }
            r.put(StatusPvCatalog.SERVERS_TABLE, Reading.invalid(serversTable(null), why));
            return;
        }
        r.put(StatusPvCatalog.QUERIES_PER_S, Reading.of(res.queriesPerSecond()));
        int inflight = res.inFlight();
        r.put(StatusPvCatalog.INFLIGHT, inflight > StatusPvCatalog.INFLIGHT_HIGH
                ? Reading.alarm(inflight, MINOR, "HIGH: " + inflight + " in flight, above "
                        + StatusPvCatalog.INFLIGHT_HIGH + " of " + res.inFlightCeiling())
                : Reading.of(inflight));
        r.put(StatusPvCatalog.REFUSED_PER_MIN, Reading.of(clamp(refused.observe(now, res.refused()))));
        int total = 0;
        int demoted = 0;
        String allDown = null;
        for (ResolverSnapshot.Scope sc : res.scopes()) {
            if (sc.fallback()) {
                continue; // seed 000 §4.6.3: fallback marks are not reported
            }
            int down = 0;
            for (ResolverSnapshot.Server sv : sc.servers()) {
                down += sv.demoted() ? 1 : 0;
            }
            total += sc.servers().size();
            demoted += down;
            if (allDown == null && !sc.servers().isEmpty() && down == sc.servers().size()) {
                allDown = sc.name();
            }
        }
        r.put(StatusPvCatalog.SERVERS_TOTAL, Reading.of(total));
        r.put(StatusPvCatalog.SERVERS_HEALTHY, Reading.of(total - demoted));
        Reading d;
        if (allDown != null) {
            d = Reading.alarm(demoted, MAJOR, "every server of scope " + allDown + " demoted");
        } else if (demoted > 0) {
            d = Reading.alarm(demoted, MINOR, demoted + " of " + total + " servers demoted");
        } else {
            d = Reading.of(demoted);
        }
        r.put(StatusPvCatalog.SERVERS_DEMOTED, d);
        r.put(StatusPvCatalog.SERVERS_TABLE, Reading.of(serversTable(res)));
    }

    private Table serversTable(ResolverSnapshot res) {
        TableBuilder t = new TableBuilder(StatusPvCatalog.SERVERS_TABLE);
        if (res != null) {
            Map<String, ResolverSnapshot.Upstream> ups = new HashMap<>();
            for (ResolverSnapshot.Upstream u : res.upstreams()) {
                ups.put(u.address(), u);
            }
            for (ResolverSnapshot.Scope sc : res.scopes()) {
                for (ResolverSnapshot.Server sv : sc.servers()) {
                    ResolverSnapshot.Upstream u = ups.get(sv.address());
                    String state = sc.fallback() ? "fallback" : sv.demoted() ? "DEMOTED" : "UP";
                    double left = sv.markLeft() == null ? 0 : sv.markLeft().toMillis() / 1000.0;
                    String reason = sv.demoted() ? demotionReasons.getOrDefault(sv.address(), "") : "";
                    t.row(sc.name(), sv.address(), state, left, reason, u == null ? 0L : u.failed(),
                            millis(u == null ? null : u.latencyP50()), millis(u == null ? null : u.latencyP99()));
                }
            }
        }
        return t.build();
    }

    private static double millis(Duration d) {
        return d == null ? Double.NaN : d.toNanos() / 1e6;
    }

    // ---------------------------------------------------------------- pools

    private static void pools(PoolsSnapshot p, Map<Def, Reading> r) {
        if (p == null || !p.running()) {
            String why = "pools not running";
            r.put(StatusPvCatalog.POOL_RESOURCES, Reading.invalid(0, why));
            r.put(StatusPvCatalog.POOL_FAILOVER, Reading.invalid(0, why));
            r.put(StatusPvCatalog.POOL_ITEMS, Reading.invalid(new TableBuilder(StatusPvCatalog.POOL_ITEMS).build(), why));
            return;
        }
        r.put(StatusPvCatalog.POOL_RESOURCES, Reading.of(p.resources().size()));
        int failover = 0;
        String first = null;
        TableBuilder t = new TableBuilder(StatusPvCatalog.POOL_ITEMS);
        for (PoolsSnapshot.PoolResource res : p.resources()) {
            for (PoolsSnapshot.PoolFamily f : res.families()) {
                if (f.failover()) {
                    failover++;
                    if (first == null) {
                        first = res.name() + " " + f.family();
                    }
                }
                boolean grouped = f.mode().startsWith("grouped");
                for (PoolsSnapshot.PoolGroup g : f.groups()) {
                    for (PoolsSnapshot.PoolItem it : g.items()) {
                        String label = it.label();
                        int slash = label.indexOf('/');
                        String item = grouped && slash >= 0 ? label.substring(slash + 1) : label;
                        t.row(res.name(), f.family(), grouped ? g.name() : "", item, it.target(), it.weight(),
                                it.monitoredDown() ? "DOWN" : "UP", it.forced(), it.down() ? "DOWN" : "UP",
                                it.probability());
                    }
                }
            }
        }
        r.put(StatusPvCatalog.POOL_FAILOVER, failover == 0 ? Reading.of(0)
                : Reading.alarm(failover, MAJOR, "pool " + first + " in failover"
                        + (failover > 1 ? " (and " + (failover - 1) + " more)" : "")));
        r.put(StatusPvCatalog.POOL_ITEMS, Reading.of(t.build()));
    }

    // ---------------------------------------------------------------- PVA

    private void pva(PvaSnapshot c, long now, Map<Def, Reading> r) {
        if (c == null || !c.running()) {
            String why = "PVA client not running";
            for (Def d : List.of(StatusPvCatalog.PVA_ONLINE, StatusPvCatalog.PVA_STALE, StatusPvCatalog.PVA_RESTARTS,
                    StatusPvCatalog.PVA_SEARCHING, StatusPvCatalog.PVA_DUPLICATES)) {
                r.put(d, Reading.invalid(0, why));
            }
            r.put(StatusPvCatalog.PVA_SERVERS, Reading.invalid(new TableBuilder(StatusPvCatalog.PVA_SERVERS).build(), why));
            r.put(StatusPvCatalog.PVA_CHANNELS, Reading.invalid(new TableBuilder(StatusPvCatalog.PVA_CHANNELS).build(), why));
            return;
        }
        int online = 0;
        int stale = 0;
        TableBuilder servers = new TableBuilder(StatusPvCatalog.PVA_SERVERS);
        Map<String, Long> seen = new HashMap<>();
        for (PvaDiscoveredServer s : c.servers()) {
            online += s.status() == PvaDiscoveredServer.Status.ONLINE ? 1 : 0;
            stale += s.status() == PvaDiscoveredServer.Status.STALE ? 1 : 0;
            String key = s.endpoint() + " " + s.protocol();
            long before = restartsSeen.getOrDefault(key, s.restarts());
            restartTotal += Math.max(0, s.restarts() - before);
            seen.merge(key, s.restarts(), Math::max);
            servers.row(s.guid(), s.endpoint(), s.protocol(), String.valueOf(s.firstSeen()),
                    String.valueOf(s.lastSeen()), s.beacons(), s.restarts(), s.status().name());
        }
        restartsSeen.clear();
        if (seen.size() <= MAX_REMEMBERED) {
            restartsSeen.putAll(seen);
        }
        r.put(StatusPvCatalog.PVA_ONLINE, Reading.of(online));
        r.put(StatusPvCatalog.PVA_STALE, Reading.of(stale));
        r.put(StatusPvCatalog.PVA_RESTARTS, Reading.of(clamp(restarts.observe(now, restartTotal))));
        r.put(StatusPvCatalog.PVA_SEARCHING, Reading.of(clamp(c.searching())));
        int dup = clamp(duplicates.observe(now, c.counters().duplicateClaims()));
        r.put(StatusPvCatalog.PVA_DUPLICATES, dup == 0 ? Reading.of(0)
                : Reading.alarm(dup, MINOR, dup + " duplicate claim" + (dup == 1 ? "" : "s") + " in the last hour"));
        r.put(StatusPvCatalog.PVA_SERVERS, Reading.of(servers.build()));
        TableBuilder channels = new TableBuilder(StatusPvCatalog.PVA_CHANNELS);
        for (var ch : c.channels()) {
            channels.row(ch.name(), ch.state(), ch.attempts(), ch.endpoint() == null ? "" : ch.endpoint());
        }
        r.put(StatusPvCatalog.PVA_CHANNELS, Reading.of(channels.build(clamp(c.channelCount()))));
    }
}
