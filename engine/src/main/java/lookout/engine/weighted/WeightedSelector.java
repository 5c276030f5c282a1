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
                if (draw(random, live.maxGroupSum) < gs) {
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
                    if (draw(random, max) < live.weight[i]) {
                        out[n++] = i;
                    }
                }
            }
        }
        // SPEC: multi-address answers are shuffled, so order carries no meaning.
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
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

    /** An unbiased integer in [0, bound). */
    static long draw(RandomGenerator random, long bound) {
        return bound <= Integer.MAX_VALUE ? random.nextInt((int) bound) : random.nextLong(bound);
    }
}
