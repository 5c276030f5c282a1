package lookout.console.configpane;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.ConfigDiff;

/**
 * "Odds before → after" for the plain-words diff: per resource, family and address, the odds the
 * running configuration gives now and the odds the candidate would give under the same monitor and
 * forced states (both computed by the engine's odds calculator, {@code Engine#candidateOdds}).
 * Only what moves is said; a failover that starts or ends is said too.
 */
public final class OddsDiff {

    private OddsDiff() {
    }

    /** True when a change can move odds: weighted pools (weights, items, up_thresh, groups) or service types. */
    public static boolean touchesPools(ConfigDiff d) {
        return d != null && d.changes().stream()
                .anyMatch(c -> c.section().equals("plugins") || c.section().equals("service_types"));
    }

    public static List<String> describe(List<PoolsSnapshot.PoolResource> before, List<PoolsSnapshot.PoolResource> after) {
        Map<String, PoolsSnapshot.PoolFamily> fb = families(before);
        Map<String, PoolsSnapshot.PoolFamily> fa = families(after);
        List<String> keys = new ArrayList<>(fb.keySet());
        fa.keySet().stream().filter(k -> !fb.containsKey(k)).forEach(keys::add);
        List<String> out = new ArrayList<>();
        for (String fam : keys) {
            PoolsSnapshot.PoolFamily b = fb.get(fam);
            PoolsSnapshot.PoolFamily a = fa.get(fam);
            Map<String, PoolsSnapshot.PoolItem> ib = items(b);
            Map<String, PoolsSnapshot.PoolItem> ia = items(a);
            List<String> labels = new ArrayList<>(ib.keySet());
            ia.keySet().stream().filter(k -> !ib.containsKey(k)).forEach(labels::add);
            for (String label : labels) {
                PoolsSnapshot.PoolItem x = ib.get(label);
                PoolsSnapshot.PoolItem y = ia.get(label);
                if (x != null && y != null && same(x.probability(), y.probability())) {
                    continue;
                }
                PoolsSnapshot.PoolItem any = y != null ? y : x;
                out.add("odds of " + fam + "/" + label + " (" + any.target() + "): "
                        + (x == null ? "new" : percent(x.probability())) + " → "
                        + (y == null ? "removed" : percent(y.probability()))
                        + (y != null && y.down() ? " (DOWN now)" : ""));
            }
            boolean wasFailover = b != null && b.failover();
            boolean willFailover = a != null && a.failover();
            if (wasFailover != willFailover) {
                out.add(fam + ": " + (willFailover
                        ? "would be in FAILOVER (live weight " + a.liveWeight() + " < up_weight " + a.upWeight() + ")"
                        : "would leave FAILOVER"));
            }
        }
        if (out.isEmpty()) {
            out.add("odds unchanged under the current monitor and forced states");
        }
        return out;
    }

    static String percent(double p) {
        return String.format(Locale.ROOT, "%.1f %%", p * 100);
    }

    private static boolean same(double a, double b) {
        return Math.abs(a - b) < 5e-4; // below what the 0.1 % display can show
    }

    private static Map<String, PoolsSnapshot.PoolFamily> families(List<PoolsSnapshot.PoolResource> rs) {
        Map<String, PoolsSnapshot.PoolFamily> m = new LinkedHashMap<>();
        for (PoolsSnapshot.PoolResource r : Objects.requireNonNullElse(rs, List.<PoolsSnapshot.PoolResource>of())) {
            for (PoolsSnapshot.PoolFamily f : r.families()) {
                m.put(r.name() + "/" + f.family(), f);
            }
        }
        return m;
    }

    private static Map<String, PoolsSnapshot.PoolItem> items(PoolsSnapshot.PoolFamily f) {
        Map<String, PoolsSnapshot.PoolItem> m = new LinkedHashMap<>();
        if (f != null) {
            for (PoolsSnapshot.PoolGroup g : f.groups()) {
                for (PoolsSnapshot.PoolItem i : g.items()) {
                    m.put(i.label(), i);
                }
            }
        }
        return m;
    }
}
