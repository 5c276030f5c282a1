package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.config.ResolverConfig;
import lookout.engine.config.ZoneConfig;
import lookout.engine.seams.DynamicRecords;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.answer.Synthetic;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.upstream.DemotionMarks;
import lookout.engine.dns.upstream.FailureKind;
import lookout.engine.dns.upstream.ServerChoice;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Queries;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import lookout.engine.dns.zone.Zone;

/**
 * The resolver's protocol state: questions, their upstream transactions (seed 000 §4.6), the
 * demotion marks, the cache, local zones and counters.
 *
 * <p>Concurrency: every field and method is confined to the engine loop. Socket callbacks arrive
 * on I/O threads and hop in with {@link Scheduler#run(Runnable)} (with a real clock the I/O thread
 * is the engine loop and the hop is a direct call).
 */
final class Resolver {

    /** seed 000 §4.6.4: three upstream attempts per question. */
    static final int ATTEMPTS = 3;
    /** seed 000 §4.6.2/§4.6.4: two seconds per transaction, the TCP retry included. */
    static final long DEADLINE_NANOS = 2_000_000_000L;
    /** seed 000 §4.6.5. */
    static final int IN_FLIGHT_CEILING = 4096;
    private static final int RECENT_TRACES = 200;
    /** RFC 8914 INFO-CODEs. */
    static final int EDE_OTHER = 0;
    static final int EDE_NO_REACHABLE_AUTHORITY = 22;

    private final Scheduler scheduler;
    private final RandomGenerator random;
    private final Consumer<EngineEvent> publish;
    private UpstreamSockets sockets;
    private final Supplier<DynamicRecords> dynamic;
    final DemotionMarks marks = new DemotionMarks();
    final DnsCache<Answer> cache;
    Routing routing;
    LocalZones zones;
    ResolverConfig config;
    int inFlightCeiling = IN_FLIGHT_CEILING;

    // counters (engine loop)
    int inFlight;
    long queries;
    long cacheHits;
    long localAnswers;
    long sentUdp;
    long sentTcp;
    long refused;
    long unavailable;
    long demotions;
    final Map<String, Long> upstreamFailed = new LinkedHashMap<>();
    final Map<InetSocketAddress, UpstreamStats> upstreams = new LinkedHashMap<>();
    final ArrayDeque<PendingTrace> recent = new ArrayDeque<>();

    Resolver(Scheduler scheduler, RandomGenerator random, Consumer<EngineEvent> publish, UpstreamSockets sockets,
             Supplier<DynamicRecords> dynamic, ResolverConfig config, Map<String, ZoneConfig> zoneConfigs) {
        this.scheduler = scheduler;
        this.random = random;
        this.publish = publish;
        this.sockets = sockets;
        this.dynamic = dynamic;
        this.config = config;
        this.routing = new Routing(config);
        this.zones = new LocalZones(zoneConfigs);
        this.cache = new DnsCache<>(config.cacheSize());
        for (FailureKind k : FailureKind.values()) {
            upstreamFailed.put(k.label, 0L);
        }
    }

    /** Tests: replaces the socket opener. */
    void sockets(UpstreamSockets s) {
        this.sockets = s;
    }

    // ------------------------------------------------------------------ questions

    /** One client question and where it stands in the seed 000 §4.6 sequence. */
    final class Question {
        final ClientQuery q;
        final Reply reply;
        final Object client;
        final Consumer<ResolveTrace> onTrace;
        final String[] candidates;
        final Routing.Route[] routes;
        final long startNanos;
        int candidate;
        int spent;
        int candidateAttempts;
        /** Servers asked for the current candidate; made on the first attempt (most questions are answered locally or from the cache). */
        Set<InetSocketAddress> asked = java.util.Collections.emptySet();
        Transaction txn;
        List<AttemptRecord> attempts;
        boolean done;

        Question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace, String[] candidates) {
            this(q, reply, client, onTrace, candidates, true);
        }

