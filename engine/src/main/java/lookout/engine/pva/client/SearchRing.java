package lookout.engine.pva.client;

import java.util.concurrent.TimeUnit;

/**
 * The search ring of seed 002 §3.2: 30 buckets of channels and a cursor. Each tick drains the
 * bucket under the cursor, hands every searching channel to a {@link Packer} and reinserts it
 * {@code n} buckets ahead, {@code n} its attempt count (incremented per attempt, clamped to 30),
 * deferring it one more bucket when the target holds more than 100 entries more than the bucket
 * after it (cohort splitting). New channels wait in an initial list drained by a one-shot 10-ms
 * timer so that channels created together share datagrams.
 *
 * <p>A pure structure: it owns no timer and reads no clock. The caller passes {@code now}
 * (nanoseconds on the scheduler's clock) and arms the timers whose delays it returns.
 *
 * <p>Concurrency: confined to the engine loop.
 */
final class SearchRing {

    static final int BUCKETS = 30;
    static final int COHORT_SPLIT = 100;
    static final long TICK = TimeUnit.SECONDS.toNanos(1);
    static final long FAST_TICK = TimeUnit.MILLISECONDS.toNanos(200);
    static final long INITIAL_DELAY = TimeUnit.MILLISECONDS.toNanos(10);
    static final long HURRY_UP_HOLDOFF = TimeUnit.SECONDS.toNanos(30);

    /** Receives each channel searched by a drain, in order. */
    interface Packer {
        void search(PvChannel channel);
    }

    /** §3.6: where a channel re-entering Searching is placed. */
    enum Placement {
        /** Channel closed or TCP lost while active: searched on the next tick. */
        CURSOR(0),
        /** Transport failure before channel creation: ~10 s. */
        CURSOR_PLUS_10(10),
        /** CMD_CREATE_CHANNEL refused after a claim: the bucket drained last, ~30 s. */
        CURSOR_MINUS_1(BUCKETS - 1);

        final int offset;

        Placement(int offset) {
            this.offset = offset;
        }
    }

    private static final class Bucket {
        PvChannel head;
        PvChannel tail;
        int size;
    }

    private final Bucket[] buckets = new Bucket[BUCKETS];
    private final Bucket initial = new Bucket();
    /**
     * Channels deferred by cohort splitting into the bucket under the cursor: that bucket is
     * drained on the very next tick, so they join it right after that drain (one tick after their
     * target, as §3.2 says), not before it.
     */
    private final Bucket deferred = new Bucket();
    private int cursor;
    private long initialDueAt;
    private boolean initialArmed;
    private int fastTicksLeft;
    private boolean everHurried;
    private long lastHurryUp;
    private long nextTickAt;

    SearchRing() {
        for (int i = 0; i < BUCKETS; i++) {
            buckets[i] = new Bucket();
        }
    }

    // ------------------------------------------------------------ membership

    /**
     * Queues a new channel for its first search. Returns the delay after which the caller must
     * call {@link #drainInitial}, or -1 when that timer is already armed.
     */
    long addNew(PvChannel c, long now) {
        remove(c);
        append(initial, c);
        c.bucket = PvChannel.INITIAL;
        if (initialArmed) {
            return -1;
        }
        initialArmed = true;
        initialDueAt = now + INITIAL_DELAY;
        return INITIAL_DELAY;
    }

    /** Puts a channel back into Searching at a §3.6 placement. */
    void reenter(PvChannel c, Placement where) {
        remove(c);
        int b = Math.floorMod(cursor + where.offset, BUCKETS);
        append(buckets[b], c);
        c.bucket = (byte) b;
    }

    /** Places a channel directly into bucket {@code b} (live reload keeps positions; tests). */
    void place(PvChannel c, int b) {
        remove(c);
        append(buckets[b], c);
        c.bucket = (byte) b;
    }

    /** Unlinks a channel from whichever list holds it; no-op when in none. */
    void remove(PvChannel c) {
        Bucket b = listOf(c);
        if (b == null) {
            return;
        }
        if (c.prev == null) {
            b.head = c.next;
        } else {
            c.prev.next = c.next;
        }
        if (c.next == null) {
            b.tail = c.prev;
        } else {
            c.next.prev = c.prev;
        }
        c.prev = null;
        c.next = null;
        c.bucket = PvChannel.NOWHERE;
        b.size--;
    }

    private Bucket listOf(PvChannel c) {
        if (c.bucket == PvChannel.INITIAL) {
            return initial;
        }
        if (c.bucket == PvChannel.DEFERRED) {
            return deferred;
        }
        return c.bucket >= 0 ? buckets[c.bucket] : null;
    }

    private static void append(Bucket b, PvChannel c) {
        c.next = null;
        c.prev = b.tail;
        if (b.tail == null) {
            b.head = c;
        } else {
            b.tail.next = c;
        }
        b.tail = c;
        b.size++;
    }

    // ------------------------------------------------------------ draining

    /** The 10-ms timer fired: search every channel of the initial list together. */
    int drainInitial(Packer packer) {
        initialArmed = false;
        // PVXS: initial searches go to the bucket under the cursor, without an attempt increment,
        // so the second search follows on the next tick (0–1 s later).
        return drain(initial, cursor, false, packer);
    }

