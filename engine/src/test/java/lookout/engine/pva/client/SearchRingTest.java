package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import org.junit.jupiter.api.Test;

/** The ring of seed 002 §3.2 driven in virtual time: {@code now} is a plain counter here. */
class SearchRingTest {

    static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long S = TimeUnit.SECONDS.toNanos(1);

    /** A ring plus the two timers the service arms, stepped in virtual time. */
    static final class Driver {
        final SearchRing ring = new SearchRing();
        final List<ByteBuf> sent = new ArrayList<>();
        final List<Integer> sizes = new ArrayList<>();
        final List<long[]> searches = new ArrayList<>(); // {cid, time}
        final SearchPacker packer;
        long now;
        long nextTick;
        long initialDue = Long.MAX_VALUE;
        boolean keepDatagrams;

        Driver(long firstTick) {
            nextTick = firstTick;
            packer = new SearchPacker(UnpooledByteBufAllocator.DEFAULT, 5076, (d, n) -> {
                sizes.add(d.readableBytes());
                if (keepDatagrams) {
                    sent.add(d.copy());
                }
            });
        }

        void add(PvChannel c) {
            long d = ring.addNew(c, now);
            if (d >= 0) {
                initialDue = now + d;
            }
        }

        SearchRing.Packer recording() {
            return c -> {
                searches.add(new long[] {c.cid, now});
                packer.search(c);
            };
        }

        /** Runs every timer due up to {@code until}, in order. */
        void runUntil(long until) {
            for (int guard = 0; guard < 10_000_000; guard++) {
                long t = Math.min(nextTick, initialDue);
                if (t > until) {
                    break;
                }
                now = t;
                packer.begin();
                if (initialDue <= nextTick) {
                    initialDue = Long.MAX_VALUE;
                    ring.drainInitial(recording());
                } else {
                    nextTick = now + ring.tick(now, recording());
                }
                packer.flush();
            }
            now = until;
        }

        boolean hurryUp() {
            if (ring.hurryUp(now)) {
                nextTick = now;
                return true;
            }
            return false;
        }
    }

    private static List<Long> timesOf(Driver d, int cid) {
        return d.searches.stream().filter(s -> s[0] == cid).map(s -> s[1]).toList();
    }

    @Test
    void attemptScheduleOfOneChannel() {
        // ticks at 1 s, 2 s, ...; the channel is created at 0.3 s
        Driver d = new Driver(S);
        d.now = 300 * MS;
        d.add(new PvChannel("demo:pv", 1));
        d.runUntil(1000 * S);
        List<Long> t = timesOf(d, 1);
        // attempt 1: the 10-ms coalescing delay
        assertThat(t.get(0)).isEqualTo(310 * MS);
        // attempt 2: on the next tick, 0–1 s later
        assertThat(t.get(1) - t.get(0)).isBetween(0L, S);
        // attempts 3..31: each delay one second longer than the one before (1, 2, 3 ... 29 s)
        for (int k = 3; k <= 31; k++) {
            assertThat(t.get(k - 1) - t.get(k - 2)).as("delay before attempt %d", k).isEqualTo((k - 2) * S);
        }
        // elapsed at attempt 31 is ~436 s (435 s after attempt 2, which came ~1 s after creation)
        assertThat(t.get(30) - t.get(1)).isEqualTo(435 * S);
        assertThat(t.get(30) - 300 * MS).isBetween(435 * S, 437 * S);
        // then every 30 s, indefinitely
        for (int k = 32; k <= t.size(); k++) {
            assertThat(t.get(k - 1) - t.get(k - 2)).isEqualTo(30 * S);
        }
        assertThat(t.size()).isGreaterThan(45);
        // ~12 searches in the first minute
        assertThat(t.stream().filter(x -> x - 300 * MS < 60 * S).count()).isEqualTo(12);
    }

