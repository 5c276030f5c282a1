package lookout.engine.pva.server;

import java.util.concurrent.TimeUnit;

/**
 * When beacons go out (seed 002 §4 and §9: every 15 s for the first ten, then every 180 s).
 * Pure: it only counts, the sender asks it for the delay after each beacon.
 *
 * <p>Choice where the seed is silent: the first beacon leaves at start (so a freshly started
 * server is announced at once), the next nine 15 s apart, then one every 180 s.
 */
public final class BeaconSchedule {

    public static final long SHORT_NANOS = TimeUnit.SECONDS.toNanos(15);
    public static final long LONG_NANOS = TimeUnit.SECONDS.toNanos(180);
    public static final int SHORT_COUNT = 10;

    private long sent;
    private long nextDue;

    /** Starts the schedule at {@code now}: the first beacon is due immediately. */
    public BeaconSchedule(long now) {
        this.nextDue = now;
    }

    /** nanoTime at which the next beacon is due. */
    public long nextDue() {
        return nextDue;
    }

    public boolean isDue(long now) {
        return now - nextDue >= 0; // overflow-safe comparison of nanoTime values
    }

    /** Records a beacon sent at {@code now}; returns the delay until the next one. */
    public long sent(long now) {
        sent++;
        long delay = sent < SHORT_COUNT ? SHORT_NANOS : LONG_NANOS;
        nextDue = now + delay;
        return delay;
    }

    /** Beacons sent so far; its low byte is the beacon's sequence field. */
    public long count() {
        return sent;
    }
}
