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
 * @param forwarding           unicast forwarding over loopback multicast is active
 * @param sources              the registered sources, in the order searches are offered to them
 * @param searchesReceived     search messages received (UDP and TCP), before any drop
 * @param namesSearched        names in the searches answered
 * @param namesClaimed         names claimed by a source
 * @param repliesSent          SEARCH_RESPONSE messages sent (UDP and TCP)
 * @param discoveryReplies     replies to discovery pings (seed 002 §7)
 * @param forwarded            searches forwarded to the loopback group (§5)
 * @param drops                datagrams dropped, by reason: {@code ignored}, {@code malformed},
 *                             the four forwarding rules ({@code tag_not_loopback_group},
 *                             {@code multiple_tags}, {@code reforward}, {@code multicast_source}),
 *                             {@code zero_reply_address}, {@code send_backlog}
 * @param beaconsSent          beacons sent
 * @param beaconChangeCount    the change count carried in beacons
 * @param nameServerConnections name-server TCP connections open now
 * @param nameServerAccepted   name-server TCP connections accepted since start
 * @param nameServerRefused    connections refused at the connection limit or closed for a
 *                             protocol violation or backlog
 * @param topNames             the most searched names, most searched first
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
                                List<SearchedName> topNames) {

    public PvaServerSnapshot {
        udpListeners = List.copyOf(udpListeners);
        sources = List.copyOf(sources);
        drops = Map.copyOf(drops);
        topNames = List.copyOf(topNames);
    }

    /** Not running: the server is disabled. */
    public static PvaServerSnapshot stopped() {
        return new PvaServerSnapshot(false, "", List.of(), 0, 0, false, List.of(), 0, 0, 0, 0, 0, 0,
                Map.of(), 0, 0, 0, 0, 0, List.of());
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
