package lookout.engine.weighted;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedGroup;
import lookout.engine.config.WeightedItem;

/**
 * One family of a resource compiled for selection: items flattened in configuration order,
 * groups as index ranges (ungrouped items are groups of one, as in gdnsd), configured sums and
 * maxima, and {@code up_weight}. Immutable.
 */
public final class FamilyPlan {

    final WeightedFamily config;
    final boolean multi;
    final boolean cname;
    final int[] groupStart;   // groupStart[g] .. groupStart[g+1]-1 are the items of group g
    final int[] weight;       // per item
    final long[] groupWeight; // configured sum per group
    final int[] groupMax;     // configured max per group
    final long total;
    final long maxGroupWeight;
    final long upWeight;
    final InetAddress[] address; // per item; null for CNAMEs
    final String[] target;       // per item: address text or CNAME
    final String[] label;        // per item: "group/label" when grouped, else "label"

    public FamilyPlan(WeightedFamily f) {
        this.config = f;
        this.cname = f.kind() == WeightedFamily.Kind.CNAME;
        this.multi = f.multi() && !cname;
        int n = 0;
        for (WeightedGroup g : f.groups()) {
            n += g.items().size();
        }
        groupStart = new int[f.groups().size() + 1];
        groupWeight = new long[f.groups().size()];
        groupMax = new int[f.groups().size()];
        weight = new int[n];
        address = new InetAddress[n];
        target = new String[n];
        label = new String[n];
        int i = 0;
        long t = 0;
        long mg = 0;
        for (int g = 0; g < f.groups().size(); g++) {
            WeightedGroup grp = f.groups().get(g);
            groupStart[g] = i;
            for (WeightedItem it : grp.items()) {
                weight[i] = it.weight();
                target[i] = it.target();
                address[i] = cname ? null : WeightedConfig.parseAddress(it.target());
                label[i] = f.grouped() ? grp.name() + "/" + it.label() : it.label();
                i++;
            }
            groupWeight[g] = grp.weight();
            groupMax[g] = grp.maxWeight();
            t += groupWeight[g];
            mg = Math.max(mg, groupWeight[g]);
        }
        groupStart[f.groups().size()] = i;
        total = t;
        maxGroupWeight = mg;
        upWeight = f.upWeight();
    }

    public WeightedFamily config() {
        return config;
    }

    public int items() {
        return weight.length;
    }

    public int groups() {
        return groupWeight.length;
    }

    public String label(int item) {
        return label[item];
    }

    public String target(int item) {
        return target[item];
    }

    public InetAddress address(int item) {
        return address[item];
    }

    public int weight(int item) {
        return weight[item];
    }

    public long total() {
        return total;
    }

    public long upWeight() {
        return upWeight;
    }

    /** Item labels in order. */
    public List<String> labels() {
        return List.of(label);
    }

    /** The group index of each item. */
    int[] groupOf() {
        int[] g = new int[weight.length];
        for (int k = 0; k < groups(); k++) {
            for (int i = groupStart[k]; i < groupStart[k + 1]; i++) {
                g[i] = k;
            }
        }
        return g;
    }

    static List<Integer> range(int from, int to) {
        List<Integer> l = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            l.add(i);
        }
        return l;
    }
}
