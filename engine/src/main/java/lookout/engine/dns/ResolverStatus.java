package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.api.Metric;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.config.ResolverConfig;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.dns.listen.ListenerStatus;
import lookout.engine.dns.listen.Listeners;
import lookout.engine.dns.listen.LoopTrace;
import lookout.engine.net.HostPort;

/**
 * The resolver's part of the engine snapshot ({@link ResolverSnapshot}) and its metrics, built
 * from the resolver's state (marks, cache, in-flight), its {@link ResolverAccounting} and the
 * {@link Listeners}' counts; and the queries-per-second figure, ticked once a second.
 */
final class ResolverStatus {

    /* Concurrency: engine loop only — contribute() is called there by the engine's snapshot, tick()
     * by a scheduler timer there; everything read is the loop's or read through thread-safe
     * getters (the listeners' counters). */

    private final Scheduler scheduler;
    private final Resolver resolver;
    private final ResolverAccounting books;
    private final Listeners listeners;
    private long lastQueries;
    private double queriesPerSecond;

    ResolverStatus(Scheduler scheduler, Resolver resolver, ResolverAccounting books, Listeners listeners) {
        this.scheduler = scheduler;
        this.resolver = resolver;
        this.books = books;
        this.listeners = listeners;
    }

    /** Questions received: the resolver's and those answered on the listeners' fast path. */
    long queriesTotal() {
        return books.queries + listeners.fastAnswers();
    }

    /** Once a second: the questions of the second that ended. */
    void tick() {
        long q = queriesTotal();
        queriesPerSecond = q - lastQueries;
        lastQueries = q;
    }

    void contribute(SnapshotBuilder b) {
        Resolver r = resolver;
        ResolverAccounting a = books;
        ListenerStatus l = listeners.status();
        long now = scheduler.nanoTime();
        Instant wall = scheduler.now();
        List<ResolverSnapshot.Scope> scopes = scopes(r, now, wall);
        List<ResolverSnapshot.Upstream> ups = new ArrayList<>();
        for (Map.Entry<InetSocketAddress, UpstreamStats> e : a.upstreams.entrySet()) {
            UpstreamStats st = e.getValue();
            ups.add(new ResolverSnapshot.Upstream(HostPort.format(e.getKey()), st.sent, st.failed, st.replies,
                    st.percentile(0.50), st.percentile(0.99),
                    st.succeeded ? wall.minusNanos(now - st.lastSuccessNanos) : null,
                    st.failedOnce ? wall.minusNanos(now - st.lastFailureNanos) : null));
        }
        List<String> listen = l.bound().stream().map(HostPort::format).toList();
        long elsewhere = l.fastAnswers();
        List<PendingTrace> loopTraces = new ArrayList<>();
        for (LoopTrace t : l.recentAnswers()) {
            loopTraces.add(ResolverAccounting.answeredElsewhere(t.q(), t.a(), t.clientId(), t.startedAt(), t.endedAt()));
        }
        b.resolver(new ResolverSnapshot(listen, a.queries + elsewhere, a.cacheHits, r.cache.size(), r.cache.capacity(),
                a.localAnswers + elsewhere, a.sentUdp, a.sentTcp, new LinkedHashMap<>(a.upstreamFailed), a.refused,
                a.unavailable, a.demotions, l.malformed(), l.denied(), r.inFlight, r.inFlightCeiling, queriesPerSecond, scopes,
                ups, a.recentTraces(loopTraces), l.udpReceiveBuffer(), l.udpReceiveDrops(), a.staleAnswers, a.cnameChains,
                l.tcpClients(), l.tcpRejected(), zones(r)));
        metrics(b, r, a, l, elsewhere, ups, scopes);
    }

    /** The zone list of the last LocalZones seen: zones change only on reload, so it is built once per reload. */
    private lookout.engine.dns.answer.LocalZones zonesOf;
    private List<ResolverSnapshot.Zone> zoneList = List.of();

