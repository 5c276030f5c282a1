package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
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
 * The resolver's protocol state and the decisions of seed 000 §4.6: questions and their
 * candidates, upstream transactions with one deadline each, the attempt budget, the in-flight
 * ceiling, the demotion marks, the cache and local zones. What it decides it tells its
 * {@link ResolutionObserver} ({@link ResolverAccounting}: counters, statistics, events, traces),
 * which keeps the books; nothing here counts.
 */
final class Resolver {

    /* Concurrency: every field and method is confined to the engine loop. Socket callbacks
     * (UpstreamSockets.Listener) arrive on I/O threads and hop in with Scheduler.run (with a real
     * clock the I/O thread is the engine loop and the hop is a direct call); deadlines and the
     * marks' expiry are timers of the same scheduler. The shared parsed zones in `zones` are
     * immutable; only this instance's LocalZones memo is, like everything else, the loop's. */

    /** seed 000 §4.6.4: three upstream attempts per question. */
    static final int ATTEMPTS = 3;
    /** seed 000 §4.6.2/§4.6.4: two seconds per transaction, the TCP retry included. */
    static final long DEADLINE_NANOS = 2_000_000_000L;
    /** seed 000 §4.6.5. */
    static final int IN_FLIGHT_CEILING = 4096;
    /** RFC 8914 INFO-CODEs. */
    static final int EDE_OTHER = 0;
    static final int EDE_NO_REACHABLE_AUTHORITY = 22;

    private final Scheduler scheduler;
    private final RandomGenerator random;
    private final ResolutionObserver observer;
    private UpstreamSockets sockets;
    private final Supplier<DynamicRecords> dynamic;
    final DemotionMarks marks = new DemotionMarks();
    final DnsCache<Answer> cache;
    Routing routing;
    LocalZones zones;
    ResolverConfig config;
    int inFlightCeiling = IN_FLIGHT_CEILING;
    /** Whether the marks' expiry timer is pending (one for all marks, at the first end). */
    private boolean markTimerSet;
    /** Upstream transactions outstanding (seed 000 §4.6.5): a decision input, not a statistic. */
    int inFlight;

    Resolver(Scheduler scheduler, RandomGenerator random, ResolutionObserver observer, UpstreamSockets sockets,
             Supplier<DynamicRecords> dynamic, ResolverConfig config, Map<String, ZoneConfig> zoneConfigs) {
        this.scheduler = scheduler;
        this.random = random;
        this.observer = observer;
        this.sockets = sockets;
        this.dynamic = dynamic;
        this.config = config;
        this.routing = new Routing(config);
        this.zones = new LocalZones(zoneConfigs);
        this.cache = new DnsCache<>(config.cacheSize());
    }

    /** Tests: replaces the socket opener. */
    void sockets(UpstreamSockets s) {
        this.sockets = s;
    }

    // ------------------------------------------------------------------ questions

    /** One client question and where it stands in the seed 000 §4.6 sequence. */
    final class Question extends Resolution {
        final Reply reply;
        final Routing.Route[] routes;
        int candidate;
        int spent;
        int candidateAttempts;
        /** Servers asked for the current candidate; made on the first attempt (most questions are answered locally or from the cache). */
        Set<InetSocketAddress> asked = java.util.Collections.emptySet();
        Transaction txn;
        boolean done;

