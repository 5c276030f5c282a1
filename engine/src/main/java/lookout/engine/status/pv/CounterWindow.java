package lookout.engine.status.pv;

import java.util.ArrayDeque;

/**
 * How much a counter grew over the last {@code window} (refused questions per minute, duplicate
 * claims and server restarts in the last hour), from samples kept at least {@code step} apart:
 * at most {@code window / step + 2} samples, whatever the sampling rate. Before a full window of
 * history, the growth since the first sample. A counter that goes down (its service restarted)
 * starts the history again. Pure: {@code now} is given, compared by difference (a wrapping
 * clock is fine).
 */
final class CounterWindow {

    private final long window;
    private final long step;
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();

    CounterWindow(long windowNanos, long stepNanos) {
        if (windowNanos <= 0 || stepNanos <= 0) {
            throw new IllegalArgumentException("window and step must be positive");
        }
        this.window = windowNanos;
        this.step = stepNanos;
    }

    /** Records {@code counter} at {@code now} and returns its growth over the window. */
    long observe(long now, long counter) {
        long[] last = samples.peekLast();
        if (last != null && counter < last[1]) {
            samples.clear();
            last = null;
        }
        if (last == null || now - last[0] >= step) {
            samples.addLast(new long[] {now, counter});
        }
        // keep the newest sample at least a window old as the baseline
        while (samples.size() >= 2) {
            long[] second = samplesSecond();
            if (now - second[0] >= window) {
                samples.pollFirst();
            } else {
                break;
            }
        }
        return counter - samples.peekFirst()[1];
    }

    private long[] samplesSecond() {
        var it = samples.iterator();
        it.next();
        return it.next();
    }

    int size() {
        return samples.size();
    }
}