        /** {@code routed} false: a question answered locally at once, which never goes upstream. */
        Question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace, String[] candidates,
                 boolean routed) {
            this(q, reply, client, onTrace, candidates, routed, scheduler.nanoTime());
        }

        Question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace, String[] candidates,
                 boolean routed, long startNanos) {
            this.startNanos = startNanos;
            this.q = q;
            this.reply = reply;
            this.client = client;
            this.onTrace = onTrace;
            this.candidates = candidates;
            this.routes = routed ? new Routing.Route[candidates.length] : null;
            // SPEC: in-flight questions finish on the servers they started with
            for (int i = 0; routed && i < candidates.length; i++) {
                routes[i] = routing.route(candidates[i]);
            }
        }
    }

    /** Answers {@code q}; {@code onTrace} (may be null) receives the trace when it is done. */
    void question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace) {
        queries++;
        String name = q.qname;
        if (q.qclass == RrType.IN && Synthetic.covers(name)) {
            localAnswers++;
            Answer a = Synthetic.answer(name, q.qtype, q.qclass);
            reply.send(Responses.stamp(a.encoded, q, 0, -1, null));
            if (onTrace != null) {
                onTrace.accept(build(new PendingTrace(new Question(q, reply, client, null, new String[]{name}), a, "synthetic",
                        "answered", scheduler.nanoTime())));
            }
            return;
        }
        boolean searched = !config.search().isEmpty() && Names.labelCount(name) == 1;
        if (!searched) {
            Zone z = zones.find(name);
            if (z != null && q.qclass == RrType.IN) {
                // fast path: a local zone answers the one candidate at once (the same as
                // tryCandidate → finish, without upstream state: no routes, no attempts)
                localAnswers++;
                Answer a = zones.answer(z, name, q.qtype, q.qclass, dynamic.get());
                reply.send(Responses.stamp(a.encoded, q, 0, -1, null));
                Question qn = new Question(q, reply, client, onTrace, new String[]{name}, false);
                qn.done = true;
                PendingTrace t = new PendingTrace(qn, a, "zone", "answered", scheduler.nanoTime());
                keep(t);
                if (onTrace != null) {
                    onTrace.accept(build(t));
                }
                return;
            }
            // fast path: an exact cache hit for a name no local zone holds
            if (z == null && onTrace == null) {
                long now = scheduler.nanoTime();
                DnsCache.Entry<Answer> e = cache.get(new DnsCache.Key(name, q.qtype, q.qclass), now);
                if (e != null) {
                    cacheHits++;
                    reply.send(Responses.stamp(e.value().encoded, q, e.elapsedSeconds(now), -1, null));
                    return;
                }
            }
        }
        String[] candidates;
        // SPEC §Resolver: search domains apply to single-label names
        if (!config.search().isEmpty() && Names.labelCount(name) == 1) {
            List<String> c = new ArrayList<>();
            for (String s : config.search()) {
                String d = Names.normalize(s);
                String cand = d == null ? null : Names.normalize(name + (d.equals(".") ? "" : d));
                if (cand != null) {
                    c.add(cand);
                }
            }
            candidates = c.isEmpty() ? new String[]{name} : c.toArray(new String[0]);
        } else {
            candidates = new String[]{name};
        }
        Question qn = new Question(q, reply, client, onTrace, candidates);
        tryCandidate(qn);
    }

    private void tryCandidate(Question qn) {
        String cand = qn.candidates[qn.candidate];
        if (qn.q.qclass == RrType.IN) {
            Zone z = zones.find(cand);
            if (z != null) {
                localAnswers++;
                candidateResult(qn, zones.answer(z, cand, qn.q.qtype, qn.q.qclass, dynamic.get()), 0, "zone", false);
                return;
            }
        }
        long now = scheduler.nanoTime();
        DnsCache.Entry<Answer> e = cache.get(new DnsCache.Key(cand, qn.q.qtype, qn.q.qclass), now);
        if (e != null) {
            // seed 000 §4.6.4: cached answers spend no attempt
            cacheHits++;
            candidateResult(qn, e.value(), e.elapsedSeconds(now), "cache", false);
            return;
        }
        if (qn.routes[qn.candidate].servers().isEmpty()) {
            // SPEC: an empty server list is unavailable at once, not counted as refused
            unavailableAnswer(qn, false, "no upstream servers for " + cand);
            return;
        }
        attempt(qn, null);
    }

    /** seed 000 §4.6.1, §4.6.4, §4.6.5: the next attempt, or the end of the question. */
    private void attempt(Question qn, InetSocketAddress tcpTo) {
        if (qn.done) {
            return;
        }
        // §4.6.5: the budget is checked before the ceiling, and is not a capacity refusal
        if (qn.spent >= ATTEMPTS) {
            unavailableAnswer(qn, false, "all " + ATTEMPTS + " upstream attempts failed");
            return;
        }
        if (inFlight >= inFlightCeiling) {
            unavailableAnswer(qn, true, inFlight + " upstream transactions outstanding (ceiling " + inFlightCeiling + ")");
            return;
        }
        long now = scheduler.nanoTime();
        Routing.Route route = qn.routes[qn.candidate];
        InetSocketAddress server = tcpTo != null ? tcpTo
                : ServerChoice.next(marks.order(route.servers(), now), qn.asked, qn.candidateAttempts);
        qn.spent++;
        qn.candidateAttempts++;
        if (qn.asked.isEmpty()) {
            qn.asked = new HashSet<>(4);
        }
        qn.asked.add(server);
        String cand = qn.candidates[qn.candidate];
        Transaction t = new Transaction(qn, server, tcpTo != null, random.nextInt(0x10000), cand, now);
        qn.txn = t;
        inFlight++;
        t.deadline = scheduler.schedule(t::onDeadline, DEADLINE_NANOS, TimeUnit.NANOSECONDS);
        byte[] query = Queries.upstream(t.id, cand, qn.q.qtype, qn.q.qclass, (qn.q.flags & Message.CD) != 0);
        UpstreamStats st = stats(server);
        try {
            t.handle = t.tcp ? sockets.tcp(server, query, t) : sockets.udp(server, query, t);
        } catch (Throwable e) {
            // §4.6.2: a synchronous failure to open; local resource errors do not demote
            t.fail(FailureKind.classify(e, t.tcp ? FailureKind.TCP_CONNECT : FailureKind.SEND_ERROR), String.valueOf(e));
            return;
        }
        if (t.tcp) {
            sentTcp++;
        } else {
            sentUdp++;
        }
        st.sent++;
    }

    /** One upstream transaction: one socket, one deadline, ended exactly once. */
    final class Transaction implements UpstreamSockets.Listener {
        final Question qn;
        final InetSocketAddress server;
        final boolean tcp;
        final int id;
        final String candidate;
        final long sentAt;
        Scheduler.Cancellable deadline = Scheduler.Cancellable.NONE;
        UpstreamSockets.Handle handle;
        boolean ended;

        Transaction(Question qn, InetSocketAddress server, boolean tcp, int id, String candidate, long sentAt) {
            this.qn = qn;
            this.server = server;
            this.tcp = tcp;
            this.id = id;
            this.candidate = candidate;
            this.sentAt = sentAt;
        }

        @Override
        public void reply(byte[] message, InetSocketAddress from) {
            scheduler.run(() -> onReply(message, from));
        }

        @Override
        public void failed(Throwable cause, FailureKind phase) {
            scheduler.run(() -> {
                if (!ended) {
                    fail(FailureKind.classify(cause, phase), String.valueOf(cause));
                }
            });
        }

        void onDeadline() {
            if (!ended) {
                fail(FailureKind.TIMEOUT, "no matching reply within 2 s");
            }
        }

        private void end() {
            ended = true;
            deadline.cancel();
            if (handle != null) {
                handle.close();
            }
            inFlight--;
            qn.txn = null;
        }

        void fail(FailureKind kind, String detail) {
            if (ended) {
                return;
            }
            end();
            long now = scheduler.nanoTime();
            upstreamFailed.merge(kind.label, 1L, Long::sum);
            UpstreamStats st = stats(server);
            st.failed++;
            st.lastFailureNanos = now;
            st.failedOnce = true;
            boolean demote = kind.demotes();
            if (demote) {
                demote(server, kind.label + (detail == null ? "" : ": " + detail), now);
            }
            record(this, kind.label + (detail == null ? "" : ": " + detail), true, demote, now);
            attempt(qn, null);
        }

        void onReply(byte[] m, InetSocketAddress from) {
            if (ended) {
                return;
            }
            // a reply matches on source, ID and question; anything else is ignored until the deadline
            if (!server.equals(from)) {
                return;
            }
            Message msg;
            try {
                msg = Message.decodeHeaderAndQuestion(m, m.length);
            } catch (WireException e) {
                return;
            }
            if (!msg.isResponse() || msg.id != id || msg.qdCount != 1 || !candidate.equals(msg.qname)
                    || msg.qtype != qn.q.qtype || msg.qclass != qn.q.qclass) {
                return;
            }
            long now = scheduler.nanoTime();
            if (!tcp && msg.truncated()) {
                // §4.6.3: a TC reply leaves the mark alone; §4.6.4: TCP spends an attempt, none left → unavailable
                end();
                stats(server).replied(now - sentAt);
                record(this, "TC", true, false, now);
                if (qn.spent >= ATTEMPTS) {
                    unavailableAnswer(qn, false, "truncated reply on the final attempt");
                } else {
                    attempt(qn, server);
                }
                return;
            }
            try {
                Message.decodeRecords(m, m.length, msg);
            } catch (WireException e) {
                // seed 004: a reply that cannot be parsed past its question fails like SERVFAIL
                fail(FailureKind.MALFORMED, e.getMessage());
                return;
            }
            int rcode = msg.rcode();
            if (rcode != RrType.NOERROR && rcode != RrType.NXDOMAIN) {
                fail(FailureKind.RCODE, RrType.rcodeName(rcode));
                return;
            }
            end();
            UpstreamStats st = stats(server);
            st.replied(now - sentAt);
            st.lastSuccessNanos = now;
            st.succeeded = true;
            if (marks.clear(server, now)) {
                publish.accept(new EngineEvent.UpstreamRestored(scheduler.now(), address(server),
                        RrType.rcodeName(rcode) + " reply"));
            }
            boolean movesOn = rcode == RrType.NXDOMAIN && qn.candidate + 1 < qn.candidates.length;
            record(this, RrType.rcodeName(rcode), !movesOn, false, now);
            Answer a = Answer.upstream(candidate, qn.q.qtype, qn.q.qclass, rcode, msg.answer, msg.authority,
                    msg.additional);
            cache.put(new DnsCache.Key(candidate, qn.q.qtype, qn.q.qclass), a, a.cacheTtl(), now);
            candidateResult(qn, a, 0, "upstream", true);
        }
    }

    private void candidateResult(Question qn, Answer a, long elapsedSeconds, String source, boolean fromUpstream) {
        if (a.nxdomain() && qn.candidate + 1 < qn.candidates.length) {
            // §4.6.4: a candidate's NXDOMAIN is an answer, not a failure: it spends no attempt
            if (fromUpstream) {
                qn.spent--;
            }
            qn.candidate++;
            qn.candidateAttempts = 0;
            qn.asked.clear();
            tryCandidate(qn);
            return;
        }
        finish(qn, a, elapsedSeconds, source);
    }

    private void finish(Question qn, Answer a, long elapsedSeconds, String source) {
        qn.done = true;
        String cand = qn.candidates[qn.candidate];
        Answer out = a;
        long elapsed = elapsedSeconds;
        if (!cand.equals(qn.q.qname)) {
            // SPEC: success answers with a CNAME from the asked name to the candidate, then its records
            if (a.nxdomain()) {
                out = new Answer(qn.q.qname, qn.q.qtype, qn.q.qclass, RrType.NXDOMAIN, false, List.of(), List.of(), List.of());
            } else {
                List<Rr> an = new ArrayList<>();
                long ttl = Math.max(0, a.minAnswerTtl() - elapsedSeconds);
                an.add(new Rr(qn.q.qname, RrType.CNAME, RrType.IN, ttl, Names.toWire(cand)));
                for (Rr r : a.answer()) {
                    an.add(r.withTtl(Math.max(0, r.ttl() - elapsedSeconds)));
                }
                List<Rr> ns = new ArrayList<>();
                for (Rr r : a.authority()) {
                    ns.add(r.withTtl(Math.max(0, r.ttl() - elapsedSeconds)));
                }
                out = new Answer(qn.q.qname, qn.q.qtype, qn.q.qclass, a.rcode, false, an, ns, List.of());
            }
            elapsed = 0;
        }
        qn.reply.send(Responses.stamp(out.encoded, qn.q, elapsed, -1, null));
        if (qn.onTrace != null || qn.attempts != null || source.equals("zone")) {
            PendingTrace t = new PendingTrace(qn, out, source, "answered", scheduler.nanoTime());
            keep(t);
            if (qn.onTrace != null) {
                qn.onTrace.accept(build(t));
            }
        }
    }

    private void unavailableAnswer(Question qn, boolean capacity, String why) {
        qn.done = true;
        unavailable++;
        if (capacity) {
            refused++;
        }
        // SPEC: unavailable and refused answer SERVFAIL, with an extended error when the client sent EDNS
        qn.reply.send(Responses.error(qn.q, RrType.SERVFAIL, capacity ? EDE_OTHER : EDE_NO_REACHABLE_AUTHORITY, why));
        PendingTrace t = new PendingTrace(qn, null, "none", capacity ? "refused: " + why : "unavailable: " + why,
                scheduler.nanoTime());
        keep(t);
        if (qn.onTrace != null) {
            qn.onTrace.accept(build(t));
        }
    }

    // ------------------------------------------------------------------ marks

    private void demote(InetSocketAddress server, String reason, long now) {
        boolean renewed = marks.demote(server, now);
        demotions++;
        Instant until = scheduler.now().plusNanos(DemotionMarks.MARK_NANOS);
        publish.accept(new EngineEvent.UpstreamDemoted(scheduler.now(), address(server), reason, until, renewed));
        scheduler.schedule(this::expireMarks, DemotionMarks.MARK_NANOS, TimeUnit.NANOSECONDS);
    }

    private void expireMarks() {
        for (InetSocketAddress s : marks.expire(scheduler.nanoTime())) {
            publish.accept(new EngineEvent.UpstreamRestored(scheduler.now(), address(s), "mark expired"));
        }
    }

    // ------------------------------------------------------------------ traces and stats

    /**
     * One ended transaction, kept raw: traces are built only when someone looks (snapshot, resolve
     * command), so the hot path formats nothing.
     */
    record AttemptRecord(String candidate, InetSocketAddress server, boolean tcp, String result, long sentAt,
                         long endedAt, boolean spent, boolean demoted) {
    }

    /** A finished question waiting to be turned into a {@link ResolveTrace}. */
    record PendingTrace(Question qn, Answer answer, String source, String outcome, long endedAt) {
    }

    private void record(Transaction t, String result, boolean spent, boolean demoted, long now) {
        Question qn = t.qn;
        if (qn.attempts == null) {
            qn.attempts = new ArrayList<>(4);
        }
        qn.attempts.add(new AttemptRecord(t.candidate, t.server, t.tcp, result, t.sentAt, now, spent, demoted));
    }

    /** The recent traces, oldest first (engine loop; builds them now). */
    /**
     * The recent traces, with {@code elsewhere} (zone answers given on answer loops) merged in by
     * the time they ended; the newest {@link #RECENT_TRACES} in all.
     */
    List<ResolveTrace> recentTraces(List<PendingTrace> elsewhere) {
        List<PendingTrace> all = new ArrayList<>(recent);
        if (!elsewhere.isEmpty()) {
            all.addAll(elsewhere);
            all.sort(java.util.Comparator.comparingLong(PendingTrace::endedAt));
        }
        List<ResolveTrace> out = new ArrayList<>(Math.min(all.size(), RECENT_TRACES));
        for (PendingTrace p : all.subList(Math.max(0, all.size() - RECENT_TRACES), all.size())) {
            out.add(build(p));
        }
        return out;
    }

    /** A zone answer an answer loop gave, as a trace (engine loop, when a snapshot is built). */
    PendingTrace answeredElsewhere(ClientQuery q, Answer a, Object client, long startedAt, long endedAt) {
        Question qn = new Question(q, r -> { }, client, null, new String[]{q.qname}, false, startedAt);
        qn.done = true;
        return new PendingTrace(qn, a, "zone", "answered", endedAt);
    }

    ResolveTrace build(PendingTrace p) {
        Question qn = p.qn();
        Answer a = p.answer();
        String outcome = p.outcome();
        List<String> records = new ArrayList<>();
        String rcode = "SERVFAIL";
        if (a != null) {
            rcode = RrType.rcodeName(a.rcode);
            for (Rr r : a.answer()) {
                records.add(Presentation.rr(r));
            }
            if (a.answer().isEmpty()) {
                for (Rr r : a.authority()) {
                    records.add(Presentation.rr(r));
                }
            }
        }
        Duration elapsed = Duration.ofNanos(p.endedAt() - qn.startNanos);
        List<ResolveTrace.Attempt> attempts = new ArrayList<>();
        if (qn.attempts != null) {
            for (AttemptRecord r : qn.attempts) {
                attempts.add(new ResolveTrace.Attempt(r.candidate(), address(r.server()), r.tcp() ? "tcp" : "udp",
                        r.result(), Duration.ofNanos(r.sentAt() - qn.startNanos), Duration.ofNanos(r.endedAt() - r.sentAt()),
                        r.spent(), r.demoted()));
            }
        }
        Instant startedAt = scheduler.now().minusNanos(scheduler.nanoTime() - qn.startNanos);
        String type = RrType.name(qn.q.qtype);
        String summary = qn.q.qname + " " + type + " → " + rcode + " from " + p.source() + " (" + attempts.size()
                + " upstream attempt" + (attempts.size() == 1 ? "" : "s") + ", " + elapsed.toMillis() + " ms)"
                + (outcome.equals("answered") ? "" : "; " + outcome);
        String shortOutcome = outcome.startsWith("refused") ? "refused" : outcome.startsWith("unavailable") ? "unavailable" : outcome;
        return new ResolveTrace(qn.q.qname, type, String.valueOf(qn.client), startedAt, List.of(qn.candidates), attempts,
                p.source(), rcode, shortOutcome, records, elapsed, summary);
    }

    private void keep(PendingTrace t) {
        if (recent.size() == RECENT_TRACES) {
            recent.removeFirst();
        }
        recent.addLast(t);
    }

    UpstreamStats stats(InetSocketAddress s) {
        return upstreams.computeIfAbsent(s, k -> new UpstreamStats());
    }

    /** Sent, failed and a window of recent reply latencies for one address. */
    static final class UpstreamStats {
        long sent;
        long failed;
        long replies;
        /** Scheduler nanoTime of the last NOERROR/NXDOMAIN reply / failed attempt; meaningful once succeeded / failedOnce. */
        long lastSuccessNanos;
        long lastFailureNanos;
        boolean succeeded;
        boolean failedOnce;
        final long[] window = new long[512];

        void replied(long nanos) {
            window[(int) (replies++ % window.length)] = nanos;
        }

        Duration percentile(double p) {
            int n = (int) Math.min(replies, window.length);
            if (n == 0) {
                return Duration.ZERO;
            }
            long[] copy = java.util.Arrays.copyOf(window, n);
            java.util.Arrays.sort(copy);
            int idx = (int) Math.ceil(p * n) - 1;
            return Duration.ofNanos(copy[Math.max(0, Math.min(n - 1, idx))]);
        }
    }

    static String address(InetSocketAddress s) {
        String h = s.getAddress().getHostAddress();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + s.getPort();
    }

    // ------------------------------------------------------------------ reload

    /**
     * Live reload: questions in flight keep their captured routes; marks stay with addresses still
     * configured; cached names whose routing changed are dropped, the rest survive.
     */
    void reconfigure(ResolverConfig after, Map<String, ZoneConfig> zoneConfigs) {
        Routing old = routing;
        Routing now = new Routing(after);
        routing = now;
        zones = new LocalZones(zoneConfigs);
        config = after;
        cache.resize(after.cacheSize());
        cache.removeIf(k -> !old.route(k.name()).equals(now.route(k.name())));
        Set<InetSocketAddress> configured = new HashSet<>(after.fallbackServers());
        for (ResolverConfig.Scope s : after.scopes()) {
            configured.addAll(s.servers());
        }
        marks.retainOnly(configured);
    }
}
