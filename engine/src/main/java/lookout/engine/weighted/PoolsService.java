package lookout.engine.weighted;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.Config;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedResource;
import lookout.engine.core.Commands;
import lookout.engine.seams.DynamicRecords;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.health.AdminState;
import lookout.engine.health.ForcedStates;
import lookout.engine.health.HealthMonitors;
import lookout.engine.health.MonitorKey;

/**
 * Weighted pools (gdnsd plugin_weighted, seed 001, SPEC §Weighted pools): compiles the weighted
 * stanza, runs the monitors and the admin_state file, answers {@code DYNA}/{@code DYNC} for the
 * resolver, computes exact odds for the snapshot.
 *
 * <p>Concurrency: engine-loop confined, apart from answering. Live families are recomputed on
 * every effective state change and published as an immutable view, so an answer is a few random
 * draws over precomputed sums, never waits for a probe, and can be drawn on another thread
 * ({@link #forAnswerLoop}: the resolver's extra UDP answer loops, {@code resolver.udp_threads}).
 */
public final class PoolsService implements Service, Commands.Pools, DynamicRecords {

    /** At most this many probes run at once, whatever the number of monitors. */
    static final int MAX_CONCURRENT_PROBES = 64;

    private ServiceContext ctx;
    private RandomGenerator draws;
    private HealthMonitors health;
    private ForcedStates forced;
    private Map<String, ResourceRuntime> resources = Map.of();
    /**
     * What answers are drawn from: an immutable copy of every resource's live families and TTL,
     * replaced (never changed) on the engine loop after each state change or reload. The engine
     * loop's answers and those of the resolver's extra UDP answer loops read it alike, so a draw
     * never touches monitor state and no lock is taken per answer.
     */
    private volatile Map<String, ResourceView> published = Map.of();
    /** Answers drawn on the engine loop (its own random source and scratch space). */
    private Answerer engineAnswerer;
    // counters shared by every answerer (engine loop and answer loops): striped, no lock
    private final LongAdder answersTotal = new LongAdder();
    private final LongAdder nodataTotal = new LongAdder();
    private final LongAdder unknownTotal = new LongAdder();

    @Override
    public String name() {
        return "pools";
    }

    @Override
    public void start(ServiceContext context, Config config) {
        this.ctx = context;
        // A cryptographic source (the engine's default) costs microseconds per draw and takes a
        // lock; like gdnsd (a fast PRNG seeded from the system), draw from a fast generator seeded
        // by it. An injected non-secure source (tests, benchmarks) is used as it is.
        this.draws = ctx.random() instanceof SecureRandom
                ? new SplittableRandom(ctx.random().nextLong()) : ctx.random();
        this.engineAnswerer = new Answerer(draws);
        this.health = new HealthMonitors(ctx.scheduler(), ctx.io(), ctx::publish, this::recompute, MAX_CONCURRENT_PROBES);
        this.forced = new ForcedStates(ctx.stateDir(), ctx.scheduler(), ctx::publish, this::applyForced);
        install(config);
        forced.start();
    }

    @Override
    public void apply(Config before, Config after) {
        install(after);
        applyForced(forced.current());
    }

    @Override
    public void stop() {
        if (forced != null) {
            forced.stop();
        }
        if (health != null) {
            health.stop();
        }
        resources = Map.of();
        published = Map.of();
    }

    private void install(Config config) {
        WeightedConfig wc = config.weighted() == null ? WeightedConfig.empty() : config.weighted();
        Map<String, ServiceTypeConfig> types = config.serviceTypes();
        Map<String, ResourceRuntime> next = new LinkedHashMap<>();
        Map<MonitorKey, ServiceTypeConfig> wanted = new LinkedHashMap<>();
        for (WeightedResource r : wc.resources().values()) {
            ResourceRuntime rt = new ResourceRuntime(r);
            ResourceRuntime old = resources.get(r.name());
            if (old != null) {
                rt.answers = old.answers; // the same counter: answers drawn during the reload still count
                rt.forced = old.forced; // until applyForced re-resolves the globs on the new names
            }
            for (FamilyRuntime f : rt.families) {
                for (List<MonitorKey> keys : f.monitors) {
                    for (MonitorKey k : keys) {
                        ServiceTypeConfig t = types.get(k.serviceType());
                        if (t != null) {
                            wanted.put(k, t);
                        }
                    }
                }
            }
            next.put(r.name(), rt);
        }
        // carry failover flags so that a reload does not announce a failover already announced
        for (ResourceRuntime rt : next.values()) {
            ResourceRuntime old = resources.get(rt.name);
            if (old == null) {
                continue;
            }
            for (FamilyRuntime f : rt.families) {
                for (FamilyRuntime of : old.families) {
                    if (of.family.equals(f.family)) {
                        f.announcedFailover = of.announcedFailover;
                    }
                }
            }
        }
        resources = next;
        health.reconcile(wanted);
        // live views now, announcements after the forced states are re-applied (applyForced),
        // so that a reload never announces a failover that is not real
        recompute(false);
    }

