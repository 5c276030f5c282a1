package lookout.engine.weighted;

import java.util.random.RandomGenerator;

/**
 * Draws answers from a {@link LiveFamily} exactly as gdnsd 3.8's plugin_weighted does
 * (SPEC §Weighted pools): unbiased integers in {@code [0, bound)}; "pick" takes the first item in
 * configuration order with {@code r < running sum}; "include" is {@code r < weight}; multi-item
 * answers are shuffled. Stateless; allocation-free apart from the caller's output array.
 */
public final class WeightedSelector {

    private WeightedSelector() {
    }

    /**
     * Selects items of {@code live} into {@code out} (item indices, shuffled) and returns how
     * many. {@code out} must hold at least {@code live.plan().items()} entries.
     */
    public static int select(LiveFamily live, RandomGenerator random, int[] out) {
        FamilyPlan p = live.plan;
        int n = 0;
        if (p.cname) {
            out[0] = pick(live.weight, 0, p.items(), live.sum, random);
            return 1;
        }
        if (p.multi) {
            // seed 001 multi: include each group with group sum / largest group sum, then pick
            // exactly one member by w / group sum (ungrouped: groups of one).
            for (int g = 0; g < p.groups(); g++) {
                long gs = live.groupSum[g];
                // r < gs is certain when gs is the maximum and impossible when gs is 0: no draw
                // needed (same distribution as gdnsd, which draws anyway)
                if (gs == live.maxGroupSum || (gs != 0 && draw(random, live.maxGroupSum) < gs)) {
                    int from = p.groupStart[g];
                    int to = p.groupStart[g + 1];
                    out[n++] = to - from == 1 ? from : pick(live.weight, from, to, gs, random);
                }
            }
        } else {
            // seed 001 single: pick one group by live sums, then include each member with
            // w / group's live max (ungrouped: the one member always).
            int g = pickGroup(live, random);
            int from = p.groupStart[g];
            int to = p.groupStart[g + 1];
            if (to - from == 1) {
                out[n++] = from;
            } else {
                int max = live.groupMax[g];
                for (int i = from; i < to; i++) {
                    int w = live.weight[i];
                    if (w == max || (w != 0 && draw(random, max) < w)) {
                        out[n++] = i;
                    }
                }
            }
        }
        // SPEC: multi-address answers are shuffled, so order carries no meaning.
        for (int i = n - 1; i > 0; i--) {
            int j = (int) draw(random, i + 1);
            int t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
        return n;
    }

    private static int pickGroup(LiveFamily live, RandomGenerator random) {
        long r = draw(random, live.sum);
        long running = 0;
        FamilyPlan p = live.plan;
        for (int g = 0; g < p.groups(); g++) {
            running += live.groupSum[g];
            if (r < running) {
                return g;
            }
        }
        throw new IllegalStateException("no group picked: live sum " + live.sum);
    }

    private static int pick(int[] weight, int from, int to, long sum, RandomGenerator random) {
        long r = draw(random, sum);
        long running = 0;
        for (int i = from; i < to; i++) {
            running += weight[i];
            if (r < running) {
                return i;
            }
        }
        throw new IllegalStateException("no item picked: sum " + sum);
    }

    /**
     * An unbiased integer in [0, bound). Below 2^32, Lemire's multiply-and-reject on one 32-bit
     * draw (no division on the common path; unbiased like gdnsd's {@code gdnsd_rand32_bounded});
     * above it (a grouped family can total 64 × 64 × 1 048 575), the generator's own bounded draw.
     */
    static long draw(RandomGenerator random, long bound) {
        if (bound > 0xFFFF_FFFFL) {
            return random.nextLong(bound);
        }
        long m = (random.nextInt() & 0xFFFF_FFFFL) * bound;
        long low = m & 0xFFFF_FFFFL;
        if (low < bound) {
            long threshold = (0x1_0000_0000L - bound) % bound; // 2^32 mod bound
            while (low < threshold) {
                m = (random.nextInt() & 0xFFFF_FFFFL) * bound;
                low = m & 0xFFFF_FFFFL;
            }
        }
        return m >>> 32;
    }
}
