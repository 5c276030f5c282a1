package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.upstream.FailureKind;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.net.HostPort;

/**
 * The resolver's books, kept beside its state machine ({@link ResolutionObserver}): the counters
 * of the snapshot and metrics, each upstream's {@link UpstreamStats}, the demotion and restoration
 * events, the attempt records of each question and the recent traces (the newest
 * {@value #RECENT_TRACES}). Nothing here decides anything the resolver does.
 *
 * <p>Traces are kept for every question that went upstream, was answered by a local zone, was
 * unavailable or refused, or was asked from the console; client cache hits and synthetic names
 * are not traced (the hot path), though the console's resolve box gets a full trace of either.
 */
final class ResolverAccounting implements ResolutionObserver {

    /* Concurrency: engine loop only, every field. The resolver calls the observer methods there and
     * snapshots (ResolverStatus) read the counters there. The listeners' own counts (fast-path
     * answers given on their threads) are not kept here: ResolverStatus sums them in. */

    static final int RECENT_TRACES = 200;

    private final Scheduler scheduler;
    /** Demotion, "still failing" and restoration events, folded by state per address. */
    private final DemotionEvents events;

    long queries;
    long cacheHits;
    long localAnswers;
    long sentUdp;
    long sentTcp;
    long refused;
    long unavailable;
    long demotions;
    /** RFC 8767 stale answers given (resolver.serve_stale). */
    long staleAnswers;
    /** Answers completed by following a CNAME to its target. */
    long cnameChains;
    /** upstream_failed by reason: every {@link FailureKind} label, 0 until it happens. */
    final Map<String, Long> upstreamFailed = new LinkedHashMap<>();
    final Map<InetSocketAddress, UpstreamStats> upstreams = new LinkedHashMap<>();
    private final ArrayDeque<PendingTrace> recent = new ArrayDeque<>();

    ResolverAccounting(Scheduler scheduler, Consumer<EngineEvent> publish) {
        this.scheduler = scheduler;
        this.events = new DemotionEvents(publish, scheduler::now);
        for (FailureKind k : FailureKind.values()) {
            upstreamFailed.put(k.label, 0L);
        }
    }

    // ------------------------------------------------------------------ what the resolver tells

    @Override
    public void asked() {
        queries++;
    }

    @Override
    public void answeredLocally() {
        localAnswers++;
    }

    @Override
    public void answeredFromCache() {
        cacheHits++;
    }

    @Override
    public void sent(Attempt a) {
        if (a.tcp()) {
            sentTcp++;
        } else {
            sentUdp++;
        }
        stats(a.server()).sent++;
    }

    @Override
    public void failed(Resolution r, Attempt a, FailureKind kind, String detail, boolean demoted, long now) {
        upstreamFailed.merge(kind.label, 1L, Long::sum);
        UpstreamStats st = stats(a.server());
        st.failed++;
        st.lastFailureNanos = now;
        st.failedOnce = true;
        record(r, a, kind.label, detail, true, demoted, now);
    }

    @Override
    public void truncated(Resolution r, Attempt a, long now) {
        stats(a.server()).replied(now - a.sentAt());
        record(r, a, "TC", null, true, false, now);
    }

    @Override
    public void replied(Resolution r, Attempt a, int rcode, boolean spent, long now) {
        UpstreamStats st = stats(a.server());
        st.replied(now - a.sentAt());
        st.lastSuccessNanos = now;
        st.succeeded = true;
        record(r, a, RrType.rcodeName(rcode), null, spent, false, now);
    }

    @Override
    public void demoted(InetSocketAddress server, FailureKind kind, String detail, boolean renewed, long now) {
        demotions++;
        events.demoted(server, kind.label, detail, renewed, now);
    }

    @Override
    public void restored(InetSocketAddress server, String how, long now) {
        events.restored(server, how);
    }

    @Override
    public void configured(Set<InetSocketAddress> servers) {
        events.retainOnly(servers);
    }

    @Override
    public void chained(Resolution r, int links) {
        cnameChains++;
    }

    @Override
    public void stale(Resolution r, long expiredSeconds) {
        staleAnswers++;
    }

    @Override
    public void answered(Resolution r, Answer a, String source, long now) {
        // the hot paths leave no trace: synthetic names, and cache hits nobody asked to see
        boolean kept = switch (source) {
            case "synthetic" -> false;
            case "cache" -> r.attempts != null || r.onTrace != null;
            default -> true;
        };
        finished(new PendingTrace(r, a, source, "answered", now), kept);
    }

    @Override
    public void unavailable(Resolution r, boolean capacity, String why, long now) {
        unavailable++;
        if (capacity) {
            refused++;
        }
        finished(new PendingTrace(r, null, "none", capacity ? "refused: " + why : "unavailable: " + why, now), true);
    }

    private void finished(PendingTrace t, boolean kept) {
        if (kept) {
            if (recent.size() == RECENT_TRACES) {
                recent.removeFirst();
            }
            recent.addLast(t);
        }
        if (t.question().onTrace != null) {
            t.question().onTrace.accept(build(t));
        }
    }

    private void record(Resolution r, Attempt a, String result, String detail, boolean spent, boolean demoted, long now) {
        if (r.attempts == null) {
            r.attempts = new ArrayList<>(4);
        }
        r.attempts.add(new AttemptRecord(a, result, detail, now, spent, demoted));
    }

    UpstreamStats stats(InetSocketAddress s) {
        return upstreams.computeIfAbsent(s, k -> new UpstreamStats());
    }

    // ------------------------------------------------------------------ traces

    /**
     * The recent traces, with {@code elsewhere} (local answers the listeners gave on their own
     * threads) merged in by the time they ended; the newest {@value #RECENT_TRACES} in all, oldest
     * first, built now.
     */
    List<ResolveTrace> recentTraces(List<PendingTrace> elsewhere) {
        List<PendingTrace> all = new ArrayList<>(recent);
        if (!elsewhere.isEmpty()) {
            all.addAll(elsewhere);
            all.sort(Comparator.comparingLong(PendingTrace::endedAt));
        }
        List<ResolveTrace> out = new ArrayList<>(Math.min(all.size(), RECENT_TRACES));
        for (PendingTrace p : all.subList(Math.max(0, all.size() - RECENT_TRACES), all.size())) {
            out.add(build(p));
        }
        return out;
    }

    /** A zone answer a listener gave on its own thread, as a trace (when a snapshot is built). */
    static PendingTrace answeredElsewhere(ClientQuery q, Answer a, Object client, long startedAt, long endedAt) {
        return new PendingTrace(new Resolution(q, client, null, new String[]{q.qname}, startedAt), a, "zone", "answered",
                endedAt);
    }

    ResolveTrace build(PendingTrace p) {
        Resolution qn = p.question();
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
                Attempt t = r.attempt();
                attempts.add(new ResolveTrace.Attempt(t.candidate(), HostPort.format(t.server()), t.tcp() ? "tcp" : "udp",
                        r.shown(), Duration.ofNanos(t.sentAt() - qn.startNanos), Duration.ofNanos(r.endedAt() - t.sentAt()),
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
}
