package lookout.engine.dns.listen;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.answer.Synthetic;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import lookout.engine.dns.zone.Zone;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpReceiver;
import lookout.engine.seams.DynamicRecords;

/**
 * One UDP socket of a listen address, as the resolver reads it: whatever reads the socket (a Netty
 * loop, a native reader thread; {@link UdpEndpoint}) hands its datagrams here.
 *
 * <p>Local questions take a fast path on the reader's own thread: {@link Admission} with this
 * listener's test for a local name (class IN, not a synthetic name, no search list to apply, a
 * local zone holds it — the conditions of the resolver's local-zone path), answered from the
 * published {@link LoopView} with a zones memo of this listener's own, without the resolver's
 * per-question bookkeeping. A question answered so once is remembered ({@link QuestionMemo}, keyed
 * by its bytes as {@link PlainQuery} reads them) and answered again from its plan without decoding
 * — a fixed answer stamped, a DYNA/DYNC draw written — straight into the outgoing datagram.
 * Read on the engine loop, a query of the same shape that the cache answers is answered the same
 * way, from the resolver's cache ({@link Intake#cached}): no decoding, no hand-over.
 *
 * <p>Everything else goes to the engine loop ({@link Intake}), a burst at a time, and is answered
 * through the same endpoint inside {@link UdpEndpoint#sendTogether} (one {@code sendmmsg}), from the
 * address it was asked at ({@code send(..., from = destination)}: wildcard listen addresses).
 *
 * <p>Where the fast path runs ({@link Reader}): a listener with a reader thread of its own
 * (an answer loop, a native reader) always, with draws of its own; the first socket of an
 * address, read on the engine's I/O loop, only where that thread is the engine loop — in
 * production it is, and every question is answered without a hop; under a virtual clock the
 * engine loop is another thread, and the fast path runs only for datagrams delivered on it (a test
 * feeding the listener from inside {@code clock.call}).
 */
public final class UdpListener implements UdpReceiver {

    /* Concurrency: the reader thread (the one thread that calls datagram/burstEnd) owns seen,
     * zones, remembered, cacheKeys, query, reply, allowedLast, nextTrace, burstStarted, inBurst, handed and
     * current; no other thread touches them. `answered` and `recent` are written by the reader
     * (single writer: lazySet / setRelease) and read by snapshots on the engine loop (acquire).
     * `fastErrors` is a LongAdder (reader writes, engine loop reads). The Intake and everything
     * handed to it are the engine loop's: the handed list changes hands in one Scheduler.execute.
     * `views` is a volatile read of what the engine loop publishes. */

    private static final Logger LOG = System.getLogger("lookout.engine.dns");

    /** Traces each listener keeps of its fast-path answers (a power of two). */
    public static final int LOOP_TRACES = 256;

    /** Which thread reads this listener's socket, which says where its fast path may run. */
    public enum Reader {
        /** The engine's I/O loop (the first socket of an address, read through Netty). */
        ENGINE_LOOP,
        /** A thread of its own: an answer loop, a native reader. */
        OWN_THREAD
    }

    private final Scheduler scheduler;
    private final Supplier<LoopView> views;
    /** Draws DYNA/DYNC answers on the reader thread (the pools' own on the engine loop); null: no pools. */
    private final DynamicRecords draws;
    private final Intake intake;
    private final Reader reader;
    private final Consumer<EngineEvent> publish;

    // the reader thread only
    private LoopView seen;
    private LocalZones zones;
    /** Plans of questions answered here before, by their bytes (cleared with a new view). */
    private final QuestionMemo<Remembered> remembered = new QuestionMemo<>();
    /**
     * The cache's keys of questions answered from the cache here before, by their bytes: a hit is
     * looked up without building the name. A key is a function of the question alone, so this is
     * never stale; only a listener read on the engine loop has one (the cache is that loop's).
     */
    private final QuestionMemo<DnsCache.Key> cacheKeys;
    /** The current datagram, read for the fast path ({@link #plain}: it is of the usual shape). */
    private final PlainQuery query = new PlainQuery();
    /** Where the fast path composes an answer (the largest a UDP client may take). */
    private final byte[] reply = new byte[65535];
    private boolean plain;
    /** The view the current datagram is judged in, and the zone {@link #isLocal} found for it. */
    private LoopView current;
    private Zone localZone;
    private final Predicate<ClientQuery> local = this::isLocal;
    /** The last client the allow list took, in view {@link #seen}. */
    private InetAddress allowedLast;
    private int nextTrace;
    /** When the current burst began (clock reads are per burst: answers in it take microseconds). */
    private long burstStarted;
    private boolean inBurst;
    private List<Handed> handed = new ArrayList<>();

