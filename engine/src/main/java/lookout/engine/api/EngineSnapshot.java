package lookout.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * Everything the console shows, as one immutable value built on the engine loop. A service that
 * is not running has a null section.
 *
 * @param state        lifecycle state
 * @param takenAt      wall-clock time the snapshot was built (the console's "data age" counts from it)
 * @param startedAt    when the engine started, or null
 * @param config       the running configuration and the last reload's result, or null before start
 * @param resolver     the DNS resolver
 * @param pools        weighted pools and monitors
 * @param pva          PVA client side
 * @param pvaServer    PVA server side
 * @param metrics      counters and gauges, as served on {@code /metrics}
 * @param recentEvents the last events, oldest first (at most 500)
 * @param statusPvs    the engine's status PVs, or null when they are not published
 */
public record EngineSnapshot(EngineState state,
                             Instant takenAt,
                             Instant startedAt,
                             ConfigStatus config,
                             ResolverSnapshot resolver,
                             PoolsSnapshot pools,
                             PvaSnapshot pva,
                             PvaServerSnapshot pvaServer,
                             List<Metric> metrics,
                             List<EngineEvent> recentEvents,
                             StatusPvsSnapshot statusPvs) {

    public EngineSnapshot {
        metrics = List.copyOf(metrics);
        recentEvents = List.copyOf(recentEvents);
    }

    /** A snapshot without status PVs. */
    public EngineSnapshot(EngineState state, Instant takenAt, Instant startedAt, ConfigStatus config,
                          ResolverSnapshot resolver, PoolsSnapshot pools, PvaSnapshot pva,
                          PvaServerSnapshot pvaServer, List<Metric> metrics, List<EngineEvent> recentEvents) {
        this(state, takenAt, startedAt, config, resolver, pools, pva, pvaServer, metrics, recentEvents, null);
    }
}