        Question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace, String[] candidates,
                 long startNanos) {
            super(q, client, onTrace, candidates, startNanos);
            this.reply = reply;
            this.routes = new Routing.Route[candidates.length];
            // SPEC: in-flight questions finish on the servers they started with
            for (int i = 0; i < candidates.length; i++) {
                routes[i] = routing.route(candidates[i]);
            }
        }
    }

    /** Answers {@code q}; {@code onTrace} (may be null) receives the trace when it is done. */
    void question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace) {
        observer.asked();
        String name = q.qname;
        if (q.qclass == RrType.IN && Synthetic.covers(name)) {
            observer.answeredLocally();
            Answer a = Synthetic.answer(name, q.qtype, q.qclass);
            reply.send(Responses.stamp(a.encoded, q, 0, -1, null));
            if (onTrace != null) {
                long now = scheduler.nanoTime();
                observer.answered(new Resolution(q, client, onTrace, new String[]{name}, now), a, "synthetic", now);
            }
            return;
        }
        boolean searched = !config.search().isEmpty() && Names.labelCount(name) == 1;
        if (!searched) {
            Zone z = zones.find(name);
            if (z != null && q.qclass == RrType.IN) {
                // fast path: a local zone answers the one candidate at once (the same as
                // tryCandidate → finish, without upstream state: no routes, no attempts)
                observer.answeredLocally();
                Answer a = zones.answer(z, name, q.qtype, q.qclass, dynamic.get());
                reply.send(Responses.stamp(a.encoded, q, 0, -1, null));
                long now = scheduler.nanoTime();
                observer.answered(new Resolution(q, client, onTrace, new String[]{name}, now), a, "zone", now);
                return;
            }
            // fast path: an exact cache hit for a name no local zone holds
            if (z == null && onTrace == null) {
                long now = scheduler.nanoTime();
                DnsCache.Entry<Answer> e = cache.get(new DnsCache.Key(name, q.qtype, q.qclass), now);
                if (e != null) {
                    observer.answeredFromCache();
                    reply.send(Responses.stamp(e.value().encoded, q, e.elapsedSeconds(now), -1, null));
                    return;
                }
            }
        }
        String[] candidates;
        // SPEC §Resolver: search domains apply to single-label names
        if (searched) {
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
        Question qn = new Question(q, reply, client, onTrace, candidates, scheduler.nanoTime());
        tryCandidate(qn);
    }

    private void tryCandidate(Question qn) {
        String cand = qn.candidates[qn.candidate];
        if (qn.q.qclass == RrType.IN) {
            Zone z = zones.find(cand);
            if (z != null) {
                observer.answeredLocally();
                candidateResult(qn, zones.answer(z, cand, qn.q.qtype, qn.q.qclass, dynamic.get()), 0, "zone", false);
                return;
            }
        }
        long now = scheduler.nanoTime();
        DnsCache.Entry<Answer> e = cache.get(new DnsCache.Key(cand, qn.q.qtype, qn.q.qclass), now);
        if (e != null) {
            // seed 000 §4.6.4: cached answers spend no attempt
            observer.answeredFromCache();
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
        Transaction t = new Transaction(qn, new Attempt(cand, server, tcpTo != null, now), random.nextInt(0x10000));
        qn.txn = t;
        inFlight++;
        t.deadline = scheduler.schedule(t::onDeadline, DEADLINE_NANOS, TimeUnit.NANOSECONDS);
        byte[] query = Queries.upstream(t.id, cand, qn.q.qtype, qn.q.qclass, qn.q.checkingDisabled());
        try {
            t.handle = t.tcp() ? sockets.tcp(server, query, t) : sockets.udp(server, query, t);
        } catch (Throwable e) {
            // §4.6.2: a synchronous failure to open; local resource errors do not demote
            t.fail(FailureKind.classify(e, t.tcp() ? FailureKind.TCP_CONNECT : FailureKind.SEND_ERROR), String.valueOf(e));
            return;
        }
        observer.sent(t.attempt);
    }

    /** One upstream transaction: one socket, one deadline, ended exactly once. */
    final class Transaction implements UpstreamSockets.Listener {
        final Question qn;
        final Attempt attempt;
        final int id;
        Scheduler.Cancellable deadline = Scheduler.Cancellable.NONE;
        UpstreamSockets.Handle handle;
        boolean ended;

        Transaction(Question qn, Attempt attempt, int id) {
            this.qn = qn;
            this.attempt = attempt;
            this.id = id;
        }

        boolean tcp() {
            return attempt.tcp();
        }

        InetSocketAddress server() {
            return attempt.server();
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

        /** seed 000 §4.6.2: the transaction failed; demote unless the fault is local, then the next attempt. */
        void fail(FailureKind kind, String detail) {
            if (ended) {
                return;
            }
            end();
            long now = scheduler.nanoTime();
            boolean demote = kind.demotes();
            boolean renewed = demote && demote(server(), now);
            observer.failed(qn, attempt, kind, detail, demote, now);
            if (demote) {
                observer.demoted(server(), kind, detail, renewed, now);
            }
            attempt(qn, null);
        }

        void onReply(byte[] m, InetSocketAddress from) {
            if (ended) {
                return;
            }
            // a reply matches on source, ID and question; anything else is ignored until the deadline
            if (!server().equals(from)) {
                return;
            }
            Message msg;
            try {
                msg = Message.decodeHeaderAndQuestion(m, m.length);
            } catch (WireException e) {
                return;
            }
            if (!msg.isResponse() || msg.id != id || msg.qdCount != 1 || !attempt.candidate().equals(msg.qname)
                    || msg.qtype != qn.q.qtype || msg.qclass != qn.q.qclass) {
                return;
            }
            long now = scheduler.nanoTime();
            if (!tcp() && msg.truncated()) {
                // §4.6.3: a TC reply leaves the mark alone; §4.6.4: TCP spends an attempt, none left → unavailable
                end();
                observer.truncated(qn, attempt, now);
                if (qn.spent >= ATTEMPTS) {
                    unavailableAnswer(qn, false, "truncated reply on the final attempt");
                } else {
                    attempt(qn, server());
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
            // §4.6.3: a used NOERROR/NXDOMAIN reply removes the server's mark at once
            boolean marked = marks.until(server()) != null;
            boolean restored = marked && marks.clear(server(), now);
            boolean movesOn = rcode == RrType.NXDOMAIN && qn.candidate + 1 < qn.candidates.length;
            observer.replied(qn, attempt, rcode, !movesOn, now);
            if (marked) {
                // a mark that ran out a moment ago, its expiry timer not yet run, ended by expiring
                observer.restored(server(), restored ? RrType.rcodeName(rcode) + " reply" : "mark expired", now);
            }
            String candidate = attempt.candidate();
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
        observer.answered(qn, out, source, scheduler.nanoTime());
    }

    private void unavailableAnswer(Question qn, boolean capacity, String why) {
        qn.done = true;
        // SPEC: unavailable and refused answer SERVFAIL, with an extended error when the client sent EDNS
        qn.reply.send(Responses.error(qn.q, RrType.SERVFAIL, capacity ? EDE_OTHER : EDE_NO_REACHABLE_AUTHORITY, why));
        observer.unavailable(qn, capacity, why, scheduler.nanoTime());
    }

    // ------------------------------------------------------------------ marks

    /** seed 000 §4.6.3: marks {@code server} for 30 s; true when the mark was renewed. */
    private boolean demote(InetSocketAddress server, long now) {
        boolean renewed = marks.demote(server, now);
        if (!markTimerSet) {
            // one timer for every mark, at the first to end: a dead server under load renews its
            // mark thousands of times a minute, and a timer each would be as many queued tasks
            armMarkTimer(DemotionMarks.MARK_NANOS);
        }
        return renewed;
    }

    private void armMarkTimer(long delay) {
        markTimerSet = true;
        scheduler.schedule(this::expireMarks, delay, TimeUnit.NANOSECONDS);
    }

    private void expireMarks() {
        markTimerSet = false;
        long now = scheduler.nanoTime();
        for (InetSocketAddress s : marks.expire(now)) {
            observer.restored(s, "mark expired", now);
        }
        Long next = marks.firstEnd();
        if (next != null) {
            armMarkTimer(Math.max(0, next - now));
        }
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
        observer.configured(configured);
    }
}
