package lookout.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The engine's own PVA server (seed 002 §4–§7): search responder, beacon sender, unicast
 * forwarding and TCP name server, as one immutable value built on the engine loop.
 *
 * @param running              the server is enabled and its sockets are bound
 * @param guid                 this start's GUID, 24 hex digits (empty when not running)
 * @param udpListeners         the local addresses the search listener is bound to ({@code addr:port})
 * @param udpPort              the UDP search port actually bound
 * @param tcpPort              the name server's TCP port actually bound (0 when off)
 * @param forwarding           unicast forwarding over loopback multicast is active (the group is
 *                             joined); searches are forwarded only while {@code portSharing} is not
 *                             {@code alone}
 * @param sources              the registered sources, in the order searches are offered to them
 * @param searchesReceived     search messages received (UDP and TCP), before any drop
 * @param namesSearched        names in the searches answered
 * @param namesClaimed         names claimed by a source
 * @param repliesSent          SEARCH_RESPONSE messages sent (UDP and TCP)
 * @param discoveryReplies     replies to discovery pings (seed 002 §7)
 * @param forwarded            searches forwarded to the loopback group (§5)
 * @param drops                datagrams dropped, by reason: {@code ignored}, {@code malformed},
 *                             the forwarding rules ({@code tag_not_loopback_group},
 *                             {@code multiple_tags}, {@code multicast_source}),
 *                             {@code zero_reply_address}, {@code own_forwarded_copy} (this server's
 *                             own copy back from the group: the original was answered),
 *                             {@code send_backlog}
 * @param beaconsSent          beacons sent
 * @param beaconChangeCount    the change count carried in beacons
 * @param nameServerConnections name-server TCP connections open now
 * @param nameServerAccepted   name-server TCP connections accepted since start
 * @param nameServerRefused    connections refused at the connection limit or closed for a
 *                             protocol violation or backlog
 * @param topNames             the most searched names, most searched first
 * @param udpThreads           responder sockets per listen address, each read by a thread of its own
 * @param portSharing          {@code alone}, {@code shared} (another process has a socket on the
 *                             search port: unicast searches are forwarded to it) or {@code unknown}
 * @param notReforwarded       forwarded searches still asking to be forwarded: answered, not
 *                             forwarded again (§5 rule 3)
 * @param ownSearches          searches of the engine's own PVA client: answered, never a reason to
 *                             search on anyone's behalf
 * @param onDemand             the names searched on behalf of clients, and the limits on them
 * @param ownCopies            how this server's own forwarded copies, which come back to its group
 *                             socket, are kept out: {@code filtered in the kernel} (a socket filter:
 *                             they never reach the process, and {@code own_forwarded_copy} stays
 *                             still), {@code dropped before decoding: WHY} (no filter, and why: each
 *                             is read and counted as {@code own_forwarded_copy}), or
 *                             {@code not forwarding}
 * @param ownCopiesFiltered    datagrams the kernel dropped on the forwarding groups' sockets — the
 *                             own copies the filter dropped, and any receive-buffer overflow there;
 *                             -1 when not known
 */
public record PvaServerSnapshot(boolean running,
                                String guid,
                                List<String> udpListeners,
                                int udpPort,
                                int tcpPort,
                                boolean forwarding,
                                List<String> sources,
                                long searchesReceived,
                                long namesSearched,
                                long namesClaimed,
                                long repliesSent,
                                long discoveryReplies,
                                long forwarded,
                                Map<String, Long> drops,
                                long beaconsSent,
                                int beaconChangeCount,
                                int nameServerConnections,
                                long nameServerAccepted,
                                long nameServerRefused,
                                List<SearchedName> topNames,
                                int udpThreads,
                                String portSharing,
                                long notReforwarded,
                                long ownSearches,
                                OnDemand onDemand,
                                String ownCopies,
                                long ownCopiesFiltered) {

    public PvaServerSnapshot {
        udpListeners = List.copyOf(udpListeners);
        sources = List.copyOf(sources);
        drops = Map.copyOf(drops);
        topNames = List.copyOf(topNames);
    }

    /** Not running: the server is disabled. */
    public static PvaServerSnapshot stopped() {
        return new PvaServerSnapshot(false, "", List.of(), 0, 0, false, List.of(), 0, 0, 0, 0, 0, 0,
                Map.of(), 0, 0, 0, 0, 0, List.of(), 0, "unknown", 0, 0, OnDemand.NONE,
                "not forwarding", -1);
    }

    /**
     * The names the server has its client search because clients asked for them, bounded (issue
     * 18): when a limit is reached, new names are not searched until a client asks again and there
     * is room; the refusals are counted here by reason and reported as a folded event.
     *
     * @param limit        unresolved on-demand names at most ({@code pva.server.on_demand_limit})
     * @param perSecond    new names admitted per second at most ({@code on_demand_rate})
     * @param perClient    unresolved names one client may hold ({@code on_demand_per_client})
     * @param holdSeconds  how long a name stays after the last ask ({@code on_demand_hold})
     * @param unresolved   on-demand names being searched now (what the limit counts)
     * @param resolved     on-demand names resolved (claimed; they cost no search)
     * @param elsewhere    names asked for that the engine searches anyway (watched, an operator's)
     * @param admitted     names admitted since start
     * @param released     names let go since start (nobody asked for them within the hold time)
     * @param refused      names refused since start, by reason: {@code unresolved_limit},
     *                     {@code client_share}, {@code rate}, {@code client_rate}, {@code clients}
     * @param refusing     the reasons refusing names now (refusals in the last second, not yet over)
     * @param topClients   the clients holding the most unresolved names, then refused the most
     */
    public record OnDemand(int limit, int perSecond, int perClient, int holdSeconds, int unresolved, int resolved,
                           int elsewhere, long admitted, long released, Map<String, Long> refused,
                           List<String> refusing, List<Client> topClients) {
        public static final OnDemand NONE = new OnDemand(0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of(), List.of(), List.of());

        public OnDemand {
            refused = Map.copyOf(refused);
            refusing = List.copyOf(refusing);
            topClients = List.copyOf(topClients);
        }

        /** All refusals since start. */
        public long refusedTotal() {
            return refused.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * A client asking for names.
     *
     * @param client      {@code udp ADDRESS} or {@code tcp ADDRESS:PORT}
     * @param unresolved  on-demand names it holds, unresolved
     * @param admitted    names of its admitted
     * @param refused     names of its refused
     * @param lastRefused when it was last refused, or null
     */
    public record Client(String client, int unresolved, long admitted, long refused, Instant lastRefused) {
    }

    /**
     * One of the most searched names.
     *
     * @param name       the PV name
     * @param count      times searched (approximate: counts decay when the table is full)
     * @param lastClient the last client that searched it, {@code addr:port}
     * @param lastSearch when it was last searched
     */
    public record SearchedName(String name, long count, String lastClient, Instant lastSearch) {
    }
}
