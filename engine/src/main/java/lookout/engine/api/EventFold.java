package lookout.engine.api;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import lookout.engine.api.FailureFold;

/**
 * Folds the events of failures that repeat, per subject — an upstream server, a monitored pool
 * item, a pool, a PVA server — for a log (the headless engine's) or an events list: the first
 * failure is a WARNING line with its cause, then at most one "still failing" summary per
 * {@code summaryEvery} (a minute) while it persists ("upstream 127.0.0.1:53 still failing: 1 532
 * timeouts in the last 60 s"), and one INFO line when it recovers. Every other event is left to
 * the caller. One dead upstream under load then writes a few lines, not one per demotion renewal.
 *
 * <p>An upstream's demotion mark that runs out is no recovery (nothing answered; the server is
 * only tried again): a DEBUG line, and a demotion soon after continues the same failure, one after
 * a quiet spell of {@link #LAPSE} starts a new one.
 *
 * <p>The fold's clock is each event's own time, so virtual time in tests folds as real time does.
 * Concurrency: {@link #offer} is synchronized; events may come from any thread.
 */
public final class EventFold {

    /** Where the folded lines go. */
    @FunctionalInterface
    public interface Sink {
        void line(Level level, String message);
    }

    /** After a mark ran out, a demotion within this long is the same failure still going on. */
    public static final Duration LAPSE = Duration.ofMinutes(2);

    private final Sink sink;
    private final FailureFold<String> fold;
    private final Map<String, Instant> lapsed = new HashMap<>();

    /** At most one summary a minute per subject. */
    public EventFold(Sink sink) {
        this(sink, Duration.ofMinutes(1));
    }

    public EventFold(Sink sink, Duration summaryEvery) {
        this.sink = sink;
        this.fold = new FailureFold<>(sink::line, summaryEvery.toNanos(), key -> key);
    }

    /**
     * Takes {@code e} into the fold. Returns true when the fold has dealt with it (written a line,
     * or counted it into a failure it already reported); false when the caller should show it as
     * it is (an event of no folded kind, or a recovery of something that was not failing).
     */
    public synchronized boolean offer(EngineEvent e) {
        long now = e.at().getEpochSecond() * 1_000_000_000L + e.at().getNano();
        if (e instanceof EngineEvent.UpstreamDemoted d) {
            String key = "upstream " + d.address();
            Instant gone = lapsed.remove(key);
            if (gone != null && Duration.between(gone, e.at()).compareTo(LAPSE) > 0) {
                fold.forget(key);
            }
            fold.failed(key, d.reason(), "demoted until " + d.until(), now);
            return true;
        }
        if (e instanceof EngineEvent.UpstreamRestored r) {
            String key = "upstream " + r.address();
            if (r.how().equals("mark expired")) {
                if (fold.isFailing(key)) {
                    lapsed.put(key, e.at());
                }
                sink.line(Level.DEBUG, key + ": demotion mark ran out; it is tried again");
                return true;
            }
            lapsed.remove(key);
            return fold.succeeded(key, now);
        }
        if (e instanceof EngineEvent.MonitorStateChanged m) {
            String key = "monitor " + m.target() + "/" + m.serviceType();
            if ("DOWN".equalsIgnoreCase(m.to())) {
                fold.failed(key, "down", m.from() + " -> " + m.to(), now);
                return true;
            }
            return fold.succeeded(key, now);
        }
        if (e instanceof EngineEvent.PoolFailover f) {
            String key = "pool " + f.resource() + (f.family().isEmpty() ? "" : " (" + f.family() + ")");
            if (f.inFailover()) {
                fold.failed(key, "failover", "live weight below up_thresh", now);
                return true;
            }
            return fold.succeeded(key, now);
        }
        if (e instanceof EngineEvent.PvaServerLost l) {
            fold.failed("PVA server " + l.endpoint(), "lost", "no beacon, GUID " + l.guid(), now);
            return true;
        }
        if (e instanceof EngineEvent.PvaServerFound f) {
            return fold.succeeded("PVA server " + f.endpoint(), now);
        }
        return false;
    }

    /** How many subjects are failing now. */
    public synchronized int failing() {
        return fold.failingCount();
    }
}