    /**
     * One tick: drains the bucket under the cursor and moves the cursor on. Returns the delay to
     * the next tick: 200 ms during a hurry-up revolution, else 1 s.
     */
    long tick(long now, Packer packer) {
        int idx = cursor;
        cursor = (cursor + 1) % BUCKETS;
        boolean fast = fastTicksLeft > 0;
        if (fast) {
            fastTicksLeft--;
        }
        // the channels deferred into this bucket by the last tick wait a whole revolution in it,
        // after this drain
        PvChannel c = deferred.head;
        deferred.head = null;
        deferred.tail = null;
        deferred.size = 0;
        // Hurry-up ticks do not count as attempts: channels go back where they were (PVXS "poked").
        drain(buckets[idx], idx, !fast, packer);
        while (c != null) {
            PvChannel following = c.next;
            append(buckets[idx], c);
            c.bucket = (byte) idx;
            c = following;
        }
        long delay = fast ? FAST_TICK : TICK;
        nextTickAt = now + delay;
        return delay;
    }

    private int drain(Bucket from, int idx, boolean countAttempt, Packer packer) {
        PvChannel c = from.head;
        from.head = null;
        from.tail = null;
        from.size = 0;
        int searched = 0;
        while (c != null) {
            PvChannel following = c.next;
            c.prev = null;
            c.next = null;
            c.bucket = PvChannel.NOWHERE;
            if (c.state == ChannelState.SEARCHING) {
                packer.search(c);
                searched++;
                c.searches++;
                int n = 0;
                if (countAttempt) {
                    n = Math.min(BUCKETS, c.attempts + 1);
                    c.attempts = (byte) n;
                }
                int target = (idx + n) % BUCKETS;
                int after = (target + 1) % BUCKETS;
                // seed 002 §3.2 cohort splitting: a channel whose target holds more than 100
                // entries more than the following bucket is "deferred by one extra tick". When the
                // following bucket is the one under the cursor (a saturated channel, n = 30, or a
                // hurry-up tick, n = 0), it is drained on the very next tick: the channel waits
                // aside and joins it right after that drain, so it is searched one tick after its
                // target, not 29 ticks early.
                if (after == cursor) {
                    if (buckets[target].size > buckets[after].size + deferred.size + COHORT_SPLIT) {
                        append(deferred, c);
                        c.bucket = PvChannel.DEFERRED;
                        c = following;
                        continue;
                    }
                } else if (buckets[target].size > buckets[after].size + COHORT_SPLIT) {
                    target = after;
                }
                append(buckets[target], c);
                c.bucket = (byte) target;
            }
            c = following;
        }
        return searched;
    }

    // ------------------------------------------------------------ hurry-up

    /**
     * seed 002 §9 hurryUp(): one revolution of 200-ms ticks, at most once per 30 s and never while
     * one is running. Returns true when accepted: the caller fires a tick now.
     */
    boolean hurryUp(long now) {
        if (fastTicksLeft > 0) {
            return false;
        }
        if (everHurried && now - lastHurryUp < HURRY_UP_HOLDOFF) {
            return false;
        }
        everHurried = true;
        lastHurryUp = now;
        fastTicksLeft = BUCKETS;
        return true;
    }

    /** Records when the next tick is due (the caller's timer), for next-search estimates. */
    void nextTickAt(long at) {
        this.nextTickAt = at;
    }

    // ------------------------------------------------------------ observation

    int cursor() {
        return cursor;
    }

    int bucketSize(int b) {
        return buckets[b].size;
    }

    /** Channels deferred into the bucket under the cursor, joining it after its next drain. */
    int deferredSize() {
        return deferred.size;
    }

    int initialSize() {
        return initial.size;
    }

    int fastTicksLeft() {
        return fastTicksLeft;
    }

    boolean hurryingUp() {
        return fastTicksLeft > 0;
    }

    /** When the next hurry-up would be accepted (a time in the past when it would be now). */
    long hurryUpAvailableAt() {
        return everHurried ? lastHurryUp + HURRY_UP_HOLDOFF : Long.MIN_VALUE;
    }

    boolean everHurried() {
        return everHurried;
    }

    /** Total channels in the ring and the initial list. */
    long size() {
        long n = initial.size + deferred.size;
        for (Bucket b : buckets) {
            n += b.size;
        }
        return n;
    }

    /**
     * When channel {@code c} is next searched, from the bucket it is in, the cursor and the tick
     * schedule; {@code Long.MIN_VALUE} when it is not in the ring.
     */
    long nextSearchAt(PvChannel c) {
        if (c.bucket == PvChannel.INITIAL) {
            return initialDueAt;
        }
        if (c.bucket == PvChannel.DEFERRED) {
            return nextTickAt + ticks(BUCKETS);
        }
        if (c.bucket < 0) {
            return Long.MIN_VALUE;
        }
        return nextTickAt + ticks(Math.floorMod(c.bucket - cursor, BUCKETS));
    }

    /** The time {@code k} ticks take from the next one, fast ticks first. */
    private long ticks(int k) {
        long t = 0;
        for (int j = 0; j < k; j++) {
            t += j < fastTicksLeft ? FAST_TICK : TICK;
        }
        return t;
    }
}
