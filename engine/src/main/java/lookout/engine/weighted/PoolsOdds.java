package lookout.engine.weighted;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.Config;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedResource;
import lookout.engine.health.AdminState;
import lookout.engine.health.ForcedStates;
import lookout.engine.health.HealthMonitors;
import lookout.engine.health.MonitorKey;

/**
 * The pools as the snapshot, the what-if and the "odds before → after" of a candidate show them:
 * exact odds of every answer and address ({@link OddsCalculator}) under current, hypothetical or
 * candidate states. Reads the service's running state; changes nothing. Engine loop only.
 */
final class PoolsOdds {

    private static final String RESOURCE_PREFIX = PoolRuntime.RESOURCE_PREFIX;

    private final HealthMonitors health;
    private final ForcedStates forced;
    private final Supplier<Map<String, PoolRuntime.Resource>> resources;

    PoolsOdds(HealthMonitors health, ForcedStates forced, Supplier<Map<String, PoolRuntime.Resource>> resources) {
        this.health = health;
        this.forced = forced;
        this.resources = resources;
    }

    /**
     * What-if odds: the resources as they would be if each monitor matching a glob of
     * {@code hypothetical} had the given state ({@code UP}/{@code DOWN}), and each resource matching
     * a {@code weighted!GLOB} key were forced to it, without applying anything.
     */
    public List<PoolsSnapshot.PoolResource> whatIf(Map<String, String> hypothetical) {
        Map<Pattern, Boolean> overrides = new LinkedHashMap<>();
        for (var e : hypothetical.entrySet()) {
            AdminState.Entry parsed = AdminState.parseValue(e.getKey(), e.getValue());
            if (parsed == null) {
                throw new IllegalArgumentException("state for '" + e.getKey() + "' must be UP or DOWN");
            }
            overrides.put(AdminState.resolvePattern(e.getKey()), parsed.down());
        }
        List<PoolsSnapshot.PoolResource> out = new ArrayList<>();
        for (PoolRuntime.Resource r : resources.get().values()) {
            // a weighted!GLOB key forces the resource hypothetically, as the admin_state file would
            AdminState.Entry resourceForced = r.forced;
            for (var e : hypothetical.entrySet()) {
                if (e.getKey().startsWith(RESOURCE_PREFIX)
                        && AdminState.resolvePattern(e.getKey()).matcher(RESOURCE_PREFIX + r.name).matches()) {
                    resourceForced = AdminState.parseValue(e.getKey(), e.getValue());
                }
            }
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (PoolRuntime.Family f : r.families) {
                boolean[] down = new boolean[f.plan.items()];
                for (int i = 0; i < down.length; i++) {
                    for (MonitorKey k : f.monitors.get(i)) {
                        boolean d = health.state(k).down();
                        for (var o : overrides.entrySet()) {
                            if (o.getKey().matcher(k.desc()).matches()) {
                                d = o.getValue();
                            }
                        }
                        down[i] |= d;
                    }
                }
                if (resourceForced != null) {
                    java.util.Arrays.fill(down, resourceForced.down());
                }
                fams.add(familySnapshot(f, LiveFamily.of(f.plan, down), down, resourceForced != null));
            }
            out.add(new PoolsSnapshot.PoolResource(r.name, r.cname != null ? "cname" : "address", r.monitorTtl, fams, r.answers.sum(),
                    resourceForced == null ? null : resourceForced.value()));
        }
        return out;
    }

    /**
     * The odds {@code candidate}'s weighted stanza would give, nothing installed: each item's
     * monitors read as they are now (effective state, forced included); a monitor the running
     * configuration does not have yet counts as its admin_state glob forces it, else UP (the state
     * a new monitor starts in, {@link HealthMonitors#state}); {@code weighted!GLOB} entries force
     * the candidate's resources by name. The console says "odds before → after" with it.
     */
    public List<PoolsSnapshot.PoolResource> oddsFor(Config candidate) {
        WeightedConfig wc = candidate.weighted() == null ? WeightedConfig.empty() : candidate.weighted();
        AdminState state = forced.current();
        List<AdminState.Entry> monitorEntries = new ArrayList<>();
        List<AdminState.Entry> resourceEntries = new ArrayList<>();
        for (AdminState.Entry e : state.entries()) {
            (e.glob().startsWith(RESOURCE_PREFIX) ? resourceEntries : monitorEntries).add(e);
        }
        java.util.Set<String> known = health.names();
        java.util.Set<String> resourceNames = new java.util.LinkedHashSet<>();
        for (String r : wc.resources().keySet()) {
            resourceNames.add(RESOURCE_PREFIX + r);
        }
        Map<String, AdminState.Entry> byResource = new AdminState(resourceEntries).resolve(resourceNames);
        AdminState monitorsState = new AdminState(monitorEntries);
        List<PoolsSnapshot.PoolResource> out = new ArrayList<>();
        for (WeightedResource wr : wc.resources().values()) {
            PoolRuntime.Resource r = new PoolRuntime.Resource(wr);
            AdminState.Entry resourceForced = byResource.get(RESOURCE_PREFIX + r.name);
            PoolRuntime.Resource running = resources.get().get(r.name);
            long ttl = ServiceTypeConfig.TTL_MAX;
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (PoolRuntime.Family f : r.families) {
                boolean[] down = new boolean[f.plan.items()];
                for (int i = 0; i < down.length; i++) {
                    for (MonitorKey k : f.monitors.get(i)) {
                        HealthMonitors.State s;
                        if (known.contains(k.desc())) {
                            s = health.state(k);
                        } else {
                            AdminState.Entry e = monitorsState.resolve(List.of(k.desc())).get(k.desc());
                            s = e == null ? health.state(k) : new HealthMonitors.State(e.down(), e.effectiveTtl());
                        }
                        down[i] |= s.down();
                        ttl = Math.min(ttl, s.ttl());
                    }
                }
                if (resourceForced != null) {
                    java.util.Arrays.fill(down, resourceForced.down());
                }
                fams.add(familySnapshot(f, LiveFamily.of(f.plan, down), down, resourceForced != null));
            }
            out.add(new PoolsSnapshot.PoolResource(r.name, r.cname != null ? "cname" : "address",
                    resourceForced != null ? resourceForced.effectiveTtl() : ttl, fams,
                    running == null ? 0 : running.answers.sum(), resourceForced == null ? null : resourceForced.value()));
        }
        return out;
    }

