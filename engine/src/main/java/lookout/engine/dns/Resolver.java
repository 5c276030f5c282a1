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
import lookout.engine.dns.upstream.Deadlines;
import lookout.engine.dns.upstream.DemotionMarks;
import lookout.engine.dns.upstream.FailureKind;
import lookout.engine.dns.upstream.QueryIds;
import lookout.engine.dns.upstream.ServerChoice;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
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
    private final ResolutionObserver observer;
    private UpstreamSockets sockets;
    private final Supplier<DynamicRecords> dynamic;
    final DemotionMarks marks = new DemotionMarks();
    final DnsCache<Answer> cache;
    Routing routing;
    LocalZones zones;
    ResolverConfig config;
    int inFlightCeiling = IN_FLIGHT_CEILING;
    /** Random transaction IDs (RFC 5452), drawn a buffer at a time. */
    private final QueryIds ids;
    /** Every transaction's deadline, in the order set; one timer for them ({@link #expireDeadlines}). */
    private final Deadlines<Transaction> deadlines = new Deadlines<>();
    private boolean deadlineTimerSet;
    /** What the last reply's records came to (engine loop; one reply at a time). */
    private final Message.Scan scan = new Message.Scan();
    /** Whether the marks' expiry timer is pending (one for all marks, at the first end). */
    private boolean markTimerSet;
    /** Upstream transactions outstanding (seed 000 §4.6.5): a decision input, not a statistic. */
    int inFlight;

    Resolver(Scheduler scheduler, RandomGenerator random, ResolutionObserver observer, UpstreamSockets sockets,
             Supplier<DynamicRecords> dynamic, ResolverConfig config, Map<String, ZoneConfig> zoneConfigs) {
        this.scheduler = scheduler;
        this.ids = new QueryIds(random);
        this.observer = observer;
        this.sockets = sockets;
        this.dynamic = dynamic;
        this.config = config;
        this.routing = new Routing(config);
        this.zones = new LocalZones(zoneConfigs);
        this.cache = new DnsCache<>(config.cacheSize(), Answer.CACHED);
        cache.keepStale(config.serveStale() * 1_000_000_000L);
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
        /** The name asked now: the current search candidate, or the target of a CNAME being followed. */
        String name;
        Routing.Route route;
        /** The CNAME chain being followed for the client (RFC 1034 §4.3.2 step 3a), or null. */
        CnameChain chain;
        /** An RFC 8767 stale answer went into it (resolver.serve_stale). */
        boolean stale;

        Question(ClientQuery q, Reply reply, Object client, Consumer<ResolveTrace> onTrace, String[] candidates,
                 long startNanos) {
            super(q, client, onTrace, candidates, startNanos);
            this.reply = reply;
            this.routes = new Routing.Route[candidates.length];
            // SPEC: in-flight questions finish on the servers they started with
            for (int i = 0; i < candidates.length; i++) {
                routes[i] = routing.route(candidates[i]);
            }
            name = candidates[0];
            route = routes[0];
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
                // tryCandidate → finish, without upstream state: no routes, no attempts), unless
                // its answer is a CNAME to follow
                observer.answeredLocally();
                Answer a = zones.answer(z, name, q.qtype, q.qclass, dynamic.get());
                if (a.danglingTarget() != null) {
                    finish(new Question(q, reply, client, onTrace, new String[]{name}, scheduler.nanoTime()), a, 0, "zone");
                    return;
                }
                reply.send(Responses.stamp(a.encoded, q, 0, -1, null));
                long now = scheduler.nanoTime();
                observer.answered(new Resolution(q, client, onTrace, new String[]{name}, now), a, "zone", now);
                return;
            }
            // fast path: an exact cache hit for a name no local zone holds (and no CNAME to follow)
            if (z == null && onTrace == null) {
                long now = scheduler.nanoTime();
                DnsCache.Entry<Answer> e = cache.get(new DnsCache.Key(name, q.qtype, q.qclass), now);
                if (e != null && e.value().danglingTarget() == null) {
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

    /**
     * {@link #question}'s cache hit for a UDP query of the usual shape, answered without decoding
     * it: the same conditions (class IN — {@link PlainQuery} reads no other —, not a synthetic
     * name, no search candidates, no local zone, a live entry without a CNAME to follow, no trace
     * asked for: clients' hits are not traced), the same counts, the same bytes, written into
     * {@code out}. Returns their length, or -1 when {@link #question} is to have it — also for an
     * answer that must be cut for the client (TC), which {@link Responses#stamp} does. Nothing is
     * counted unless the answer is given here; a declined hit has only touched the entry's place
     * in the LRU order, as {@link #question} touches it again.
     */
    int answerCached(PlainQuery q, DnsCache.Key key, byte[] out) {
        String name = key.name();
        if (Synthetic.covers(name) || (!config.search().isEmpty() && Names.labelCount(name) == 1) || zones.find(name) != null) {
            return -1;
        }
        long now = scheduler.nanoTime();
        int slot = cache.find(key, now);
        if (slot < 0) {
            return -1;
        }
        // stamped from the cached bytes: no answer made for a hit
        int n = Answer.stampCached(out, cache.blob(slot), cache.valueAt(slot), q,
                (now - cache.storedAt(slot)) / 1_000_000_000L);
        if (n < 0) {
            return -1;
        }
        observer.asked();
        observer.answeredFromCache();
        return n;
    }

    private void tryCandidate(Question qn) {
        qn.name = qn.candidates[qn.candidate];
        qn.route = qn.routes[qn.candidate];
        tryName(qn);
    }

    /** The name asked now ({@link Question#name}): a local zone, the cache, else upstream. */
    private void tryName(Question qn) {
        String cand = qn.name;
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
        if (qn.route.servers().isEmpty()) {
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
            attemptsFailed(qn, "all " + ATTEMPTS + " upstream attempts failed");
            return;
        }
        if (inFlight >= inFlightCeiling) {
            unavailableAnswer(qn, true, inFlight + " upstream transactions outstanding (ceiling " + inFlightCeiling + ")");
            return;
        }
        long now = scheduler.nanoTime();
        List<InetSocketAddress> servers = qn.route.servers();
        InetSocketAddress server;
        if (tcpTo != null) {
            server = tcpTo;
        } else if (servers.size() == 1) {
            server = servers.get(0); // §4.6.1: with one server, all three attempts go to it
        } else {
            server = ServerChoice.next(marks.order(servers, now), qn.asked, qn.candidateAttempts);
            if (qn.asked.isEmpty()) {
                qn.asked = new HashSet<>(4);
            }
            qn.asked.add(server);
        }
        qn.spent++;
        qn.candidateAttempts++;
        String cand = qn.name;
        Transaction t = new Transaction(qn, new Attempt(cand, server, tcpTo != null, now), ids.next());
        qn.txn = t;
        inFlight++;
        t.deadline = deadlines.add(t, now + DEADLINE_NANOS);
        if (!deadlineTimerSet) {
            armDeadlineTimer(now);
        }
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
        /** Its entry in {@link #deadlines}. */
        long deadline = -1;
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
            deadlines.remove(deadline);
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
                    attemptsFailed(qn, "truncated reply on the final attempt");
                } else {
                    attempt(qn, server());
                }
                return;
            }
            try {
                Message.scanRecords(m, m.length, msg, scan);
                if (!scan.keepable()) {
                    Message.decodeRecords(m, m.length, msg);
                }
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
            boolean marked = marks.hasMark(server());
            boolean restored = marked && marks.clear(server(), now);
            String candidate = attempt.candidate();
            // kept on the wire as it came, unless it carries a CNAME (its chain is read: it may be followed)
            Answer a = scan.keepable()
                    ? Answer.upstreamWire(candidate, qn.q.qtype, qn.q.qclass, rcode, Encoded.ofReply(m, m.length, scan, rcode), scan)
                    : Answer.upstream(candidate, qn.q.qtype, qn.q.qclass, rcode, msg.answer, msg.authority, msg.additional);
            boolean movesOn = rcode == RrType.NXDOMAIN && qn.chain == null && qn.candidate + 1 < qn.candidates.length;
            // a reply that moves the question on — a candidate's NXDOMAIN, a CNAME to follow — is no failure
            observer.replied(qn, attempt, rcode, !movesOn && a.danglingTarget() == null, now);
            if (marked) {
                // a mark that ran out a moment ago, its expiry timer not yet run, ended by expiring
                observer.restored(server(), restored ? RrType.rcodeName(rcode) + " reply" : "mark expired", now);
            }
            cache.put(new DnsCache.Key(candidate, qn.q.qtype, qn.q.qclass), a, a.cacheTtl(), now);
            candidateResult(qn, a, 0, "upstream", true);
        }
    }

    private void candidateResult(Question qn, Answer a, long elapsedSeconds, String source, boolean fromUpstream) {
        if (a.nxdomain() && qn.chain == null && qn.candidate + 1 < qn.candidates.length) {
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
        if (a.danglingTarget() != null) {
            follow(qn, a, elapsedSeconds, source);
            return;
        }
        qn.done = true;
        String cand = qn.candidates[qn.candidate];
        Answer out = a;
        long elapsed = elapsedSeconds;
        if (qn.chain != null) {
            // the whole chain, then the target's records (or its NXDOMAIN / NODATA)
            out = qn.chain.answer(cand, qn.q.qtype, qn.q.qclass, a, elapsed);
            elapsed = 0;
            observer.chained(qn, qn.chain.links());
        }
        a = out;
        if (!cand.equals(qn.q.qname)) {
            // SPEC: success answers with a CNAME from the asked name to the candidate, then its records
            if (a.nxdomain()) {
                out = new Answer(qn.q.qname, qn.q.qtype, qn.q.qclass, RrType.NXDOMAIN, false, List.of(), List.of(), List.of());
            } else {
                List<Rr> an = new ArrayList<>();
                long ttl = Math.max(0, a.minAnswerTtl() - elapsed);
                an.add(new Rr(qn.q.qname, RrType.CNAME, RrType.IN, ttl, Names.toWire(cand)));
                for (Rr r : a.answer()) {
                    an.add(r.withTtl(Math.max(0, r.ttl() - elapsed)));
                }
                List<Rr> ns = new ArrayList<>();
                for (Rr r : a.authority()) {
                    ns.add(r.withTtl(Math.max(0, r.ttl() - elapsed)));
                }
                out = new Answer(qn.q.qname, qn.q.qtype, qn.q.qclass, a.rcode, false, an, ns, List.of());
            }
            elapsed = 0;
        }
        if (qn.stale) {
            // RFC 8767 §4: stale data goes out with a TTL of 30 s and EDE 3 (Stale Answer)
            out = Stale.capped(out);
            qn.reply.send(Responses.stamp(out.encoded, qn.q, 0, Stale.EDE_STALE_ANSWER, null));
        } else {
            qn.reply.send(Responses.stamp(out.encoded, qn.q, elapsed, -1, null));
        }
        observer.answered(qn, out, qn.stale ? "stale" : source, scheduler.nanoTime());
    }

    /**
     * RFC 1034 §4.3.2 step 3a: {@code a} ends in a CNAME to follow; its target is looked up in the
     * local zones, then the cache, then (when the client wants recursion) asked upstream — one more
     * question, whose failures spend from the same three attempts (seed 000 §4.6.4). A target nobody here can
     * resolve (no servers route it, or the client asked without recursion) ends the chain where it
     * is, as an authoritative server answers; a loop or a chain of more than
     * {@value CnameChain#MAX_LINKS} CNAMEs is SERVFAIL.
     */
    private void follow(Question qn, Answer a, long elapsedSeconds, String source) {
        if ("upstream".equals(source)) {
            // §4.6.4: failures spend the attempts; a reply that leads on, like a candidate's
            // NXDOMAIN, spends none, and the target's question goes on with what is left
            qn.spent--;
        }
        if (qn.chain == null) {
            qn.chain = new CnameChain(qn.name);
        }
        String why = qn.chain.add(a, elapsedSeconds);
        if (why != null) {
            unavailableAnswer(qn, false, why);
            return;
        }
        String target = a.danglingTarget();
        qn.name = target;
        qn.route = routing.route(target);
        qn.asked = java.util.Collections.emptySet();
        qn.candidateAttempts = 0;
        Zone z = qn.q.qclass == RrType.IN ? zones.find(target) : null;
        long now = scheduler.nanoTime();
        DnsCache.Entry<Answer> e = z != null ? null : cache.get(new DnsCache.Key(target, qn.q.qtype, qn.q.qclass), now);
        boolean recursion = (qn.q.flags & Message.RD) != 0;
        if (z == null && e == null && (!recursion || qn.route.servers().isEmpty())) {
            // nobody here resolves the target: the chain as far as it goes
            finishAsFarAsItGoes(qn, a, source);
            return;
        }
        tryName(qn);
    }

    /** The chain so far, NOERROR, for a target that is not ours to resolve. */
    private void finishAsFarAsItGoes(Question qn, Answer last, String source) {
        Answer none = new Answer(qn.name, qn.q.qtype, qn.q.qclass, RrType.NOERROR, last.authoritative, List.of(), List.of(),
                List.of());
        finish(qn, none, 0, source);
    }

    /** seed 000 §4.6.4: the last attempt failed; unavailable, unless a stale answer may be given. */
    private void attemptsFailed(Question qn, String why) {
        if (!serveStale(qn)) {
            unavailableAnswer(qn, false, why);
        }
    }

    private void unavailableAnswer(Question qn, boolean capacity, String why) {
        qn.done = true;
        // SPEC: unavailable and refused answer SERVFAIL, with an extended error when the client sent EDNS
        qn.reply.send(Responses.error(qn.q, RrType.SERVFAIL, capacity ? EDE_OTHER : EDE_NO_REACHABLE_AUTHORITY, why));
        observer.unavailable(qn, capacity, why, scheduler.nanoTime());
    }

    /**
     * RFC 8767: every attempt for the name asked now failed; with {@code resolver.serve_stale} on,
     * an expired positive answer for it younger than the limit is given instead (TTL 30 s, EDE 3),
     * and a chain goes on from it. Never an expired NXDOMAIN or NODATA, never past the limit.
     */
    private boolean serveStale(Question qn) {
        if (config.serveStale() <= 0) {
            return false;
        }
        long now = scheduler.nanoTime();
        DnsCache.Entry<Answer> e = cache.stale(new DnsCache.Key(qn.name, qn.q.qtype, qn.q.qclass), now,
                config.serveStale() * 1_000_000_000L);
        if (e == null || !Stale.servable(e.value())) {
            return false;
        }
        qn.stale = true;
        observer.stale(qn, (now - e.expiresAt()) / 1_000_000_000L);
        finish(qn, Stale.capped(e.value()), 0, "stale");
        return true;
    }

    // ------------------------------------------------------------------ deadlines

    /**
     * One timer for every transaction's deadline, at the first to fall due (seed 000 §4.6.2: two
     * seconds from each send, so they fall due in the order they were set): a burst of thousands
     * in flight is one timer, not one each, and the transactions due together fail in one task.
     */
    private void armDeadlineTimer(long now) {
        deadlineTimerSet = true;
        scheduler.schedule(this::expireDeadlines, Math.max(0, deadlines.first() - now), TimeUnit.NANOSECONDS);
    }

    private void expireDeadlines() {
        deadlineTimerSet = false;
        long now = scheduler.nanoTime();
        for (Transaction t = deadlines.pollDue(now); t != null; t = deadlines.pollDue(now)) {
            t.onDeadline();
        }
        if (!deadlines.isEmpty() && !deadlineTimerSet) {
            armDeadlineTimer(now);
        }
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
        cache.keepStale(after.serveStale() * 1_000_000_000L);
        cache.removeIf(k -> !old.route(k.name()).equals(now.route(k.name())));
        Set<InetSocketAddress> configured = new HashSet<>(after.fallbackServers());
        for (ResolverConfig.Scope s : after.scopes()) {
            configured.addAll(s.servers());
        }
        marks.retainOnly(configured);
        observer.configured(configured);
    }
}
