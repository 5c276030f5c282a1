package lookout.engine.weighted;

/**
 * A family under a given set of DOWN items: the dynamic weights gdnsd's {@code resolve()}
 * computes per query, computed once per state change instead (SPEC §Weighted pools: an item is
 * DOWN if any of its service types is DOWN; {@code up_weight} is fixed at load; failover only when
 * the live total is strictly below it, and then every item counts as UP). Immutable.
 */
public final class LiveFamily {

    final FamilyPlan plan;
    final int[] weight;        // dynamic weight per item (0 when DOWN, unless in failover)
    final long[] groupSum;     // dynamic sum per group
    final int[] groupMax;      // dynamic max per group
    final long sum;            // dynamic sum of all groups
    final long maxGroupSum;    // dynamic max of the group sums
    final long liveWeight;     // the monitored live total, before any failover reset
    final boolean failover;

    /** A live view of {@code plan} under {@code down} (per item). */
    public static LiveFamily of(FamilyPlan plan, boolean[] down) {
        return new LiveFamily(plan, down);
    }

    private LiveFamily(FamilyPlan plan, boolean[] down) {
        this.plan = plan;
        int n = plan.items();
        int g = plan.groups();
        long live = 0;
        for (int i = 0; i < n; i++) {
            if (!down[i]) {
                live += plan.weight[i];
            }
        }
        this.liveWeight = live;
        // seed 001: "if the total_dynamic_weight is less than ceil(up_thresh * total_configured_weight)"
        this.failover = live < plan.upWeight;
        weight = new int[n];
        groupSum = new long[g];
        groupMax = new int[g];
        long s = 0;
        long m = 0;
        for (int k = 0; k < g; k++) {
            for (int i = plan.groupStart[k]; i < plan.groupStart[k + 1]; i++) {
                int w = failover || !down[i] ? plan.weight[i] : 0;
                weight[i] = w;
                groupSum[k] += w;
                groupMax[k] = Math.max(groupMax[k], w);
            }
            s += groupSum[k];
            m = Math.max(m, groupSum[k]);
        }
        sum = s;
        maxGroupSum = m;
    }

    public FamilyPlan plan() {
        return plan;
    }

    public boolean failover() {
        return failover;
    }

    /** The monitored live weight (DOWN items count zero), whatever the failover. */
    public long liveWeight() {
        return liveWeight;
    }

    /** The dynamic weight of {@code item} used for selection. */
    public int dynamicWeight(int item) {
        return weight[item];
    }
}