    public PoolsSnapshot snapshot() {
        List<PoolsSnapshot.PoolResource> res = new ArrayList<>();
        for (PoolRuntime.Resource r : resources.get().values()) {
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (PoolRuntime.Family f : r.families) {
                fams.add(familySnapshot(f, f.live, f.down, r.forced != null));
            }
            res.add(new PoolsSnapshot.PoolResource(r.name, r.cname != null ? "cname" : "address", r.monitorTtl, fams, r.answers.sum(),
                    r.forced == null ? null : r.forced.value()));
        }
        List<PoolsSnapshot.PoolMonitor> mons = new ArrayList<>();
        for (HealthMonitors.View v : health.views()) {
            mons.add(new PoolsSnapshot.PoolMonitor(v.key().desc(), v.key().target(), v.key().serviceType(), v.plugin(),
                    !v.initialized() ? "UNKNOWN" : v.monitoredDown() ? "DOWN" : "UP",
                    v.forced() == null ? null : v.forced().value(), v.effective().down() ? "DOWN" : "UP",
                    v.effective().ttl(), v.successes(), v.failures(), v.probes(), v.passes(), v.lastResult()));
        }
        List<PoolsSnapshot.PoolForced> fs = new ArrayList<>();
        for (AdminState.Entry e : forced.current().entries()) {
            Pattern p = AdminState.resolvePattern(e.glob());
            java.util.stream.Stream<String> names = e.glob().startsWith(RESOURCE_PREFIX)
                    ? resources.get().keySet().stream().map(n -> RESOURCE_PREFIX + n) : health.names().stream();
            fs.add(new PoolsSnapshot.PoolForced(e.glob(), e.value(), names.filter(n -> p.matcher(n).matches()).sorted().toList()));
        }
        return new PoolsSnapshot(true, res, mons, fs, forced.file().toString(), forced.lastError(), health.inFlight());
    }

    PoolsSnapshot.PoolFamily familySnapshot(PoolRuntime.Family f, LiveFamily live, boolean[] down, boolean resourceForced) {
        Map<MonitorKey, HealthMonitors.View> views = new java.util.HashMap<>();
        for (HealthMonitors.View v : health.views()) {
            views.put(v.key(), v);
        }
        OddsCalculator.FamilyOdds odds = OddsCalculator.odds(live);
        FamilyPlan p = f.plan;
        List<PoolsSnapshot.PoolGroup> groups = new ArrayList<>();
        for (int g = 0; g < p.groups(); g++) {
            List<PoolsSnapshot.PoolItem> items = new ArrayList<>();
            long live0 = 0;
            for (int i = p.groupStart[g]; i < p.groupStart[g + 1]; i++) {
                boolean monDown = false;
                boolean anyForced = resourceForced;
                long ttl = ServiceTypeConfig.TTL_MAX;
                for (MonitorKey k : f.monitors.get(i)) {
                    HealthMonitors.View v = views.get(k);
                    if (v != null) {
                        monDown |= v.monitoredDown();
                        anyForced |= v.forced() != null;
                    }
                    ttl = Math.min(ttl, health.state(k).ttl());
                }
                if (!down[i]) {
                    live0 += p.weight[i];
                }
                items.add(new PoolsSnapshot.PoolItem(p.label[i], p.target[i], p.weight[i], live.weight[i], down[i], monDown,
                        anyForced, ttl, odds.itemProbability()[i]));
            }
            String gname = p.config.grouped() ? p.config.groups().get(g).name() : p.label[p.groupStart[g]];
            groups.add(new PoolsSnapshot.PoolGroup(gname, p.groupWeight[g], live0, odds.groupProbability()[g], items));
        }
        List<PoolsSnapshot.PoolAnswerSet> sets = new ArrayList<>();
        if (odds.sets() != null) {
            for (OddsCalculator.AnswerSet s : odds.sets()) {
                sets.add(new PoolsSnapshot.PoolAnswerSet(s.items(), s.probability()));
            }
        }
        WeightedFamily c = p.config;
        return new PoolsSnapshot.PoolFamily(f.family, c.mode(), c.upThresh(), c.serviceTypes(), p.total, p.upWeight,
                live.liveWeight, live.failover, groups, sets, odds.setCount(), odds.sets() != null);
    }

}
