package lookout.engine.config;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The {@code resolver} section.
 *
 * @param listen          UDP and TCP listen addresses (default {@code 127.0.0.1:8053})
 * @param allow           client access list (default loopback only: never an open resolver)
 * @param scopes          routing scopes in file order
 * @param fallbackServers servers for names no scope routes and no default scope takes
 * @param search          search domains for single-label names, fully qualified
 * @param cacheSize       maximum cache entries
 */
public record ResolverConfig(List<InetSocketAddress> listen,
                             List<Cidr> allow,
                             List<Scope> scopes,
                             List<InetSocketAddress> fallbackServers,
                             List<String> search,
                             int cacheSize) {

    public ResolverConfig {
        listen = List.copyOf(listen);
        allow = List.copyOf(allow);
        scopes = List.copyOf(scopes);
        fallbackServers = List.copyOf(fallbackServers);
        search = List.copyOf(search);
    }

    /**
     * A routing scope.
     *
     * @param name         its key in the file
     * @param domains      routing domains, fully qualified, lower case
     * @param servers      upstream servers in configured order (port 53 unless given)
     * @param defaultScope {@code default => true}: takes names no routing domain matches
     */
    public record Scope(String name, List<String> domains, List<InetSocketAddress> servers, boolean defaultScope) {
        public Scope {
            domains = List.copyOf(domains);
            servers = List.copyOf(servers);
        }
    }
}
