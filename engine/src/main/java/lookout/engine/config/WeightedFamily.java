package lookout.engine.config;

import java.util.List;

/**
 * One address family of a weighted resource ({@code addrs_v4}, {@code addrs_v6}, or the
 * auto-detected direct items), or the CNAME set of a CNAME resource.
 *
 * @param stanza       {@code addrs_v4}, {@code addrs_v6} or {@code direct} (gdnsd's word, used in messages)
 * @param kind         what its items are
 * @param multi        the inherited {@code multi} (always false for CNAMEs: seed 001, multi is ignored)
 * @param grouped      true when the items are address groups
 * @param upThresh     the inherited {@code up_thresh}, in (0, 1]
 * @param serviceTypes the inherited {@code service_types} (empty: never monitored, always UP)
 * @param groups       up to 64 groups (in ungrouped mode, one per item)
 * @param upWeight     {@code ceil(total × up_thresh)}, computed once at load (SPEC §Weighted pools)
 */
public record WeightedFamily(String stanza, Kind kind, boolean multi, boolean grouped, double upThresh,
                             List<String> serviceTypes, List<WeightedGroup> groups, long upWeight) {

    public enum Kind { IPV4, IPV6, CNAME }

    public WeightedFamily {
        serviceTypes = List.copyOf(serviceTypes);
        groups = List.copyOf(groups);
    }

    /** Total configured weight over every group. */
    public long weight() {
        long sum = 0;
        for (WeightedGroup g : groups) {
            sum += g.weight();
        }
        return sum;
    }

    /** The four address cases of seed 001, or {@code cname}. */
    public String mode() {
        if (kind == Kind.CNAME) {
            return "cname";
        }
        return (grouped ? "grouped-" : "ungrouped-") + (multi ? "multi" : "single");
    }

    /** {@code ceil(weight × upThresh)} as gdnsd's {@code gdnsd_uscale_ceil} computes it. */
    public static long upWeight(long weight, double upThresh) {
        return (long) Math.ceil(weight * upThresh);
    }
}