    @Test
    void resolvedChannelsLeaveOnDrain() {
        Driver d = new Driver(S);
        PvChannel a = new PvChannel("a", 1);
        PvChannel b = new PvChannel("b", 2);
        d.add(a);
        d.add(b);
        d.runUntil(1500 * MS);
        b.state = ChannelState.RESOLVED;
        d.runUntil(100 * S);
        assertThat(timesOf(d, 2)).hasSize(2);
        assertThat(timesOf(d, 1).size()).isGreaterThan(10);
        assertThat(d.ring.size()).isEqualTo(1);
    }

    @Test
    void thousandChannelsCreatedTogether() {
        for (int l : new int[] {20, 30, 40}) {
            Driver d = new Driver(S);
            d.keepDatagrams = true;
            int c = Pva.namesPerDatagram(l);
            for (int i = 0; i < 1000; i++) {
                String name = String.format("%0" + l + "d", i);
                d.add(new PvChannel(name, i));
            }
            d.runUntil(20 * MS);
            // the first search of all 1000 leaves in ⌈1000 / C⌉ full datagrams
            assertThat(d.sizes).hasSize((1000 + c - 1) / c);
            int names = 0;
            for (ByteBuf b : d.sent) {
                DatagramContents dc = PvaCodec.decodeDatagram(b);
                names += ((SearchRequest) dc.frames().get(0).message()).names().size();
            }
            assertThat(names).isEqualTo(1000);
            // the cohort is split on insertion: the cursor bucket is at most 100 above the next
            int cur = d.ring.cursor();
            assertThat(d.ring.bucketSize(cur) - d.ring.bucketSize((cur + 1) % 30)).isLessThanOrEqualTo(100);
            assertThat(d.ring.bucketSize((cur + 1) % 30)).isPositive();
            d.sent.forEach(ByteBuf::release);
            d.sent.clear();
            d.keepDatagrams = false;

            // every datagram ever sent fits 1400 bytes
            d.runUntil(1200 * S);
            assertThat(d.sizes).allMatch(x -> x <= Pva.MAX_SEARCH_DATAGRAM);
            // once saturated (every channel on its 30-s period), no bucket is more than 100
            // above the next, at every tick of a further revolution
            for (int tick = 0; tick < 30; tick++) {
                d.runUntil(d.now + S);
                for (int b = 0; b < 30; b++) {
                    assertThat(d.ring.bucketSize(b) - d.ring.bucketSize((b + 1) % 30)).isLessThanOrEqualTo(100);
                }
            }
            assertThat(d.ring.size()).isEqualTo(1000);
        }
    }

