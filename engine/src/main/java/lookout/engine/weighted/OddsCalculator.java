package lookout.engine.weighted;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Exact odds of a {@link LiveFamily}: each item's probability of being in the answer, each
 * group's probability of contributing, and — where the number of distinct answer sets is at most
 * {@link #MAX_SETS} — every answer set with its probability. Pure: the "what-if" entry point is
 * the same call on a hypothetical {@link LiveFamily}.
 */
public final class OddsCalculator {

    /** Above this many distinct answer sets, the sets are not listed (the item odds always are). */
    public static final int MAX_SETS = 4096;

    private OddsCalculator() {
    }

    /** One distinct answer: item labels in configuration order, and its probability. */
    public record AnswerSet(List<String> items, double probability) {
        public AnswerSet {
            items = List.copyOf(items);
        }
    }

    /**
     * @param itemProbability  per item, the probability of being in the answer
     * @param groupProbability per group, the probability that the answer holds any of its items
     * @param sets             the distinct answer sets, most likely first; null when not enumerable
     * @param setCount         how many distinct sets have a non-zero probability
     * @param failover         the family is below up_thresh and answers as if every item were UP
     * @param upWeight         {@code ceil(total × up_thresh)}
     * @param liveWeight       the monitored live total
     */
    public record FamilyOdds(double[] itemProbability, double[] groupProbability, List<AnswerSet> sets,
                             double setCount, boolean failover, long upWeight, long liveWeight) {
    }

    public static FamilyOdds odds(LiveFamily live) {
        FamilyPlan p = live.plan;
        int n = p.items();
        double[] item = new double[n];
        double[] group = new double[p.groups()];
        List<List<Choice>> factors = new ArrayList<>(); // independent factors: answer = one choice per factor
        boolean single = p.cname || !p.multi;
        double singleCount = 0;
        if (single) {
            // one group picked with gs/sum, then each member included with w/gmax
            List<Choice> outer = new ArrayList<>();
            for (int g = 0; g < p.groups(); g++) {
                if (live.groupSum[g] == 0) {
                    continue;
                }
                double pg = (double) live.groupSum[g] / live.sum;
                group[g] = pg;
                int from = p.groupStart[g];
                int to = p.groupStart[g + 1];
                List<List<Choice>> inner = new ArrayList<>();
                for (int i = from; i < to; i++) {
                    double pi = (to - from == 1 || p.cname) ? (live.weight[i] > 0 ? 1.0 : 0.0)
                            : (double) live.weight[i] / live.groupMax[g];
                    item[i] = pg * pi;
                    inner.add(inclusion(i, pi));
                }
                double innerCount = 1;
                for (List<Choice> f : inner) {
                    innerCount *= f.size();
                }
                singleCount += innerCount;
                for (Choice c : product(inner)) {
                    outer.add(new Choice(c.items, pg * c.p));
                }
            }
            factors.add(outer);
        } else {
            // each group included with gs/max group sum, then exactly one member picked with w/gs
            for (int g = 0; g < p.groups(); g++) {
                double qg = (double) live.groupSum[g] / live.maxGroupSum;
                group[g] = qg;
                List<Choice> f = new ArrayList<>();
                if (qg < 1.0) {
                    f.add(new Choice(new int[0], 1.0 - qg));
                }
                for (int i = p.groupStart[g]; i < p.groupStart[g + 1]; i++) {
                    if (live.weight[i] == 0) {
                        continue;
                    }
                    double pi = qg * live.weight[i] / live.groupSum[g];
                    item[i] = pi;
                    f.add(new Choice(new int[] {i}, pi));
                }
                factors.add(f);
            }
        }
        double count = 1;
        for (List<Choice> f : factors) {
            count *= f.size();
        }
        if (single) {
            count = singleCount;
        }
        List<AnswerSet> sets = null;
        if (count <= MAX_SETS) {
            List<Choice> all = product(factors);
            sets = new ArrayList<>(all.size());
            for (Choice c : all) {
                List<String> labels = new ArrayList<>(c.items.length);
                for (int i : c.items) {
                    labels.add(p.label[i]);
                }
                sets.add(new AnswerSet(labels, c.p));
            }
            sets.sort(Comparator.comparingDouble(AnswerSet::probability).reversed()
                    .thenComparing(s -> String.join(",", s.items())));
        }
        return new FamilyOdds(item, group, sets, count, live.failover, p.upWeight, live.liveWeight);
    }

    /** Item {@code i} in or out, independently. */
    private static List<Choice> inclusion(int i, double pi) {
        List<Choice> l = new ArrayList<>(2);
        if (pi > 0) {
            l.add(new Choice(new int[] {i}, pi));
        }
        if (pi < 1) {
            l.add(new Choice(new int[0], 1 - pi));
        }
        return l;
    }

    /** Every combination of one choice per factor, items merged in index order. */
    private static List<Choice> product(List<List<Choice>> factors) {
        double count = 1;
        for (List<Choice> f : factors) {
            count *= f.size();
        }
        if (count > MAX_SETS) {
            return List.of(); // too many to list; callers only need the item odds then
        }
        List<Choice> acc = List.of(new Choice(new int[0], 1.0));
        for (List<Choice> f : factors) {
            List<Choice> next = new ArrayList<>(acc.size() * f.size());
            for (Choice a : acc) {
                for (Choice b : f) {
                    int[] merged = new int[a.items.length + b.items.length];
                    System.arraycopy(a.items, 0, merged, 0, a.items.length);
                    System.arraycopy(b.items, 0, merged, a.items.length, b.items.length);
                    java.util.Arrays.sort(merged);
                    next.add(new Choice(merged, a.p * b.p));
                }
            }
            acc = next;
        }
        return acc;
    }

    private record Choice(int[] items, double p) {
    }
}
