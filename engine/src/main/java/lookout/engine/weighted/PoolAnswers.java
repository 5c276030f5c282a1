package lookout.engine.weighted;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;
import lookout.engine.seams.DynamicRecords;

/**
 * What DYNA/DYNC answers are drawn from: an immutable copy of every resource's live families and
 * TTL, replaced whole (never changed) on the engine loop after each state change or reload — the
 * double-buffered state table of gdnsd. The engine loop's answers and those of the resolver's
 * other answering threads read it alike, so a draw never touches monitor state and takes no lock.
 *
 * <p>Concurrency: {@link #publish} on the engine loop; {@code published} is volatile; each
 * {@link Answerer} belongs to one thread (its random source and scratch space); the counters are
 * striped ({@link LongAdder}).
 */
final class PoolAnswers {

    private static final SecureRandom SEEDS = new SecureRandom();

    private volatile Map<String, ResourceView> published = Map.of();
    // counters shared by every answerer (engine loop and answer loops): striped, no lock
    final LongAdder answersTotal = new LongAdder();
    final LongAdder nodataTotal = new LongAdder();
    final LongAdder unknownTotal = new LongAdder();

    /** Replaces the published view with the current live families (engine loop). */
    void publish(Collection<PoolRuntime.Resource> resources) {
        Map<String, ResourceView> view = new HashMap<>(resources.size() * 2);
        for (PoolRuntime.Resource r : resources) {
            view.put(r.name, new ResourceView(r.v4 == null ? null : r.v4.live, r.v6 == null ? null : r.v6.live,
                    r.cname == null ? null : r.cname.live, r.monitorTtl, r.answers));
        }
        published = view;
    }

    /** Nothing to draw from any more (stop). */
    void clear() {
        published = Map.of();
    }

    /** An answerer drawing with {@code random}, for the calling thread. */
    DynamicRecords answerer(RandomGenerator random) {
        return new Answerer(random);
    }

    /**
     * An answerer for another thread (any thread may ask): a fast generator of its own, seeded from
     * the system's secure source like the engine loop's, so answering threads never share or lock a
     * generator.
     */
    DynamicRecords answererOfItsOwn() {
        return new Answerer(new SplittableRandom(SEEDS.nextLong()));
    }

    /** An answer for an unknown resource, or for a service not started: NODATA with the record's TTL. */
    DynamicRecords.Answer unknown(long recordTtl) {
        unknownTotal.increment();
        return new DynamicRecords.Answer(List.of(), null, recordTtl, false);
    }

    /** One resource as answers see it: immutable live families, the TTL, and its answer counter. */
    record ResourceView(LiveFamily v4, LiveFamily v6, LiveFamily cname, long monitorTtl, LongAdder answers) {
    }

    /**
     * Draws answers from the published view for one thread: its own random source and scratch
     * space, nothing else of its own. The engine loop has one, each resolver answer loop another.
     */
    final class Answerer implements DynamicRecords {
        private final RandomGenerator random;
        private int[] scratch = new int[16];

        Answerer(RandomGenerator random) {
            this.random = random;
        }

        @Override
        public DynamicRecords.Answer answer(String resource, int qtype, long recordTtl, long recordMinTtl) {
            ResourceView r = published.get(resource);
            if (r == null) {
                unknownTotal.increment();
                return unknown(recordTtl);
            }
            r.answers().increment();
            answersTotal.increment();
            // SPEC: the TTL is the minimum monitor TTL over every item, capped by the record's TTL
            // and floored by the record's minimum.
            long ttl = Math.min(r.monitorTtl(), recordTtl);
            if (ttl < recordMinTtl) {
                ttl = recordMinTtl;
            }
            if (r.cname() != null) {
                int[] out = scratch(r.cname());
                WeightedSelector.select(r.cname(), random, out);
                return new DynamicRecords.Answer(List.of(), r.cname().plan().target(out[0]), ttl, r.cname().failover());
            }
            // SPEC: A gets the IPv4 selection only, AAAA the IPv6 selection only; else NODATA.
            LiveFamily f = qtype == 1 ? r.v4() : qtype == 28 ? r.v6() : null;
            if (f == null) {
                nodataTotal.increment();
                boolean fo = (r.v4() != null && r.v4().failover()) || (r.v6() != null && r.v6().failover());
                return new DynamicRecords.Answer(List.of(), null, ttl, fo);
            }
            int[] out = scratch(f);
            int n = WeightedSelector.select(f, random, out);
            InetAddress[] addrs = new InetAddress[n];
            for (int i = 0; i < n; i++) {
                addrs[i] = f.plan().address(out[i]);
            }
            return new DynamicRecords.Answer(List.of(addrs), null, ttl, f.failover());
        }

        @Override
        public DynamicRecords forAnswerLoop() {
            throw new UnsupportedOperationException("an answerer belongs to one thread");
        }

        private int[] scratch(LiveFamily f) {
            int n = f.plan().items();
            if (scratch.length < n) {
                scratch = new int[n];
            }
            return scratch;
        }
    }

}
