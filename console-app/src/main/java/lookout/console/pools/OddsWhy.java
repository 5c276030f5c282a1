package lookout.console.pools;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.PlainWords;
import lookout.console.widgets.Why;
import lookout.engine.api.PoolsSnapshot;

/**
 * "Why does this address have these odds?": the facts of one weighted item (or group) from the
 * engine's pools section, the rule of its family's mode (seed 001, gdnsd's weighted plugin) with
 * the numbers filled in, and the engine's own result. Pure.
 */
final class OddsWhy {

    private OddsWhy() {
    }

    static Why of(PoolsSnapshot p, PoolRow.Kind kind, String key) {
        if (p == null || !p.running()) {
            return new Why("Odds", "The weighted pools are not running: there are no odds.", Indicator.Level.INACTIVE,
                    List.of(), List.of());
        }
        String[] k = key.split("/", 4); // resource / family / (group /) label
        for (PoolsSnapshot.PoolResource r : p.resources()) {
            if (!r.name().equals(k[0])) {
                continue;
            }
            if (kind == PoolRow.Kind.RESOURCE || k.length < 2) {
                return resource(r);
            }
            for (PoolsSnapshot.PoolFamily f : r.families()) {
                if (!f.family().equals(k[1])) {
                    continue;
                }
                if (kind == PoolRow.Kind.FAMILY) {
                    return family(r, f);
                }
                String rest = key.substring(k[0].length() + k[1].length() + 2);
                for (PoolsSnapshot.PoolGroup g : f.groups()) {
                    if (kind == PoolRow.Kind.GROUP && g.name().equals(rest)) {
                        return group(r, f, g);
                    }
                    for (PoolsSnapshot.PoolItem it : g.items()) {
                        if (it.label().equals(rest)) {
                            return item(p, r, f, g, it);
                        }
                    }
                }
            }
        }
        return new Why("Odds of " + key, "The engine no longer lists this line (the configuration changed?).",
                Indicator.Level.INACTIVE, List.of(), List.of());
    }

    static String percent(double p) {
        return String.format(Locale.ROOT, "%.1f %%", p * 100);
    }

    private static List<Why.Fact> familyFacts(PoolsSnapshot.PoolResource r, PoolsSnapshot.PoolFamily f) {
        List<Why.Fact> facts = new ArrayList<>();
        facts.add(new Why.Fact("Resource", r.name() + " (" + r.kind() + ")"
                + (r.forcedState() == null ? "" : ", forced " + r.forcedState() + " as a whole")));
        facts.add(new Why.Fact("Family", f.family() + ", mode " + f.mode() + ": " + rule(f.mode())));
        facts.add(new Why.Fact("Weights", "configured " + f.totalWeight() + ", live " + f.liveWeight()
                + String.format(Locale.ROOT, ", up_weight %d (⌈%d × up_thresh %.2f⌉)", f.upWeight(), f.totalWeight(), f.upThresh())));
        facts.add(new Why.Fact("Failover", f.failover()
                ? "YES: live " + f.liveWeight() + " < up_weight " + f.upWeight() + ", so every address is answered as if UP"
                : "no: live " + f.liveWeight() + " ≥ up_weight " + f.upWeight()));
        return facts;
    }

    private static String rule(String mode) {
        return switch (mode) {
            case "ungrouped-single" -> "one address per answer, picked with its live weight / the live total";
            case "ungrouped-multi" -> "each address is answered with its live weight / the largest live weight";
            case "grouped-single" -> "one group per answer (its live weight / the live total), then each of its"
                    + " addresses with its weight / the group's largest";
            case "grouped-multi" -> "every group, each with its live weight / the largest group's, then one of its"
                    + " addresses with its weight / the group's live weight";
            case "cname" -> "one name per answer, picked with its weight / the live total";
            default -> mode;
        };
    }

    private static Why resource(PoolsSnapshot.PoolResource r) {
        List<Why.Fact> facts = new ArrayList<>();
        facts.add(new Why.Fact("Resource", r.name() + " (" + r.kind() + "), " + r.answers() + " answers drawn"));
        facts.add(new Why.Fact("Forced", r.forcedState() == null ? "no" : r.forcedState() + " as a whole"));
        boolean fo = false;
        for (PoolsSnapshot.PoolFamily f : r.families()) {
            facts.add(new Why.Fact("Family " + f.family(), f.mode() + ", live " + f.liveWeight() + " / up_weight "
                    + f.upWeight() + (f.failover() ? ": FAILOVER" : "")));
            fo |= f.failover();
        }
        return new Why("Resource " + r.name(), fo ? "A family is in failover: its answers ignore the monitors until"
                + " enough weight is UP again." : "Every family answers from its UP addresses by weight.",
                fo ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL, facts, List.of());
    }

