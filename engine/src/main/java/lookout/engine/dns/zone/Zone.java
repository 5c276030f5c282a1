package lookout.engine.dns.zone;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.dns.wire.Rr;

/**
 * A parsed zone: records by owner name and type, the DYNA/DYNC records answered by the weighted
 * pools, and every name that exists (including empty non-terminals, RFC 8020). Immutable after
 * {@link ZoneParser} builds it.
 */
public final class Zone {

    /** A gdnsd {@code DYNA}/{@code DYNC} record: answered per query by the weighted pools. */
    public record Dyn(boolean dync, String plugin, String resource, long ttl, long minTtl, String file, int line, int column) {
    }

    /** Records at one owner name. */
    public static final class Node {
        final Map<Integer, List<Rr>> rrsets = new HashMap<>();
        Dyn dyn;

        public List<Rr> rrset(int type) {
            return rrsets.getOrDefault(type, List.of());
        }

        public Map<Integer, List<Rr>> rrsets() {
            return rrsets;
        }

        public Dyn dyn() {
            return dyn;
        }
    }

    final String origin;
    final Map<String, Node> nodes = new HashMap<>();
    final Set<String> existing = new HashSet<>();
    Rr soa;

    Zone(String origin) {
        this.origin = origin;
    }

    public String origin() {
        return origin;
    }

    public Rr soa() {
        return soa;
    }

    public Node node(String name) {
        return nodes.get(name);
    }

    /** True when {@code name} owns records or has descendants that do. */
    public boolean exists(String name) {
        return existing.contains(name);
    }

    public Map<String, Node> nodes() {
        return nodes;
    }
}