    /** The local zones: name, records, SOA serial; sorted by name. */
    private List<ResolverSnapshot.Zone> zones(Resolver r) {
        if (r.zones != zonesOf) {
            List<ResolverSnapshot.Zone> out = new ArrayList<>();
            for (lookout.engine.dns.zone.Zone z : r.zones.zones().values()) {
                int records = 0;
                int dynamic = 0;
                for (lookout.engine.dns.zone.Zone.Node n : z.nodes().values()) {
                    for (List<lookout.engine.dns.wire.Rr> set : n.rrsets().values()) {
                        records += set.size();
                    }
                    if (n.dyn() != null) {
                        dynamic++;
                    }
                }
                out.add(new ResolverSnapshot.Zone(z.origin(), records + dynamic, dynamic, serial(z.soa())));
            }
            out.sort(java.util.Comparator.comparing(ResolverSnapshot.Zone::name));
            zoneList = List.copyOf(out);
            zonesOf = r.zones;
        }
        return zoneList;
    }

    /** The SOA's serial: RDATA is MNAME, RNAME (uncompressed in a parsed zone), then the serial; -1 when none. */
    static long serial(lookout.engine.dns.wire.Rr soa) {
        if (soa == null) {
            return -1;
        }
        byte[] d = soa.rdata();
        int i = 0;
        for (int name = 0; name < 2; name++) {
            while (i < d.length && d[i] != 0) {
                if ((d[i] & 0xC0) == 0xC0) {
                    i++; // a pointer ends the name (never in a parsed zone, but read safely)
                    break;
                }
                i += (d[i] & 0x3F) + 1;
            }
            i++;
        }
        if (i + 4 > d.length) {
            return -1;
        }
        return ((d[i] & 0xFFL) << 24) | ((d[i + 1] & 0xFFL) << 16) | ((d[i + 2] & 0xFFL) << 8) | (d[i + 3] & 0xFFL);
    }

    /** Each scope's servers with their marks; the fallback servers last, their marks never shown. */
    private static List<ResolverSnapshot.Scope> scopes(Resolver r, long now, Instant wall) {
        List<ResolverSnapshot.Scope> scopes = new ArrayList<>();
        for (ResolverConfig.Scope s : r.config.scopes()) {
            List<ResolverSnapshot.Server> servers = new ArrayList<>();
            for (InetSocketAddress a : s.servers()) {
                long left = r.marks.remaining(a, now);
                servers.add(new ResolverSnapshot.Server(HostPort.format(a), left > 0,
                        left > 0 ? wall.plusNanos(left) : null, Duration.ofNanos(left)));
            }
            scopes.add(new ResolverSnapshot.Scope(s.name(), s.domains(), s.defaultScope(), false, servers));
        }
        if (!r.config.fallbackServers().isEmpty()) {
            // seed 000 §4.6.3: demotion of the fallback servers is not reported
            List<ResolverSnapshot.Server> servers = new ArrayList<>();
            for (InetSocketAddress a : r.config.fallbackServers()) {
                servers.add(new ResolverSnapshot.Server(HostPort.format(a), false, null, Duration.ZERO));
            }
            scopes.add(new ResolverSnapshot.Scope("fallback", List.of(), false, true, servers));
        }
        return scopes;
    }