    // written by the reader, read by snapshots on the engine loop
    private final AtomicLong answered = new AtomicLong();
    private final AtomicReferenceArray<LoopTrace> recent = new AtomicReferenceArray<>(LOOP_TRACES);
    private final LongAdder fastErrors = new LongAdder();

    /**
     * A listener for one socket. {@code draws}: the pools' answerer for the reader thread
     * ({@link DynamicRecords#forAnswerLoop} for a thread of its own), or null without pools.
     */
    public UdpListener(Scheduler scheduler, Supplier<LoopView> views, DynamicRecords draws, Intake intake, Reader reader,
                       Consumer<EngineEvent> publish) {
        this.scheduler = scheduler;
        this.views = views;
        this.draws = draws;
        this.intake = intake;
        this.reader = reader;
        this.publish = publish;
        this.cacheKeys = reader == Reader.ENGINE_LOOP ? new QuestionMemo<>() : null;
    }

    /** A question this listener leaves to the engine loop ({@code q}: decoded already, or null). */
    private record Handed(byte[] bytes, ClientQuery q, InetSocketAddress sender, InetAddress destination) {
    }

    /** A question's plan in the memo, with the name it was asked by (lower case). */
    private record Remembered(LocalZones.Plan plan, String qname) {
    }

    /**
     * Whether local questions may be answered on the calling (reader) thread: always on a thread of
     * its own; on the engine's I/O loop only where it is the engine loop, whose pools' answerer the
     * draws are.
     */
    private boolean fastPath() {
        return reader == Reader.OWN_THREAD || scheduler.inLoop();
    }

    @Override
    public void datagram(UdpEndpoint endpoint, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                         boolean truncated) {
        // a datagram longer than the endpoint reads arrives cut: it fails to decode and is counted
        // malformed on the engine loop, as any undecodable one (Transport.BATCHED_DATAGRAM_SIZE)
        if (!inBurst) {
            inBurst = true;
            burstStarted = scheduler.nanoTime();
        }
        boolean fast = fastPath();
        plain = false;
        current = views.get();
        if (fast && length <= PlainQuery.MAX_LENGTH) {
            System.arraycopy(data, 0, query.raw, 0, length);
            query.length = length;
            try {
                plain = query.read();
                if (plain && (answerRemembered(endpoint, sender) || answerCached(endpoint, sender))) {
                    return;
                }
            } catch (RuntimeException e) {
                fastErrors.increment();
                LOG.log(Level.WARNING, "resolver: local fast path failed", e);
                plain = false;
            }
        }
        byte[] bytes = Arrays.copyOf(data, length);
        ClientQuery decoded = null;
        if (fast) {
            try {
                Admission.Decision d = Admission.judge(bytes, length, sender != null && allowed(sender.getAddress()),
                        false, local);
                if (d.verdict() == Admission.Verdict.ANSWER_HERE && answerHere(endpoint, d.query(), sender)) {
                    return;
                }
                // what the engine loop answers (with the error it deserves, maybe): no need to decode again
                decoded = d.query();
            } catch (RuntimeException e) {
                // a bug, not bad input: the engine loop gets the question and its own accounting
                fastErrors.increment();
                LOG.log(Level.WARNING, "resolver: local fast path failed", e);
            }
        }
        hand(endpoint, new Handed(bytes, decoded, sender, destination));
    }

    /** To the engine loop: at once when this is it, else with the rest of the burst at its end. */
    private void hand(UdpEndpoint endpoint, Handed h) {
        if (scheduler.inLoop()) {
            ask(endpoint, h);
        } else {
            handed.add(h);
        }
    }

    @Override
    public void burstEnd(UdpEndpoint endpoint) {
        inBurst = false;
        // handed over before the burst's own answers leave (they do after this returns): the engine
        // loop starts on them while the kernel sends, and whatever a client sees answered from this
        // burst was read after everything the burst handed on
        if (!handed.isEmpty()) {
            List<Handed> batch = handed;
            handed = new ArrayList<>();
            scheduler.execute(() -> endpoint.sendTogether(() -> {
                for (Handed h : batch) {
                    ask(endpoint, h);
                }
            }));
        }
    }

