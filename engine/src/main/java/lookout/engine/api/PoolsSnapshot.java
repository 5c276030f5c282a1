package lookout.engine.api;

import java.util.List;

/**
 * Weighted pools, their monitors, forced states and exact odds (SPEC §Weighted pools), built on
 * the engine loop. Probabilities are fractions in [0, 1].
 *
 * @param running        false when the pools service is not running
 * @param resources      every resource in configuration order
 * @param monitors       every monitor (one per target and service type), in creation order
 * @param forced         the entries of the admin_state file in effect, in file order
 * @param adminStateFile where forced states are kept
 * @param adminStateError the last load error of that file (its contents were ignored), or null
 * @param probesInFlight monitor probes running now
 */
public record PoolsSnapshot(boolean running, List<PoolResource> resources, List<PoolMonitor> monitors,
                            List<PoolForced> forced, String adminStateFile, String adminStateError,
                            int probesInFlight) {

    public PoolsSnapshot {
        resources = List.copyOf(resources);
        monitors = List.copyOf(monitors);
        forced = List.copyOf(forced);
    }

    /** A placeholder for an engine without the pools service. */
    public PoolsSnapshot(boolean running) {
        this(running, List.of(), List.of(), List.of(), null, null, 0);
    }

    /**
     * One resource.
     *
     * @param name        its name ({@code weighted!name} in zones)
     * @param kind        {@code address} or {@code cname}
     * @param monitorTtl  the minimum monitor TTL over every item (before a record's cap and floor)
     * @param families    its families: {@code ipv4}/{@code ipv6}, or {@code cname}
     * @param answers     DYNA/DYNC answers drawn so far
     * @param forcedState {@code UP}/{@code DOWN}[/TTL] when an admin_state {@code weighted!GLOB} entry
     *                    forces the whole resource, else null
     */
    public record PoolResource(String name, String kind, long monitorTtl, List<PoolFamily> families, long answers,
                               String forcedState) {
        public PoolResource {
            families = List.copyOf(families);
        }
    }

    /**
     * One family with its exact odds.
     *
     * @param family            {@code ipv4}, {@code ipv6} or {@code cname}
     * @param mode              {@code ungrouped-single}, {@code ungrouped-multi}, {@code grouped-single}, {@code grouped-multi} or {@code cname}
     * @param upThresh          the inherited up_thresh
     * @param serviceTypes      the inherited service_types
     * @param totalWeight       configured total
     * @param upWeight          {@code ceil(total × up_thresh)}
     * @param liveWeight        total weight of the items not DOWN
     * @param failover          live weight below up_weight: answered as if all were UP
     * @param groups            groups in configuration order (ungrouped: one per item)
     * @param answerSets        each distinct answer set with its probability, most likely first; empty when not enumerable
     * @param answerSetCount    how many distinct answer sets there are
     * @param answerSetsListed  false when there are too many sets to list
     */
    public record PoolFamily(String family, String mode, double upThresh, List<String> serviceTypes, long totalWeight,
                             long upWeight, long liveWeight, boolean failover, List<PoolGroup> groups,
                             List<PoolAnswerSet> answerSets, double answerSetCount, boolean answerSetsListed) {
        public PoolFamily {
            serviceTypes = List.copyOf(serviceTypes);
            groups = List.copyOf(groups);
            answerSets = List.copyOf(answerSets);
        }
    }

    /**
     * A group (ungrouped mode: the item itself).
     *
     * @param probability the probability that the answer holds any item of this group
     */
    public record PoolGroup(String name, long weight, long liveWeight, double probability, List<PoolItem> items) {
        public PoolGroup {
            items = List.copyOf(items);
        }
    }

    /**
     * One item.
     *
     * @param label          {@code label} or {@code group/label}
     * @param target         the address or CNAME
     * @param weight         configured weight
     * @param dynamicWeight  weight used for selection now (0 when DOWN, unless in failover)
     * @param down           effective state: DOWN when any of its monitors is DOWN
     * @param monitoredDown  DOWN by its monitors alone, ignoring forced states
     * @param forced         true when some forced state applies to one of its monitors or to its resource
     * @param ttl            minimum TTL of its monitors
     * @param probability    probability of being in the answer
     */
    public record PoolItem(String label, String target, int weight, int dynamicWeight, boolean down,
                           boolean monitoredDown, boolean forced, long ttl, double probability) {
    }

    /** One distinct answer (item labels in configuration order) and its probability. */
    public record PoolAnswerSet(List<String> items, double probability) {
        public PoolAnswerSet {
            items = List.copyOf(items);
        }
    }

    /**
     * One monitor.
     *
     * @param name           gdnsd's name for it ({@code target/service_type}), what admin_state globs match
     * @param monitoredState {@code UP}, {@code DOWN} or {@code UNKNOWN} (no result yet) from probes alone
     * @param forcedState    {@code UP}/{@code DOWN}[/TTL] when forced, else null
     * @param effectiveState what selection uses
     * @param ttl            effective TTL in seconds
     * @param successes      anti-flap success count
     * @param failures       anti-flap failure count
     * @param lastResult     {@code pass}, {@code fail}, {@code timeout} or {@code none}
     */
    public record PoolMonitor(String name, String target, String serviceType, String plugin, String monitoredState,
                              String forcedState, String effectiveState, long ttl, int successes, int failures,
                              long probes, long passes, String lastResult) {
    }

    /** One admin_state entry and the monitors it matches now. */
    public record PoolForced(String key, String state, List<String> matches) {
        public PoolForced {
            matches = List.copyOf(matches);
        }
    }
}
