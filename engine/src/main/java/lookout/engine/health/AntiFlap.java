package lookout.engine.health;

import lookout.engine.config.ServiceTypeConfig;

/**
 * gdnsd's anti-flap state machine for one monitor (plugins/mon.c {@code gdnsd_mon_state_updater}),
 * fed raw pass/fail results; pure, no clock. SPEC §Weighted pools: defaults up 20, ok 10, down 10.
 *
 * <ul>
 * <li>The first result sets the state directly (UP on success, DOWN on failure).
 * <li>DOWN: a success counts towards {@code up_thresh}; reaching it goes UP with clean counters;
 *     a failure resets the success count.
 * <li>UP with no failure history: successes change nothing.
 * <li>UP: a failure resets the success count and counts towards {@code down_thresh}; reaching it
 *     goes DOWN with clean counters. Once some failure is on record, {@code ok_thresh}
 *     consecutive successes clear the history.
 * </ul>
 * The TTL is {@code interval × results still needed to flip}, capped at gdnsd's maximum.
 */
public final class AntiFlap {

    private final int upThresh;
    private final int okThresh;
    private final int downThresh;
    private final int interval;
    private boolean initialized;
    private boolean down;
    private int successes;
    private int failures;

    public AntiFlap(int upThresh, int okThresh, int downThresh, int interval) {
        this.upThresh = upThresh;
        this.okThresh = okThresh;
        this.downThresh = downThresh;
        this.interval = interval;
    }

    public static AntiFlap of(ServiceTypeConfig t) {
        return new AntiFlap(t.upThresh(), t.okThresh(), t.downThresh(), t.interval());
    }

    /** Feeds one raw result; returns true when the UP/DOWN state changed. */
    public boolean record(boolean ok) {
        boolean was = down;
        if (!initialized) {
            initialized = true;
            down = !ok;
            return down != was;
        }
        if (down) {
            if (ok) {
                successes++;
                if (successes == upThresh) {
                    successes = 0;
                    failures = 0;
                    down = false;
                }
            } else {
                successes = 0;
            }
        } else if (ok) {
            if (failures > 0) {
                successes++;
                if (successes == okThresh) {
                    failures = 0;
                    successes = 0;
                }
            }
        } else {
            successes = 0;
            failures++;
            if (failures == downThresh) {
                failures = 0;
                down = true;
            }
        }
        return down != was;
    }

    public boolean down() {
        return down;
    }

    /** True once a first result has arrived. */
    public boolean initialized() {
        return initialized;
    }

    public int successes() {
        return successes;
    }

    public int failures() {
        return failures;
    }

    /** Seconds this state is good for: gdnsd's maximum before the first result. */
    public long ttl() {
        if (!initialized) {
            return ServiceTypeConfig.TTL_MAX;
        }
        long count = down ? upThresh - successes : downThresh - failures;
        return Math.min((long) interval * count, ServiceTypeConfig.TTL_MAX);
    }
}