    /** Engine loop: one question to the {@link Intake}; its answer leaves through this endpoint. */
    private void ask(UdpEndpoint endpoint, Handed h) {
        InetSocketAddress to = h.sender();
        InetAddress from = h.destination();
        if (h.q() != null) {
            intake.decoded(h.q(), to, r -> endpoint.send(r, 0, r.length, to, from));
        } else {
            intake.message(h.bytes(), to, false, r -> endpoint.send(r, 0, r.length, to, from));
        }
    }

    @Override
    public void sendFailed(UdpEndpoint endpoint, NetError error, InetSocketAddress to) {
        // one client's answer lost (counted by the endpoint); the listener goes on
        LOG.log(Level.DEBUG, "resolver UDP listener on " + HostPort.format(endpoint.localAddress()) + ": " + error.message());
    }

    @Override
    public void receiveFailed(UdpEndpoint endpoint, NetError error) {
        if (error.cause() == null) {
            return; // a passing receive error: the endpoint logged it and reads on
        }
        // the endpoint's reader ended (it reports that with what ended it): the socket stays bound
        // but unread, said loudly on the console too; the engine goes on
        String why = "resolver: the UDP reader of " + HostPort.format(endpoint.localAddress()) + " stopped; its share of the clients goes"
                + " unanswered until the listeners are rebound (reload with other listen addresses or udp_threads, or restart)";
        scheduler.execute(() -> publish.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.RESOLVER, Severity.ERROR, why)));
    }

    // ------------------------------------------------------------------ the fast path

    /** {@link Admission}'s test for a local question, for the current datagram's view; remembers the zone. */
    private boolean isLocal(ClientQuery q) {
        String name = q.qname;
        LoopView v = current;
        if (Synthetic.covers(name) || (v.searchesSingleLabels() && Names.labelCount(name) == 1)) {
            return false;
        }
        LocalZones z = zonesFor(v);
        localZone = z == null ? null : z.find(name);
        return localZone != null;
    }

    /**
     * A local question {@link Admission} let through: answered here, remembered when it was of the
     * usual shape. False (nothing sent) when the answer is a CNAME to follow (RFC 1034 §4.3.2 step
     * 3a: a DYNC's, one out of the zone): the engine loop completes it, from the local zones or
     * upstream.
     */
    private boolean answerHere(UdpEndpoint endpoint, ClientQuery q, InetSocketAddress sender) {
        String name = q.qname;
        Answer a = zones.answer(localZone, name, q.qtype, q.qclass, draws);
        if (a.danglingTarget() != null) {
            return false;
        }
        if (plain) {
            // the same question (name, type) in the same view is answered from the memo next time
            remembered.put(query, new Remembered(zones.lastPlan(), name));
        }
        byte[] r = Responses.stamp(a.encoded, q, 0, -1, null);
        endpoint.reply(r, 0, r.length);
        countLocal();
        trace(new LoopTrace(q, q.qname, q.qtype, a, null, sender, burstStarted, scheduler.nanoTime()));
        return true;
    }

    /**
     * The fast path proper: a question of the usual shape ({@link #query}, read) that
     * {@link #answerHere} answered before in this view, answered again from its plan without
     * decoding, straight into the outgoing datagram exactly as {@link Responses#stamp} would.
     * False (nothing sent, nothing counted) when there is no plan, so the general path answers.
     */
    private boolean answerRemembered(UdpEndpoint endpoint, InetSocketAddress sender) {
        LoopView v = current;
        if (sender == null || zonesFor(v) == null || remembered.size() == 0) {
            return false;
        }
        Remembered r = remembered.get(query);
        if (r == null || !allowed(sender.getAddress())) {
            return false;
        }
        LocalZones.Plan p = r.plan();
        PlainQuery q = query;
        Answer a = p.fixed();
        DynamicRecords.Answer d = null;
        if (a == null) {
            d = LocalZones.drawFrom(p.dyn(), q.qtype, draws);
            if (d != null && d.cname() != null) {
                return false; // a CNAME to follow: the engine loop's (see answerHere)
            }
            if (d == null || !sendComposed(endpoint, Responses.addressesInto(reply, q, d.addresses(), d.ttl()))) {
                a = LocalZones.drawn(p.zone(), p.dyn(), r.qname(), q.qtype, RrType.IN, d);
                d = null;
            }
        }
        if (a != null && !sendComposed(endpoint, Responses.stampInto(reply, a.encoded, q))) {
            // too big for the client: the general stamp cuts it (TC)
            ClientQuery cq = decodeAgain();
            if (cq == null) {
                return false;
            }
            byte[] cut = Responses.stamp(a.encoded, cq, 0, -1, null);
            endpoint.reply(cut, 0, cut.length);
        }
        countLocal();
        trace(new LoopTrace(null, r.qname(), q.qtype, a, d, sender, burstStarted, scheduler.nanoTime()));
        return true;
    }

    /**
     * A cache hit answered where it was read, when that is the engine loop (which owns the cache):
     * the query of the usual shape ({@link #query}, read) goes to {@link Intake#cached} with its
     * cache key, and the answer is written into {@link #reply} and sent without decoding, handing
     * or allocating anything — the same admission, counts and bytes as through
     * {@link Intake#decoded} and the resolver. False (nothing sent, nothing counted) for anything
     * else, which the general path answers.
     */
    private boolean answerCached(UdpEndpoint endpoint, InetSocketAddress sender) {
        if (cacheKeys == null || sender == null || !scheduler.inLoop()) {
            return false;
        }
        DnsCache.Key key = cacheKeys.get(query);
        boolean known = key != null;
        if (!known) {
            key = new DnsCache.Key(query.qname(), query.qtype, RrType.IN);
        }
        int n = intake.cached(query, key, sender, reply);
        if (n < 0) {
            return false;
        }
        if (!known) {
            // kept once answered, so that names asked once (the uncached flood) leave nothing here
            cacheKeys.put(query, key);
        }
        endpoint.reply(reply, 0, n);
        return true;
    }

    private ClientQuery decodeAgain() {
        try {
            return ClientQuery.decode(Arrays.copyOf(query.raw, query.length), query.length, false);
        } catch (WireException e) {
            return null; // cannot happen for a query PlainQuery read
        }
    }

    /** The first {@code length} bytes of {@link #reply}, composed there, sent; false when -1 (nothing composed). */
    private boolean sendComposed(UdpEndpoint endpoint, int length) {
        if (length < 0) {
            return false;
        }
        endpoint.reply(reply, 0, length);
        return true;
    }

    /** The zones of view {@code v} with this listener's memos (new ones when the view changed). */
    private LocalZones zonesFor(LoopView v) {
        if (seen != v) {
            seen = v;
            zones = v.zones().isEmpty() ? null : new LocalZones(v.zones());
            remembered.clear();
            allowedLast = null;
        }
        return zones;
    }

    /** Whether the current view's allow list takes {@code a}; the last client allowed is remembered. */
    private boolean allowed(InetAddress a) {
        LoopView v = current;
        if (seen == v && a.equals(allowedLast)) {
            return true;
        }
        if (!Admission.allows(v.allow(), a)) {
            return false;
        }
        if (seen == v) {
            allowedLast = a;
        }
        return true;
    }

    private void countLocal() {
        // one writer (the reader): a plain increment published, no atomic read-modify-write
        answered.lazySet(answered.get() + 1);
    }

    private void trace(LoopTrace t) {
        recent.setRelease(nextTrace++ & (LOOP_TRACES - 1), t);
    }

    // ------------------------------------------------------------------ read by snapshots

    /** Local answers this listener's fast path gave, ever. Any thread. */
    public long answered() {
        return answered.get();
    }

    /** Whether the fast path runs on a thread of its own (an answer loop, a native reader). */
    public boolean ownThread() {
        return reader == Reader.OWN_THREAD;
    }

    /** Fast-path failures caught (bugs): 0 in every test. Any thread. */
    public long fastErrors() {
        return fastErrors.sum();
    }

    /** The fast-path answers kept for traces, in no particular order. Any thread. */
    public List<LoopTrace> recentAnswers() {
        List<LoopTrace> out = new ArrayList<>();
        for (int i = 0; i < LOOP_TRACES; i++) {
            LoopTrace t = recent.getAcquire(i);
            if (t != null) {
                out.add(t);
            }
        }
        return out;
    }
}
