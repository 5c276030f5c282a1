package lookout.engine.weighted;

import java.util.Set;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedResource;

/** Test helpers: families from configuration text, live views from sets of DOWN targets. */
final class Plans {

    private Plans() {
    }

    /** The single family of resource {@code r} in {@code body} (the inside of the weighted stanza). */
    static FamilyPlan family(String body) {
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("plugins => { weighted => {\n" + body + "\n} }", Synopsis.SERVICE_TYPES, p);
        if (!p.isEmpty()) {
            throw new IllegalArgumentException(p.list().toString());
        }
        WeightedResource r = c.resources().get("r");
        WeightedFamily f = r.families().get(0);
        return new FamilyPlan(f);
    }

    /** Items DOWN by label. */
    static LiveFamily liveByLabel(FamilyPlan plan, String... downLabels) {
        boolean[] down = new boolean[plan.items()];
        Set<String> d = Set.of(downLabels);
        for (int i = 0; i < down.length; i++) {
            down[i] = d.contains(plan.label(i));
        }
        return LiveFamily.of(plan, down);
    }

    /** Items DOWN by target (address or CNAME), as a shared monitor would make them. */
    static LiveFamily liveByTarget(FamilyPlan plan, Set<String> downTargets) {
        boolean[] down = new boolean[plan.items()];
        for (int i = 0; i < down.length; i++) {
            down[i] = downTargets.contains(plan.target(i));
        }
        return LiveFamily.of(plan, down);
    }
}
