package lookout.engine.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The resolver as the console shows it.
 *
 * @param listen            bound addresses ({@code ip:port}, UDP and TCP)
 * @param queries           client questions received (well-formed enough to answer)
 * @param cacheHits         questions answered from the cache
 * @param cacheEntries      entries in the cache now
 * @param cacheCapacity     {@code resolver.cache_size}
 * @param localAnswers      questions answered from local zones or synthetic names
 * @param upstreamSentUdp   upstream transactions over UDP
 * @param upstreamSentTcp   upstream transactions over TCP (retries after TC)
 * @param upstreamFailed    seed 000 §4.6.2 {@code upstream_failed}, by reason
 * @param refused           seed 000 §4.6.5 questions refused at the in-flight ceiling
 * @param unavailable       questions answered unavailable (SERVFAIL), refused ones included
 * @param demotions         demotions (renewals included)
 * @param malformed         client packets dropped or answered FORMERR
 * @param denied            clients outside {@code resolver.allow} (answered REFUSED)
 * @param inFlight          upstream transactions outstanding now
 * @param inFlightCeiling   seed 000 §4.6.5 (4 096)
 * @param queriesPerSecond  client questions in the last second
 * @param scopes            routing scopes with their servers' marks (the fallback servers last)
 * @param upstreams         per-address counters and latency
 * @param recentTraces      the last questions that went upstream or to a local zone, newest last
 * @param udpReceiveBuffer  the receive buffer the kernel keeps for the UDP listener sockets, in bytes
 *                          (the smallest of them; -1 when unknown)
 * @param udpReceiveDrops   client datagrams the kernel dropped before the resolver read them (a full
 *                          receive buffer), ever; -1 where that cannot be known
 * @param staleAnswers      RFC 8767 stale answers given ({@code resolver.serve_stale}) when every
 *                          attempt failed
 * @param cnameChains       answers completed by following a CNAME to its target (local zones or upstream)
 * @param tcpClients        client TCP connections open now
 * @param tcpRejected       client TCP connections closed at once because {@code resolver.tcp_clients} were open
 * @param zones             the zones answered locally, by name
 */
public record ResolverSnapshot(List<String> listen, long queries, long cacheHits, int cacheEntries, int cacheCapacity,
                               long localAnswers, long upstreamSentUdp, long upstreamSentTcp,
                               Map<String, Long> upstreamFailed, long refused, long unavailable, long demotions,
                               long malformed, long denied, int inFlight, int inFlightCeiling,
                               double queriesPerSecond, List<Scope> scopes, List<Upstream> upstreams,
                               List<ResolveTrace> recentTraces, int udpReceiveBuffer, long udpReceiveDrops,
                               long staleAnswers, long cnameChains, int tcpClients, long tcpRejected, List<Zone> zones) {

    /** Without the listeners' buffer and drops, stale answers, chains, TCP counts and zones (unknown, none). */
    public ResolverSnapshot(List<String> listen, long queries, long cacheHits, int cacheEntries, int cacheCapacity,
                            long localAnswers, long upstreamSentUdp, long upstreamSentTcp,
                            Map<String, Long> upstreamFailed, long refused, long unavailable, long demotions,
                            long malformed, long denied, int inFlight, int inFlightCeiling,
                            double queriesPerSecond, List<Scope> scopes, List<Upstream> upstreams,
                            List<ResolveTrace> recentTraces) {
        this(listen, queries, cacheHits, cacheEntries, cacheCapacity, localAnswers, upstreamSentUdp, upstreamSentTcp,
                upstreamFailed, refused, unavailable, demotions, malformed, denied, inFlight, inFlightCeiling,
                queriesPerSecond, scopes, upstreams, recentTraces, -1, -1, 0, 0, 0, 0, List.of());
    }

    public ResolverSnapshot {
        zones = zones == null ? List.of() : List.copyOf(zones);
        listen = List.copyOf(listen);
        upstreamFailed = Map.copyOf(upstreamFailed);
        scopes = List.copyOf(scopes);
        upstreams = List.copyOf(upstreams);
        recentTraces = List.copyOf(recentTraces);
    }

    /**
     * A routing scope ({@code fallback} true for {@code fallback_servers}: seed 000 §4.6.3 does
     * not report their demotion, so their servers show {@code demoted} false and no mark).
     */
    public record Scope(String name, List<String> domains, boolean defaultScope, boolean fallback, List<Server> servers) {
        public Scope {
            domains = List.copyOf(domains);
            servers = List.copyOf(servers);
        }
    }

    /**
     * A server of a scope, in configured order.
     *
     * @param markUntil when its demotion mark ends, or null
     * @param markLeft  time left on the mark, or {@link Duration#ZERO}
     */
    public record Server(String address, boolean demoted, Instant markUntil, Duration markLeft) {
    }

    /**
     * A zone answered locally (the {@code zones} section).
     *
     * @param name    its origin, fully qualified ({@code lookout.test.})
     * @param records resource records in it, DYNA/DYNC records included
     * @param dynamic DYNA/DYNC records (answered by the weighted pools)
     * @param serial  the SOA serial, or -1 when it has no SOA record
     */
    public record Zone(String name, int records, int dynamic, long serial) {
    }

    /**
     * One upstream address: transactions, failures, reply latency percentiles over recent replies.
     *
     * @param lastSuccess when an attempt to it last ended with a usable reply (NOERROR/NXDOMAIN), or null
     * @param lastFailure when an attempt to it last failed (timeout, error, bad rcode), or null
     */
    public record Upstream(String address, long sent, long failed, long replies, Duration latencyP50,
                           Duration latencyP99, Instant lastSuccess, Instant lastFailure) {
    }
}
