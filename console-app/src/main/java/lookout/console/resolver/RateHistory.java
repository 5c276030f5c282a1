package lookout.console.resolver;

import java.time.Instant;
import javafx.beans.property.LongProperty;
import javafx.beans.property.SimpleLongProperty;

/**
 * Per-second rates over the last 10 minutes, from a monotonically growing counter sampled with
 * each snapshot: one point per elapsed second of snapshot time. Pure: time is the snapshot's.
 */
public final class RateHistory {

    /** 10 minutes of one-second points. */
    public static final int POINTS = 600;

    private final double[] values = new double[POINTS];
    private int size;
    private int head;
    private Instant lastAt;
    private long lastCount;
    private final LongProperty samples = new SimpleLongProperty();

    /** Feeds the counter's value at {@code at}; adds a point once at least a second has passed. */
    public void sample(Instant at, long count) {
        if (lastAt == null || count < lastCount) {
            lastAt = at; // first sample, or the counter restarted (engine restart): start afresh
            lastCount = count;
            return;
        }
        long ms = java.time.Duration.between(lastAt, at).toMillis();
        if (ms < 1000) {
            return;
        }
        add((count - lastCount) * 1000.0 / ms);
        lastAt = at;
        lastCount = count;
    }

    void add(double v) {
        values[head] = v;
        head = (head + 1) % POINTS;
        size = Math.min(size + 1, POINTS);
        samples.set(samples.get() + 1);
    }

    /** Points added so far (a listener redraws when it changes). */
    public LongProperty samplesProperty() {
        return samples;
    }

    public int size() {
        return size;
    }

    /** The i-th point, oldest first. */
    public double get(int i) {
        return values[(head - size + i + POINTS) % POINTS];
    }
}