    private void metrics(SnapshotBuilder b, Resolver r, ResolverAccounting a, ListenerStatus l, long elsewhere,
                         List<ResolverSnapshot.Upstream> ups, List<ResolverSnapshot.Scope> scopes) {
        b.metric(Metric.counter("lookout_resolver_queries_total", "Client questions received", a.queries + elsewhere));
        b.metric(Metric.counter("lookout_resolver_cache_hits_total", "Questions answered from the cache", a.cacheHits));
        b.metric(Metric.gauge("lookout_resolver_cache_entries", "Entries in the cache", r.cache.size()));
        b.metric(Metric.counter("lookout_resolver_local_answers_total", "Questions answered from local zones or synthetic names", a.localAnswers + elsewhere));
        b.metric(Metric.counter("lookout_resolver_fast_path_answers_total", "Local questions answered by a UDP listener on its own loop (all sockets)", elsewhere));
        b.metric(Metric.counter("lookout_resolver_answer_loop_answers_total",
                "Local questions answered off the engine loop (answer loops, natively read sockets)", l.loopAnswers()));
        b.metric(Metric.gauge("lookout_resolver_udp_threads", "UDP sockets per listen address, each on its own loop", l.udpThreads()));
        b.metric(Metric.gauge("lookout_resolver_udp_native", "1 when the UDP listeners are read natively (recvmmsg per socket thread), 0 through Netty",
                l.nativeReads() ? 1 : 0));
        b.metric(Metric.gauge("lookout_resolver_udp_native_on_engine_loop",
                "1 when the one UDP socket of each address is read natively on the engine loop itself (no reader thread)",
                l.nativeOnLoop() ? 1 : 0));
        b.metric(Metric.counter("lookout_resolver_udp_send_errors_total", "UDP answers the kernel would not send (natively read listeners)",
                l.udpSendErrors()));
        b.metric(new Metric("lookout_resolver_upstream_sent_total", "Upstream transactions sent", "counter", Map.of("transport", "udp"), a.sentUdp));
        b.metric(new Metric("lookout_resolver_upstream_sent_total", "Upstream transactions sent", "counter", Map.of("transport", "tcp"), a.sentTcp));
        for (Map.Entry<String, Long> e : a.upstreamFailed.entrySet()) {
            // the reasons are seed 000 §4.6.2's failures (FailureKind); the help text is for operators
            b.metric(new Metric("lookout_resolver_upstream_failed_total", "Upstream attempts that failed, by reason",
                    "counter", Map.of("reason", e.getKey()), e.getValue()));
        }
        b.metric(Metric.counter("lookout_resolver_refused_total", "Questions refused at the in-flight ceiling", a.refused));
        b.metric(Metric.counter("lookout_resolver_unavailable_total", "Questions answered unavailable (SERVFAIL)", a.unavailable));
        b.metric(Metric.counter("lookout_resolver_demotions_total", "Upstream demotions", a.demotions));
        b.metric(Metric.counter("lookout_resolver_malformed_total", "Client packets dropped or answered FORMERR", l.malformed()));
        b.metric(Metric.counter("lookout_resolver_internal_errors_total", "Client packets whose handling failed (a bug)", l.internalErrors()));
        if (l.udpReceiveDrops() >= 0) {
            b.metric(Metric.counter("lookout_resolver_udp_receive_drops_total",
                    "Client datagrams the kernel dropped before the resolver read them (a full receive buffer)", l.udpReceiveDrops()));
        }
        if (l.udpReceiveBuffer() >= 0) {
            b.metric(Metric.gauge("lookout_resolver_udp_receive_buffer_bytes",
                    "Receive buffer the kernel keeps for each UDP listener socket (the smallest)", l.udpReceiveBuffer()));
        }
        b.metric(Metric.counter("lookout_resolver_stale_answers_total",
                "Expired answers given because every upstream attempt failed (resolver.serve_stale)", a.staleAnswers));
        b.metric(Metric.counter("lookout_resolver_cname_chains_total", "Answers completed by following a CNAME", a.cnameChains));
        b.metric(Metric.gauge("lookout_resolver_tcp_clients", "Client TCP connections open", l.tcpClients()));
        b.metric(Metric.counter("lookout_resolver_tcp_rejected_total", "Client TCP connections closed at the limit", l.tcpRejected()));
        b.metric(Metric.counter("lookout_resolver_tcp_idle_closed_total", "Client TCP connections closed for being idle",
                l.tcpClosedIdle()));
        b.metric(Metric.counter("lookout_resolver_denied_total", "Clients outside resolver.allow", l.denied()));
        b.metric(Metric.gauge("lookout_resolver_in_flight", "Upstream transactions outstanding", r.inFlight));
        b.metric(Metric.gauge("lookout_resolver_queries_per_second", "Client questions in the last second", queriesPerSecond));
        for (ResolverSnapshot.Upstream u : ups) {
            b.metric(new Metric("lookout_resolver_upstream_latency_seconds", "Upstream reply latency", "gauge",
                    Map.of("upstream", u.address(), "quantile", "0.5"), u.latencyP50().toNanos() / 1e9));
            b.metric(new Metric("lookout_resolver_upstream_latency_seconds", "Upstream reply latency", "gauge",
                    Map.of("upstream", u.address(), "quantile", "0.99"), u.latencyP99().toNanos() / 1e9));
        }
        for (ResolverSnapshot.Scope s : scopes) {
            if (s.fallback()) {
                continue;
            }
            for (ResolverSnapshot.Server sv : s.servers()) {
                b.metric(new Metric("lookout_resolver_upstream_demoted", "1 while the server's demotion mark runs",
                        "gauge", Map.of("scope", s.name(), "upstream", sv.address()), sv.demoted() ? 1 : 0));
            }
        }
    }
}
