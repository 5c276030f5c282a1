package lookout.engine.api;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Logging by state, per key (a destination, a server, a pool item), after PVXS's
 * {@code lastSuccess} handling: the first failure of a key is logged at WARNING with its cause;
 * while it persists, further failures are counted and logged at DEBUG, and summed up at WARNING at
 * most once per {@code summaryEvery} ("127.0.0.1:53 still failing: 1 532 timeouts in the last
 * 60 s"); the first success after failures is logged once at INFO with what it cost. A key that
 * never failed logs nothing. The log then says what changed, not every time it did not.
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
            return (level, message) -> {
                if (log.isLoggable(level)) {
                    log.log(level, message);
                }
            };
        }
    }

    /** The default summary interval: at most one "still failing" line a minute per key. */
    public static final long MINUTE = Duration.ofMinutes(1).toNanos();

    private final Sink sink;
    private final long summaryEvery;
    private final Function<K, String> label;
    private final Map<K, Failing> failing = new HashMap<>();

    /** Per failing key: since when, how many in all, and by cause since the last WARNING line. */
    private static final class Failing {
        final long since;
        long lastSummary;
        long total;
        final Map<String, Long> sinceSummary = new LinkedHashMap<>();

        Failing(long now) {
            since = now;
            lastSummary = now;
        }
    }

    /**
     * @param sink         where the lines go
     * @param summaryEvery the least time between two WARNING lines of one key, in nanoseconds
     * @param label        how a key reads in a line ({@code 127.0.0.1:53}, {@code search to 10.0.0.255:5076})
     */
    public FailureFold(Sink sink, long summaryEvery, Function<K, String> label) {
        this.sink = sink;
        this.summaryEvery = summaryEvery;
        this.label = label;
    }

    /**
     * One failure of {@code key}. {@code cause} is its kind in a few words, counted in summaries
     * ({@code timeout}, {@code refused}); {@code detail} the rest, logged with the first failure only
     * (may be null). Returns true when the line it wrote was a WARNING.
     */
    public boolean failed(K key, String cause, String detail, long now) {
        Failing f = failing.get(key);
        if (f == null) {
            f = new Failing(now);
            failing.put(key, f);
            f.total = 1;
            sink.line(Level.WARNING, label.apply(key) + " failing: " + cause + (detail == null || detail.isEmpty()
                    ? "" : " (" + detail + ")"));
            return true;
        }
        f.total++;
        f.sinceSummary.merge(cause, 1L, Long::sum);
        if (now - f.lastSummary >= summaryEvery) {
            long window = now - f.lastSummary;
            sink.line(Level.WARNING, label.apply(key) + " still failing: " + counts(f.sinceSummary) + " in the last "
                    + duration(window));
            f.sinceSummary.clear();
            f.lastSummary = now;
            return true;
        }
        sink.line(Level.DEBUG, label.apply(key) + ": " + cause + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
        return false;
    }

    /** A success of {@code key}: logged once at INFO when it had been failing. Returns true then. */
    public boolean succeeded(K key, long now) {
        Failing f = failing.remove(key);
        if (f == null) {
            return false;
        }
        sink.line(Level.INFO, label.apply(key) + " recovered after " + duration(now - f.since) + " ("
                + group(f.total) + (f.total == 1 ? " failure" : " failures") + ")");
        return true;
    }

    /** Forgets {@code key} without a line (it is no longer configured). */
    public void forget(K key) {
        failing.remove(key);
    }

    /** Whether {@code key} is failing now. */
    public boolean isFailing(K key) {
        return failing.containsKey(key);
    }

    /** Failures of {@code key} since it began failing, or 0. */
    public long failures(K key) {
        Failing f = failing.get(key);
        return f == null ? 0 : f.total;
    }

    /** How many keys are failing. */
    public int failingCount() {
        return failing.size();
    }

    private static String counts(Map<String, Long> byCause) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Long> e : byCause.entrySet()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            String cause = e.getKey();
            // "1 timeout", "1 532 timeouts": causes are nouns
            b.append(group(e.getValue())).append(' ').append(cause).append(e.getValue() == 1 || cause.endsWith("s") ? "" : "s");
        }
        return b.toString();
    }

    /** {@code 1532} as {@code 1 532}: the thin grouping an operator reads at a glance, whatever the locale. */
    static String group(long n) {
        String digits = Long.toString(Math.abs(n));
        StringBuilder b = new StringBuilder(n < 0 ? "-" : "");
        int lead = digits.length() % 3;
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (i - lead) % 3 == 0) {
                b.append(' ');
            }
            b.append(digits.charAt(i));
        }
        return b.toString();
    }

    /** {@code 61 s}, {@code 2 min 13 s}, {@code 3 h 5 min}: whole units, the two largest (seconds below two minutes). */
    static String duration(long nanos) {
        long s = Math.max(0, nanos) / 1_000_000_000L;
        if (s < 120) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        long h = s / 3600;
        long m = (s % 3600) / 60;
        return h + " h" + (m == 0 ? "" : " " + m + " min");
    }
}
