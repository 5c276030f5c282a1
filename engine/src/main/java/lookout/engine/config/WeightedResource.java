package lookout.engine.config;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.vscf.Position;

/**
 * One resource of the weighted stanza: an IPv4 family, an IPv6 family (either or both), or a
 * CNAME set.
 *
 * @param name   the resource's key (what follows {@code weighted!} in a zone)
 * @param v4     the IPv4 family, or null
 * @param v6     the IPv6 family, or null
 * @param cnames the CNAME set, or null (never together with an address family)
 * @param pos    where the resource's key is
 */
public record WeightedResource(String name, WeightedFamily v4, WeightedFamily v6, WeightedFamily cnames,
                               Position pos) {

    public boolean isCname() {
        return cnames != null;
    }

    /** The families present, in the order v4, v6, cnames. */
    public List<WeightedFamily> families() {
        List<WeightedFamily> l = new ArrayList<>(2);
        if (v4 != null) {
            l.add(v4);
        }
        if (v6 != null) {
            l.add(v6);
        }
        if (cnames != null) {
            l.add(cnames);
        }
        return l;
    }
}
