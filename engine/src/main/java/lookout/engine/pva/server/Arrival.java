package lookout.engine.pva.server;

import java.net.InetAddress;

/**
 * Where a search datagram arrived: which of the listener's sockets, hence which destination
 * address it was sent to. Java gives no IP_PKTINFO, so the listener binds one socket per local
 * address (and per interface broadcast address, and for the forwarding group) and the socket
 * tells the destination.
 *
 * @param kind      the kind of destination
 * @param local     the address the socket is bound to: the datagram's destination
 * @param replyFrom the local unicast address replies leave from (seed 002 §4: "sourced from the
 *                  address the request was sent to"; for a broadcast, the interface's address)
 */
record Arrival(Kind kind, InetAddress local, InetAddress replyFrom) {

    enum Kind {
        /** One of this host's own unicast addresses: a unicast search, forwarded (§5). */
        OWN_UNICAST,
        /** An interface broadcast address. */
        BROADCAST,
        /** The loopback forwarding group 224.0.0.128 or ff02::42:1. */
        GROUP
    }
}
