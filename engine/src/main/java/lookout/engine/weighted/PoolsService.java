package lookout.engine.weighted;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.Config;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
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
    private Map<String, PoolRuntime.Resource> resources = Map.of();
    /** What answers are drawn from, published after each state change or reload (see PoolAnswers). */
    private final PoolAnswers answers = new PoolAnswers();
    /** Answers drawn on the engine loop (its own random source and scratch space). */
    private DynamicRecords engineAnswerer;
    private PoolsOdds odds;

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
        this.engineAnswerer = answers.answerer(draws);
        this.health = new HealthMonitors(ctx.scheduler(), ctx.io(), ctx::publish, this::recompute, MAX_CONCURRENT_PROBES);
        this.forced = new ForcedStates(ctx.stateDir(), ctx.scheduler(), ctx::publish, this::applyForced);
        this.odds = new PoolsOdds(health, forced, () -> resources);
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
        answers.clear();
    }

    private void install(Config config) {
        WeightedConfig wc = config.weighted() == null ? WeightedConfig.empty() : config.weighted();
        Map<String, ServiceTypeConfig> types = config.serviceTypes();
        Map<String, PoolRuntime.Resource> next = new LinkedHashMap<>();
        Map<MonitorKey, ServiceTypeConfig> wanted = new LinkedHashMap<>();
        for (WeightedResource r : wc.resources().values()) {
            PoolRuntime.Resource rt = new PoolRuntime.Resource(r);
            PoolRuntime.Resource old = resources.get(r.name());
            if (old != null) {
                rt.answers = old.answers; // the same counter: answers drawn during the reload still count
                rt.forced = old.forced; // until applyForced re-resolves the globs on the new names
            }
            for (PoolRuntime.Family f : rt.families) {
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
        for (PoolRuntime.Resource rt : next.values()) {
            PoolRuntime.Resource old = resources.get(rt.name);
            if (old == null) {
                continue;
            }
            for (PoolRuntime.Family f : rt.families) {
                for (PoolRuntime.Family of : old.families) {
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

    private void applyForced(AdminState state) {
        List<AdminState.Entry> monitorEntries = new ArrayList<>();
        List<AdminState.Entry> resourceEntries = new ArrayList<>();
        for (AdminState.Entry e : state.entries()) {
            (e.glob().startsWith(PoolRuntime.RESOURCE_PREFIX) ? resourceEntries : monitorEntries).add(e);
        }
        AdminState monitorsState = new AdminState(monitorEntries);
        AdminState resourcesState = new AdminState(resourceEntries);
        java.util.Set<String> resourceNames = new java.util.LinkedHashSet<>();
        for (String r : resources.keySet()) {
            resourceNames.add(PoolRuntime.RESOURCE_PREFIX + r);
        }
        List<String> unmatched = new ArrayList<>(monitorsState.unmatched(health.names()));
        unmatched.addAll(resourcesState.unmatched(resourceNames));
        for (String glob : unmatched) {
            ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), lookout.engine.api.Subsystem.POOLS,
                    lookout.engine.api.Severity.WARNING, "admin_state: glob '" + glob + "' did not match anything!"));
        }
        Map<String, AdminState.Entry> byResource = resourcesState.resolve(resourceNames);
        for (PoolRuntime.Resource r : resources.values()) {
            r.forced = byResource.get(PoolRuntime.RESOURCE_PREFIX + r.name);
        }
        health.applyForced(monitorsState.resolve(health.names()));
        recompute(true);
    }

    /** Recomputes every live family from the monitors' effective states and announces failovers. */
    private void recompute() {
        recompute(true);
    }

    private void recompute(boolean announce) {
        for (PoolRuntime.Resource r : resources.values()) {
            long ttl = ServiceTypeConfig.TTL_MAX;
            for (PoolRuntime.Family f : r.families) {
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
        answers.publish(resources.values());
    }

    // ------------------------------------------------------------------ DynamicRecords

    @Override
    public Answer answer(String resource, int qtype, long recordTtl, long recordMinTtl) {
        DynamicRecords a = engineAnswerer;
        if (a == null) { // not started: nothing published to draw from
            return answers.unknown(recordTtl);
        }
        return a.answer(resource, qtype, recordTtl, recordMinTtl);
    }

    /** An answerer for another thread (any thread may ask), with a random source of its own. */
    @Override
    public DynamicRecords forAnswerLoop() {
        return answers.answererOfItsOwn();
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

    @Override
    public List<PoolsSnapshot.PoolResource> whatIf(Map<String, String> hypothetical) {
        return odds.whatIf(hypothetical);
    }

    @Override
    public List<PoolsSnapshot.PoolResource> oddsFor(Config candidate) {
        return odds.oddsFor(candidate);
    }

    public PoolsSnapshot snapshot() {
        return odds.snapshot();
    }

    @Override
    public void contribute(SnapshotBuilder b) {
        PoolsSnapshot s = snapshot();
        b.pools(s);
        b.metric(Metric.counter("lookout_pools_answers_total", "DYNA/DYNC answers drawn from weighted pools", answers.answersTotal.sum()));
        b.metric(Metric.counter("lookout_pools_nodata_total", "DYNA queries of a type or family the resource lacks", answers.nodataTotal.sum()));
        b.metric(Metric.counter("lookout_pools_unknown_resource_total", "answers asked for an unknown resource", answers.unknownTotal.sum()));
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

}
