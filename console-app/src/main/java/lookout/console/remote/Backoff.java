package lookout.console.remote;

import java.time.Duration;

/**
 * Reconnect delays after failures: {@link #FIRST}, doubling up to {@link #MAX}; {@link #reset} on
 * success. Pure (no clock): the caller asks for the next delay and schedules on its own clock.
 *
 * <p>Concurrency: confined to its owner (or guarded by it).
 */
public final class Backoff {

    public static final Duration FIRST = Duration.ofMillis(250);
    /** An engine back after a restart is seen within this; a dead one costs one request per period. */
    public static final Duration MAX = Duration.ofSeconds(5);

    private final Duration first;
    private final Duration max;
    private int failures;

    public Backoff() {
        this(FIRST, MAX);
    }

    public Backoff(Duration first, Duration max) {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("need 0 < first <= max");
        }
        this.first = first;
        this.max = max;
    }

    /** The delay before the next attempt, after one more failure. */
    public Duration next() {
        Duration d = first;
        for (int i = 0; i < failures && d.compareTo(max) < 0; i++) {
            d = d.multipliedBy(2);
        }
        if (failures < Integer.MAX_VALUE) {
            failures++;
        }
        return d.compareTo(max) > 0 ? max : d;
    }

    /** Failures since the last success. */
    public int failures() {
        return failures;
    }

    public void reset() {
        failures = 0;
    }
}
