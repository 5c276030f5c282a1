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
 * @param udpThreads      UDP sockets per listen address, each read by its own thread (gdnsd's
 *                        {@code udp_threads}), which answers local zones itself and hands every
 *                        other question to the engine loop; read through Netty, the first socket
 *                        is read on the engine loop itself (default 1)
 */
public record ResolverConfig(List<InetSocketAddress> listen,
                             List<Cidr> allow,
                             List<Scope> scopes,
                             List<InetSocketAddress> fallbackServers,
                             List<String> search,
                             int cacheSize,
                             int udpThreads) {

    /** One UDP socket per listen address (the default). */
    public ResolverConfig(List<InetSocketAddress> listen, List<Cidr> allow, List<Scope> scopes,
                          List<InetSocketAddress> fallbackServers, List<String> search, int cacheSize) {
        this(listen, allow, scopes, fallbackServers, search, cacheSize, 1);
    }

    public ResolverConfig {
        if (udpThreads < 1) {
            throw new IllegalArgumentException("udpThreads must be at least 1: " + udpThreads);
        }
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
