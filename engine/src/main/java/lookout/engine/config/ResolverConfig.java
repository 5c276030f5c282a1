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
 * @param udpReceiveBuffer {@code SO_RCVBUF} asked for each UDP listener socket, in bytes (0: the
 *                        system's default); by default enough for a burst of the in-flight
 *                        ceiling's 4 096 questions, within what {@code net.core.rmem_max} allows
 * @param serveStale      RFC 8767: how long past its TTL, in seconds, an expired positive answer
 *                        may still be given when every upstream attempt for it failed (0: never,
 *                        the default, so that such a question is unavailable as seed 000 says)
 * @param tcpIdleTimeout  RFC 7766 §6.2.3: seconds a client TCP connection may stay without a
 *                        query or an answer before it is closed
 * @param tcpClients      client TCP connections open at once; further ones are closed at once and
 *                        counted
 * @param tcpPipeline     RFC 7766 §6.2.1.1: questions one TCP connection may have unanswered at
 *                        once; its further queries wait, unread
 */
public record ResolverConfig(List<InetSocketAddress> listen,
                             List<Cidr> allow,
                             List<Scope> scopes,
                             List<InetSocketAddress> fallbackServers,
                             List<String> search,
                             int cacheSize,
                             int udpThreads,
                             int udpReceiveBuffer,
                             int serveStale,
                             int tcpIdleTimeout,
                             int tcpClients,
                             int tcpPipeline) {

    /**
     * The default receive buffer: 4 MiB asked, which Linux doubles to keep (its bookkeeping), about
     * 10 000 queries of a hundred bytes (832 bytes of buffer each on loopback): the 4 096 of a
     * burst at the in-flight ceiling with room to spare.
     */
    public static final int DEFAULT_UDP_RECEIVE_BUFFER = 4 * 1024 * 1024;
    /** RFC 7766 §6.2.3 leaves it to the server; unbound's tcp-idle-timeout is 30 s too. */
    public static final int DEFAULT_TCP_IDLE_TIMEOUT = 30;
    public static final int DEFAULT_TCP_CLIENTS = 1024;
    public static final int DEFAULT_TCP_PIPELINE = 64;

    /** One UDP socket per listen address (the default). */
    public ResolverConfig(List<InetSocketAddress> listen, List<Cidr> allow, List<Scope> scopes,
                          List<InetSocketAddress> fallbackServers, List<String> search, int cacheSize) {
        this(listen, allow, scopes, fallbackServers, search, cacheSize, 1);
    }

    /** The defaults for the receive buffer, serve-stale and the TCP limits. */
    public ResolverConfig(List<InetSocketAddress> listen, List<Cidr> allow, List<Scope> scopes,
                          List<InetSocketAddress> fallbackServers, List<String> search, int cacheSize, int udpThreads) {
        this(listen, allow, scopes, fallbackServers, search, cacheSize, udpThreads, DEFAULT_UDP_RECEIVE_BUFFER, 0,
                DEFAULT_TCP_IDLE_TIMEOUT, DEFAULT_TCP_CLIENTS, DEFAULT_TCP_PIPELINE);
    }

    public ResolverConfig {
        if (udpThreads < 1) {
            throw new IllegalArgumentException("udpThreads must be at least 1: " + udpThreads);
        }
        if (udpReceiveBuffer < 0 || serveStale < 0 || tcpIdleTimeout < 1 || tcpClients < 1 || tcpPipeline < 1) {
            throw new IllegalArgumentException("resolver limits out of range: receive buffer " + udpReceiveBuffer
                    + ", serve-stale " + serveStale + ", TCP idle " + tcpIdleTimeout + ", clients " + tcpClients
                    + ", pipeline " + tcpPipeline);
        }
        listen = List.copyOf(listen);
        allow = List.copyOf(allow);
        scopes = List.copyOf(scopes);
        fallbackServers = List.copyOf(fallbackServers);
        search = List.copyOf(search);
    }

    /** The same with {@code resolver.serve_stale} set (tests). */
    public ResolverConfig withServeStale(int seconds) {
        return new ResolverConfig(listen, allow, scopes, fallbackServers, search, cacheSize, udpThreads, udpReceiveBuffer,
                seconds, tcpIdleTimeout, tcpClients, tcpPipeline);
    }

    /** The same with another receive buffer (tests). */
    public ResolverConfig withUdpReceiveBuffer(int bytes) {
        return new ResolverConfig(listen, allow, scopes, fallbackServers, search, cacheSize, udpThreads, bytes,
                serveStale, tcpIdleTimeout, tcpClients, tcpPipeline);
    }

    /** The same with other TCP limits (tests). */
    public ResolverConfig withTcp(int idleSeconds, int clients, int pipeline) {
        return new ResolverConfig(listen, allow, scopes, fallbackServers, search, cacheSize, udpThreads, udpReceiveBuffer,
                serveStale, idleSeconds, clients, pipeline);
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