    private static Why family(PoolsSnapshot.PoolResource r, PoolsSnapshot.PoolFamily f) {
        return new Why("Family " + f.family() + " of " + r.name(), f.failover()
                ? "In FAILOVER: less weight is UP (" + f.liveWeight() + ") than up_weight (" + f.upWeight()
                        + "), so every address is answered as if UP, by its configured weight."
                : "Answering from its UP addresses: " + rule(f.mode()) + ".",
                f.failover() ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL, familyFacts(r, f), List.of());
    }

    private static Why group(PoolsSnapshot.PoolResource r, PoolsSnapshot.PoolFamily f, PoolsSnapshot.PoolGroup g) {
        List<Why.Fact> facts = familyFacts(r, f);
        facts.add(new Why.Fact("Group", g.name() + ": weight " + g.weight() + ", live " + g.liveWeight()));
        facts.add(new Why.Fact("Engine's odds", percent(g.probability())));
        return new Why("Group " + g.name() + " of " + r.name() + "/" + f.family(),
                "Group " + g.name() + " contributes to " + percent(g.probability()) + " of answers: live weight "
                        + g.liveWeight() + " of the family's " + (f.failover() ? f.totalWeight() + " (failover: as if UP)" : f.liveWeight()) + ".",
                g.probability() == 0 ? Indicator.Level.ADVISORY : Indicator.Level.NORMAL, facts, List.of());
    }

    private static Why item(PoolsSnapshot p, PoolsSnapshot.PoolResource r, PoolsSnapshot.PoolFamily f,
                            PoolsSnapshot.PoolGroup g, PoolsSnapshot.PoolItem it) {
        List<Why.Fact> facts = familyFacts(r, f);
        facts.add(new Why.Fact("Address", it.label() + " → " + it.target() + ", configured weight " + it.weight()
                + ", weight used now " + it.dynamicWeight()));
        List<String> monitorWords = new ArrayList<>();
        List<String> checks = new ArrayList<>();
        for (PoolsSnapshot.PoolMonitor m : p.monitors()) {
            if (m.target().equals(it.target())) {
                String last = m.lastResult() == null || m.lastResult().isEmpty() ? "" : ", last probe: " + PlainWords.of(m.lastResult());
                monitorWords.add(m.serviceType() + " (" + m.plugin() + ") " + m.monitoredState()
                        + (m.forcedState() == null ? "" : ", forced " + m.forcedState()) + " → " + m.effectiveState() + last);
                if ("DOWN".equals(m.monitoredState()) && m.forcedState() == null) {
                    checks.add("the service " + m.serviceType() + " on " + it.target() + " (its probe fails" + last + ")");
                }
                if (m.forcedState() != null) {
                    checks.add("the forced state of " + m.name() + " (Release it to let the monitor decide)");
                }
            }
        }
        facts.add(new Why.Fact("Monitors", monitorWords.isEmpty() ? "none (service_types empty: always UP)"
                : String.join("; ", monitorWords)));
        facts.add(new Why.Fact("State", (it.down() ? "DOWN" : "UP") + (it.forced() ? " (forced)" : "")
                + (it.monitoredDown() && !it.down() ? ", DOWN by its monitors but answered (failover)" : "")));
        if (f.groups().size() > 1 && f.mode().startsWith("grouped")) {
            facts.add(new Why.Fact("Group", g.name() + ": weight " + g.weight() + ", live " + g.liveWeight()
                    + ", odds " + percent(g.probability())));
        }
        facts.add(new Why.Fact("Engine's odds", percent(it.probability())));
        String diagnosis;
        Indicator.Level level = Indicator.Level.NORMAL;
        long total = f.failover() ? f.totalWeight() : f.liveWeight();
        if (it.probability() == 0) {
            level = Indicator.Level.ADVISORY;
            diagnosis = it.target() + " is never answered now: it is DOWN" + (it.forced() ? " (forced)" : " (its monitors)")
                    + " and the family is not in failover, so its weight does not count.";
        } else if (f.mode().equals("ungrouped-single") || f.mode().equals("cname")) {
            diagnosis = it.target() + " is in " + percent(it.probability()) + " of answers: weight "
                    + (f.failover() ? it.weight() : it.dynamicWeight()) + " of " + total
                    + (f.failover() ? " (the family is in FAILOVER: every address counts as UP)" : " live") + ".";
            if (f.failover()) {
                level = Indicator.Level.ADVISORY;
            }
        } else {
            diagnosis = it.target() + " is in " + percent(it.probability()) + " of answers: " + rule(f.mode())
                    + (f.failover() ? " (in FAILOVER: as if every address were UP)" : "") + ".";
        }
        return new Why("Odds of " + it.target() + " (" + r.name() + "/" + f.family() + "/" + it.label() + ")", diagnosis,
                level, facts, checks);
    }
}
