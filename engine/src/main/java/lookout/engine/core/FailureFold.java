package lookout.engine.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Function;
import lookout.engine.api.RepeatedFailures;

/**
 * Logging by state, per key (a destination, a server, a pool item), after PVXS's
 * {@code lastSuccess} handling: the first failure of a key is logged at WARNING with its cause;
 * while it persists, further failures are counted and logged at DEBUG, and summed up at WARNING at
 * most once per {@code summaryEvery} ("127.0.0.1:53 still failing: 1 532 timeouts in the last
 * 60 s"); the first success after failures is logged once at INFO with what it cost. A key that
 * never failed logs nothing. The log then says what changed, not every time it did not.
 *
 * <p>The services' name for {@link RepeatedFailures}, which holds the one implementation (the
 * event log's {@link lookout.engine.api.EventFold} folds with it too, and the api may not reach
 * into the core).
 *
 * <p>A pure structure: every method takes {@code now} (scheduler nanoseconds, compared by
 * difference so that a wrapping clock is fine) and writes through the given {@link Sink}.
 * Concurrency: confined to the thread that owns the failing work (the engine loop, or one socket's
 * reader), like the state it reports on.
 *
 * @param <K> what fails: an address, a server, an item
 */
public final class FailureFold<K> {

    /** Where the lines go: a logger in production, a list in tests. */
    @FunctionalInterface
    public interface Sink {
        void line(Level level, String message);

        /** Lines into {@code log}, WARNING and INFO as such, the rest at DEBUG when DEBUG is on. */
        static Sink of(Logger log) {
            RepeatedFailures.Sink s = RepeatedFailures.Sink.of(log);
            return s::line;
        }
    }

    /** The default summary interval: at most one "still failing" line a minute per key. */
    public static final long MINUTE = Duration.ofMinutes(1).toNanos();

    private final RepeatedFailures<K> fold;

    /**
     * @param sink         where the lines go
     * @param summaryEvery the least time between two WARNING lines of one key, in nanoseconds
     * @param label        how a key reads in a line ({@code 127.0.0.1:53}, {@code search to 10.0.0.255:5076})
     */
    public FailureFold(Sink sink, long summaryEvery, Function<K, String> label) {
        this.fold = new RepeatedFailures<>(sink::line, summaryEvery, label);
    }

    /**
     * One failure of {@code key}. {@code cause} is its kind in a few words, counted in summaries
     * ({@code timeout}, {@code refused}); {@code detail} the rest, logged with the first failure only
     * (may be null). Returns true when the line it wrote was a WARNING.
     */
    public boolean failed(K key, String cause, String detail, long now) {
        return fold.failed(key, cause, detail, now);
    }

    /** A success of {@code key}: logged once at INFO when it had been failing. Returns true then. */
    public boolean succeeded(K key, long now) {
        return fold.succeeded(key, now);
    }

    /** Forgets {@code key} without a line (it is no longer configured). */
    public void forget(K key) {
        fold.forget(key);
    }

    /** Whether {@code key} is failing now. */
    public boolean isFailing(K key) {
        return fold.isFailing(key);
    }

    /** Failures of {@code key} since it began failing, or 0. */
    public long failures(K key) {
        return fold.failures(key);
    }

    /** How many keys are failing. */
    public int failingCount() {
        return fold.failingCount();
    }

    /** {@code 1532} as {@code 1 532}. */
    static String group(long n) {
        return RepeatedFailures.group(n);
    }

    /** {@code 61 s}, {@code 2 min 13 s}, {@code 3 h 5 min}. */
    static String duration(long nanos) {
        return RepeatedFailures.duration(nanos);
    }
}