    @Test
    void saturatedChannelsAreSearchedExactlyOncePerRevolution() {
        // a cohort far above the split threshold, created at once
        Driver d = new Driver(S);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            d.add(new PvChannel("c" + i, i));
        }
        d.searches.clear();
        d.runUntil(600 * S);
        int before = d.searches.size();
        d.runUntil(600 * S + 30 * S);
        // §8: once saturated, each name is searched once per 30 s — N names per revolution
        assertThat(d.searches.size() - before).isEqualTo(n);
        long[] perChannel = new long[n];
        d.searches.subList(before, d.searches.size()).forEach(s -> perChannel[(int) s[0]]++);
        assertThat(perChannel).containsOnly(1L);
    }

    @Test
    void cohortSplittingDefersBehindTheCursorBucketByOneTick() {
        // 300 saturated channels in the bucket drained next, nothing in the one after it: their
        // target is that same bucket again and the following bucket is the cursor's (§3.2)
        Driver d = new Driver(S);
        List<PvChannel> cohort = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            PvChannel c = new PvChannel("s" + i, i);
            c.attempts = 29;
            d.ring.place(c, 0);
            cohort.add(c);
        }
        d.runUntil(S); // the tick at 1 s drains bucket 0
        assertThat(d.searches).hasSize(300);
        // split: no more than 100 above the following bucket, the rest waiting for it
        int kept = d.ring.bucketSize(0);
        assertThat(kept).isLessThan(300);
        assertThat(kept - d.ring.deferredSize()).isLessThanOrEqualTo(100);
        assertThat(kept + d.ring.deferredSize()).isEqualTo(300);
        // the next tick drains bucket 1 without them: they join it afterwards
        d.runUntil(2 * S);
        assertThat(d.searches).hasSize(300);
        assertThat(d.ring.deferredSize()).isZero();
        assertThat(d.ring.bucketSize(1)).isEqualTo(300 - kept);
        // each channel searched again after 30 s (kept) or 31 s (deferred), never sooner
        d.runUntil(40 * S);
        for (PvChannel c : cohort) {
            List<Long> t = timesOf(d, c.cid);
            assertThat(t).hasSize(2);
            assertThat(t.get(1) - t.get(0)).isIn(30 * S, 31 * S);
        }
        long late = cohort.stream().filter(c -> timesOf(d, c.cid).get(1) - timesOf(d, c.cid).get(0) == 31 * S).count();
        assertThat(late).isEqualTo(300 - kept);
    }

    @Test
    void hurryUpRunsOneFastRevolutionThenHoldsOff() {
        Driver d = new Driver(S);
        PvChannel a = new PvChannel("a", 1);
        d.add(a);
        d.runUntil(600 * S);
        int attemptsBefore = a.attempts;
        assertThat(attemptsBefore).isEqualTo(30);
        int bucketBefore = a.bucket;
        int n = d.searches.size();
        long start = d.now;
        assertThat(d.hurryUp()).isTrue();
        d.runUntil(start + 6 * S - 1);
        // one revolution of 200-ms ticks: the channel was searched exactly once, its attempt count
        // and bucket unchanged
        assertThat(d.searches.size() - n).isEqualTo(1);
        assertThat((int) a.attempts).isEqualTo(attemptsBefore);
        assertThat(a.bucket).isEqualTo((byte) bucketBefore);
        assertThat(d.ring.hurryingUp()).isFalse();
        // back to 1-s ticks
        long t0 = d.nextTick;
        d.runUntil(t0);
        assertThat(d.nextTick - t0).isEqualTo(S);
        // holdoff: refused until 30 s after the last accepted hurry-up
        d.runUntil(start + 29 * S);
        assertThat(d.hurryUp()).isFalse();
        d.runUntil(start + 30 * S);
        assertThat(d.hurryUp()).isTrue();
        // and never while one is running
        assertThat(d.ring.hurryUp(d.now + 100 * S)).isFalse();
    }

    @Test
    void reentryPlacements() {
        SearchRing ring = new SearchRing();
        PvChannel a = new PvChannel("a", 1);
        ring.reenter(a, SearchRing.Placement.CURSOR);
        assertThat(a.bucket).isEqualTo((byte) ring.cursor());
        ring.reenter(a, SearchRing.Placement.CURSOR_PLUS_10);
        assertThat(a.bucket).isEqualTo((byte) ((ring.cursor() + 10) % 30));
        ring.reenter(a, SearchRing.Placement.CURSOR_MINUS_1);
        assertThat(a.bucket).isEqualTo((byte) ((ring.cursor() + 29) % 30));
        assertThat(ring.size()).isEqualTo(1);
        ring.remove(a);
        assertThat(ring.size()).isZero();
        ring.remove(a);
        assertThat(ring.size()).isZero();
    }

    @Test
    void nextSearchEstimateMatchesWhatHappens() {
        Driver d = new Driver(S);
        PvChannel a = new PvChannel("a", 1);
        d.add(a);
        d.runUntil(50 * S + 500 * MS);
        d.ring.nextTickAt(d.nextTick);
        long predicted = d.ring.nextSearchAt(a);
        d.runUntil(200 * S);
        assertThat(timesOf(d, 1)).contains(predicted);
    }

    @Test
    void worksAtExtremeClocks() {
        for (long origin : new long[] {Long.MIN_VALUE / 2, -1, Long.MAX_VALUE / 2}) {
            SearchRing ring = new SearchRing();
            assertThat(ring.hurryUp(origin)).isTrue();
            for (int i = 0; i < 30; i++) {
                ring.tick(origin, c -> { });
            }
            assertThat(ring.hurryUp(origin + 29 * S)).isFalse();
            assertThat(ring.hurryUp(origin + 30 * S)).isTrue();
        }
    }
}