    /**
     * admin_state keys {@code weighted!GLOB} force whole resources (SPEC: "force an address or a
     * resource"); every other key is a gdnsd monitor glob. A forced resource counts every item
     * UP (monitors ignored) or DOWN (then failover: answered as if all were UP, failure signalled),
     * with the forced TTL.
     */
    static final String RESOURCE_PREFIX = "weighted!";

    private void applyForced(AdminState state) {
        List<AdminState.Entry> monitorEntries = new ArrayList<>();
        List<AdminState.Entry> resourceEntries = new ArrayList<>();
        for (AdminState.Entry e : state.entries()) {
            (e.glob().startsWith(RESOURCE_PREFIX) ? resourceEntries : monitorEntries).add(e);
        }
        AdminState monitorsState = new AdminState(monitorEntries);
        AdminState resourcesState = new AdminState(resourceEntries);
        java.util.Set<String> resourceNames = new java.util.LinkedHashSet<>();
        for (String r : resources.keySet()) {
            resourceNames.add(RESOURCE_PREFIX + r);
        }
        List<String> unmatched = new ArrayList<>(monitorsState.unmatched(health.names()));
        unmatched.addAll(resourcesState.unmatched(resourceNames));
        for (String glob : unmatched) {
            ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), lookout.engine.api.Subsystem.POOLS,
                    lookout.engine.api.Severity.WARNING, "admin_state: glob '" + glob + "' did not match anything!"));
        }
        Map<String, AdminState.Entry> byResource = resourcesState.resolve(resourceNames);
        for (ResourceRuntime r : resources.values()) {
            r.forced = byResource.get(RESOURCE_PREFIX + r.name);
        }
        health.applyForced(monitorsState.resolve(health.names()));
        recompute(true);
    }

    /** Recomputes every live family from the monitors' effective states and announces failovers. */
    private void recompute() {
        recompute(true);
    }

    private void recompute(boolean announce) {
        for (ResourceRuntime r : resources.values()) {
            long ttl = ServiceTypeConfig.TTL_MAX;
            for (FamilyRuntime f : r.families) {
                boolean[] down = new boolean[f.plan.items()];
                for (int i = 0; i < down.length; i++) {
                    for (MonitorKey k : f.monitors.get(i)) {
                        HealthMonitors.State s = health.state(k);
                        down[i] |= s.down();
                        ttl = Math.min(ttl, s.ttl());
                    }
                }
                if (r.forced != null) {
                    java.util.Arrays.fill(down, r.forced.down());
                }
                f.down = down;
                f.live = LiveFamily.of(f.plan, down);
                if (announce && f.live.failover() != f.announcedFailover) {
                    f.announcedFailover = f.live.failover();
                    ctx.publish(new EngineEvent.PoolFailover(ctx.scheduler().now(), r.name, f.family, f.live.failover()));
                }
            }
            r.monitorTtl = r.forced != null ? r.forced.effectiveTtl() : ttl;
        }
        publish();
    }

    /** Replaces the published view with the current live families (engine loop). */
    private void publish() {
        Map<String, ResourceView> view = new java.util.HashMap<>(resources.size() * 2);
        for (ResourceRuntime r : resources.values()) {
            view.put(r.name, new ResourceView(r.v4 == null ? null : r.v4.live, r.v6 == null ? null : r.v6.live,
                    r.cname == null ? null : r.cname.live, r.monitorTtl, r.answers));
        }
        published = view;
    }

    // ------------------------------------------------------------------ DynamicRecords

    @Override
    public Answer answer(String resource, int qtype, long recordTtl, long recordMinTtl) {
        Answerer a = engineAnswerer;
        if (a == null) { // not started: nothing published to draw from
            unknownTotal.increment();
            return new Answer(List.of(), null, recordTtl, false);
        }
        return a.answer(resource, qtype, recordTtl, recordMinTtl);
    }

    /**
     * An answerer for another thread (any thread may ask): a fast generator of its own, seeded
     * from the system's secure source like the engine loop's, so answer loops never share or lock
     * a generator.
     */
    @Override
    public DynamicRecords forAnswerLoop() {
        return new Answerer(new SplittableRandom(SEEDS.nextLong()));
    }

    private static final SecureRandom SEEDS = new SecureRandom();

    /** One resource as answers see it: immutable live families, the TTL, and its answer counter. */
    private record ResourceView(LiveFamily v4, LiveFamily v6, LiveFamily cname, long monitorTtl, LongAdder answers) {
    }

    /**
     * Draws answers from the published view for one thread: its own random source and scratch
     * space, nothing else of its own. The engine loop has one, each resolver answer loop another.
     */
    private final class Answerer implements DynamicRecords {
        private final RandomGenerator random;
        private int[] scratch = new int[16];

        Answerer(RandomGenerator random) {
            this.random = random;
        }

        @Override
        public Answer answer(String resource, int qtype, long recordTtl, long recordMinTtl) {
            ResourceView r = published.get(resource);
            if (r == null) {
                unknownTotal.increment();
                return new Answer(List.of(), null, recordTtl, false);
            }
            r.answers().increment();
            answersTotal.increment();
            // SPEC: the TTL is the minimum monitor TTL over every item, capped by the record's TTL
            // and floored by the record's minimum.
            long ttl = Math.min(r.monitorTtl(), recordTtl);
            if (ttl < recordMinTtl) {
                ttl = recordMinTtl;
            }
            if (r.cname() != null) {
                int[] out = scratch(r.cname());
                WeightedSelector.select(r.cname(), random, out);
                return new Answer(List.of(), r.cname().plan().target(out[0]), ttl, r.cname().failover());
            }
            // SPEC: A gets the IPv4 selection only, AAAA the IPv6 selection only; else NODATA.
            LiveFamily f = qtype == 1 ? r.v4() : qtype == 28 ? r.v6() : null;
            if (f == null) {
                nodataTotal.increment();
                boolean fo = (r.v4() != null && r.v4().failover()) || (r.v6() != null && r.v6().failover());
                return new Answer(List.of(), null, ttl, fo);
            }
            int[] out = scratch(f);
            int n = WeightedSelector.select(f, random, out);
            InetAddress[] addrs = new InetAddress[n];
            for (int i = 0; i < n; i++) {
                addrs[i] = f.plan().address(out[i]);
            }
            return new Answer(List.of(addrs), null, ttl, f.failover());
        }

        @Override
        public DynamicRecords forAnswerLoop() {
            throw new UnsupportedOperationException("an answerer belongs to one thread");
        }

        private int[] scratch(LiveFamily f) {
            int n = f.plan().items();
            if (scratch.length < n) {
                scratch = new int[n];
            }
            return scratch;
        }
    }

    // ------------------------------------------------------------------ Commands.Pools

    @Override
    public void force(String key, String state, Duration ttl) throws Exception {
        forced.force(key, state, ttl);
    }

    @Override
    public void release(String key) throws Exception {
        forced.release(key);
    }

    // ------------------------------------------------------------------ odds and snapshot

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
        for (ResourceRuntime r : resources.values()) {
            // a weighted!GLOB key forces the resource hypothetically, as the admin_state file would
            AdminState.Entry resourceForced = r.forced;
            for (var e : hypothetical.entrySet()) {
                if (e.getKey().startsWith(RESOURCE_PREFIX)
                        && AdminState.resolvePattern(e.getKey()).matcher(RESOURCE_PREFIX + r.name).matches()) {
                    resourceForced = AdminState.parseValue(e.getKey(), e.getValue());
                }
            }
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (FamilyRuntime f : r.families) {
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
            ResourceRuntime r = new ResourceRuntime(wr);
            AdminState.Entry resourceForced = byResource.get(RESOURCE_PREFIX + r.name);
            ResourceRuntime running = resources.get(r.name);
            long ttl = ServiceTypeConfig.TTL_MAX;
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (FamilyRuntime f : r.families) {
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
        for (ResourceRuntime r : resources.values()) {
            List<PoolsSnapshot.PoolFamily> fams = new ArrayList<>();
            for (FamilyRuntime f : r.families) {
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
                    ? resources.keySet().stream().map(n -> RESOURCE_PREFIX + n) : health.names().stream();
            fs.add(new PoolsSnapshot.PoolForced(e.glob(), e.value(), names.filter(n -> p.matcher(n).matches()).sorted().toList()));
        }
        return new PoolsSnapshot(true, res, mons, fs, forced.file().toString(), forced.lastError(), health.inFlight());
    }

    private PoolsSnapshot.PoolFamily familySnapshot(FamilyRuntime f, LiveFamily live, boolean[] down, boolean resourceForced) {
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

    @Override
    public void contribute(SnapshotBuilder b) {
        PoolsSnapshot s = snapshot();
        b.pools(s);
        b.metric(Metric.counter("lookout_pools_answers_total", "DYNA/DYNC answers drawn from weighted pools", answersTotal.sum()));
        b.metric(Metric.counter("lookout_pools_nodata_total", "DYNA queries of a type or family the resource lacks", nodataTotal.sum()));
        b.metric(Metric.counter("lookout_pools_unknown_resource_total", "answers asked for an unknown resource", unknownTotal.sum()));
        b.metric(Metric.counter("lookout_monitor_probes_total", "monitor probes completed", health.probesTotal()));
        b.metric(Metric.counter("lookout_monitor_probe_failures_total", "monitor probes failed or timed out", health.probeFailures()));
        b.metric(Metric.counter("lookout_monitor_probes_skipped_total", "probes skipped because the previous one was still running", health.probesSkipped()));
        b.metric(Metric.gauge("lookout_monitor_probes_in_flight", "monitor probes running now", health.inFlight()));
        long downMonitors = s.monitors().stream().filter(m -> m.effectiveState().equals("DOWN")).count();
        b.metric(Metric.gauge("lookout_monitor_down", "monitors whose effective state is DOWN", downMonitors));
        b.metric(Metric.gauge("lookout_pools_forced_entries", "entries in the admin_state file in effect", s.forced().size()));
        for (PoolsSnapshot.PoolResource r : s.resources()) {
            for (PoolsSnapshot.PoolFamily f : r.families()) {
                Map<String, String> labels = Map.of("resource", r.name(), "family", f.family());
                b.metric(new Metric("lookout_pools_failover", "1 when the family is below up_thresh", "gauge", labels, f.failover() ? 1 : 0));
                b.metric(new Metric("lookout_pools_live_weight", "weight of items not DOWN", "gauge", labels, f.liveWeight()));
                b.metric(new Metric("lookout_pools_up_weight", "ceil(total weight x up_thresh)", "gauge", labels, f.upWeight()));
            }
        }
    }

    // ------------------------------------------------------------------ runtime structures

    /** A family with its monitors per item and its current live view; engine-loop confined. */
    static final class FamilyRuntime {
        final String family;
        final FamilyPlan plan;
        final List<List<MonitorKey>> monitors; // per item
        boolean[] down;
        LiveFamily live;
        boolean announcedFailover;

        FamilyRuntime(String family, WeightedFamily config) {
            this.family = family;
            this.plan = new FamilyPlan(config);
            this.monitors = new ArrayList<>(plan.items());
            for (int i = 0; i < plan.items(); i++) {
                List<MonitorKey> keys = new ArrayList<>();
                for (String st : config.serviceTypes()) {
                    keys.add(new MonitorKey(plan.target(i), st, config.kind() == WeightedFamily.Kind.CNAME));
                }
                monitors.add(List.copyOf(keys));
            }
            this.down = new boolean[plan.items()];
            this.live = LiveFamily.of(plan, down);
        }
    }

    static final class ResourceRuntime {
        final String name;
        final FamilyRuntime v4;
        final FamilyRuntime v6;
        final FamilyRuntime cname;
        final List<FamilyRuntime> families = new ArrayList<>();
        long monitorTtl = ServiceTypeConfig.TTL_MAX;
        /** Answers drawn, by any answerer; carried across reloads. */
        LongAdder answers = new LongAdder();
        AdminState.Entry forced; // a weighted!GLOB entry of admin_state, or null

        ResourceRuntime(WeightedResource r) {
            this.name = r.name();
            this.v4 = r.v4() == null ? null : new FamilyRuntime("ipv4", r.v4());
            this.v6 = r.v6() == null ? null : new FamilyRuntime("ipv6", r.v6());
            this.cname = r.cnames() == null ? null : new FamilyRuntime("cname", r.cnames());
            for (FamilyRuntime f : new FamilyRuntime[] {v4, v6, cname}) {
                if (f != null) {
                    families.add(f);
                }
            }
        }
    }
}
