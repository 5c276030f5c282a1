package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The bounded draw is unbiased (chi-squared at α = 1e-4), including where 2^32 mod bound is large. */
class BoundedDrawTest {

    private static void uniform(long bound, long bucketSize, int buckets, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Map<String, Integer> observed = new HashMap<>();
        Map<String, Double> expected = new HashMap<>();
        for (int b = 0; b < buckets; b++) {
            expected.put(Integer.toString(b), 1.0 / buckets);
        }
        int n = 60_000;
        for (int i = 0; i < n; i++) {
            long v = WeightedSelector.draw(r, bound);
            assertThat(v).isBetween(0L, bound - 1);
            observed.merge(Long.toString(v / bucketSize), 1, Integer::sum);
        }
        assertThat(ChiSquared.test(observed, expected, n).pValue()).as("bound %d", bound).isGreaterThan(1e-4);
    }

    @Test
    void smallBounds() {
        uniform(7, 1, 7, 1);
        uniform(1, 1, 1, 2);
        uniform(64, 1, 64, 3);
    }

    @Test
    void boundWhereModuloWouldBeBiased() {
        // 3 x 2^30: "next 32 bits mod bound" would give the first third twice the odds of the others
        uniform(3L << 30, 1L << 30, 3, 4);
    }

    @Test
    void boundAbove32Bits() {
        // a grouped family can total 64 x 64 x 1048575
        long bound = 64L * 64 * 1_048_575;
        uniform(bound, bound / 4 + 1, 4, 5);
    }
}
