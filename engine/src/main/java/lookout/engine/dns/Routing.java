package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.wire.Names;

/**
 * SPEC §Resolver routing: the scope whose routing domain is the longest suffix of the name, else
 * the default scope, else the fallback servers. Immutable; built from one configuration, so a
 * question keeps the routing it started with across a reload.
 */
final class Routing {

    /** Where a name goes. {@code scope} is null for the fallback servers. */
    record Route(String scope, List<InetSocketAddress> servers) {
        boolean fallback() {
            return scope == null;
        }
    }

    private final Map<String, Route> byDomain = new HashMap<>();
    private final Route otherwise;

    Routing(ResolverConfig rc) {
        Route def = null;
        for (ResolverConfig.Scope s : rc.scopes()) {
            Route r = new Route(s.name(), s.servers());
            for (String d : s.domains()) {
                String n = Names.normalize(d);
                if (n != null) {
                    byDomain.putIfAbsent(n, r);
                }
            }
            if (s.defaultScope() && def == null) {
                def = r;
            }
        }
        otherwise = def != null ? def : new Route(null, rc.fallbackServers());
    }

    Route route(String name) {
        for (String n = name; n != null; n = Names.parent(n)) {
            Route r = byDomain.get(n);
            if (r != null) {
                return r;
            }
        }
        return otherwise;
    }
}
