package lookout.engine.seams;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.DatagramContents;

/**
 * The engine's PVA UDP sockets, one owner for each port (as PVXS's {@code UDPManager}): the PVA
 * client and the PVA server both listen on {@code pva.broadcast_port}, and the kernel gives a
 * unicast datagram to one socket only — the most specific bind — so one owner must read the port
 * and hand each datagram, decoded once, to everyone who listens there, with where it arrived.
 * Implemented by the port owner service; used by the PVA client (beacons, search replies) and the
 * PVA server (searches). Every method on the engine loop; a {@link Receiver} is called there too,
 * unless it is {@link Receiver#concurrent() concurrent}: then on the loop that read the datagram,
 * any of several at once, and its {@link Port}'s sending methods may be called there as well.
 */
public interface PvaPorts {

    /** seed 002 §5: the IPv4 forwarding group, joined on loopback. */
    InetAddress FORWARD_GROUP_V4 = HostPort.literal("224.0.0.128");
    /** seed 002 §5: the IPv6 forwarding group, joined on loopback. */
    InetAddress FORWARD_GROUP_V6 = HostPort.literal("ff02::42:1");
    /** The limited broadcast address. */
    InetAddress LIMITED_BROADCAST = HostPort.literal("255.255.255.255");

    /**
     * Listens on {@code port} (0: an ephemeral port, chosen by the first socket bound and shared by
     * the rest of this listener's sockets): opens what {@code interest} asks for that is not open
     * yet, and delivers to {@code receiver} every datagram of those sockets (and, for a
     * {@link Interest#catchAll() catch-all} interest, every datagram reaching the port), each once.
     * Throws when a socket that the interest cannot do without does not bind (the wildcard, a
     * unicast address); a broadcast address, the limited broadcast or a forwarding group that does
     * not bind is logged and left out.
     */
    Port listen(int port, Interest interest, Receiver receiver) throws IOException;

    /**
     * The PVA client's search socket: the wildcard IPv4 address, an ephemeral port, broadcasts
     * allowed; searches leave from it ({@link Port#send}) and the replies sent back to it are
     * delivered to {@code receiver} ({@link Kind#SEARCH_SOCKET}).
     */
    Port searchSocket(Receiver receiver) throws IOException;

    /** Where a datagram arrived: the kind of socket, hence what it was sent to. */
    enum Kind {
        /** A socket bound to one of this host's unicast addresses: sent to it (a unicast the kernel gave only this socket). */
        OWN_UNICAST,
        /** A socket bound to an interface broadcast address (the port's wildcard socket, if open, got it too). */
        BROADCAST,
        /** A socket bound to a forwarding group joined on loopback (the wildcard socket, if open, got it too). */
        GROUP,
        /** The wildcard socket, sent to 255.255.255.255 (known only where destinations are: epoll). */
        LIMITED_BROADCAST,
        /** The wildcard socket, anything else: sent to an address no socket of ours is bound to, or a copy of the above. */
        WILDCARD,
        /** The PVA client's search socket (an ephemeral port). */
        SEARCH_SOCKET
    }

    /**
     * Where a datagram arrived.
     *
     * @param kind      the kind of socket
     * @param local     what it was sent to: the address the socket is bound to, or the destination
     *                  when the wildcard socket knows it, else the wildcard address
     * @param replyFrom the local unicast address a reply to it leaves from (seed 002 §4: "sourced
     *                  from the address the request was sent to"; for a broadcast, the interface's
     *                  own address; for a limited broadcast, the address on the sender's subnet),
     *                  or null where none applies (a group, the wildcard)
     */
    record Arrival(Kind kind, InetAddress local, InetAddress replyFrom) {
    }

    /**
     * A local address to listen on, with the broadcast address of its interface (IPv4, may be null)
     * and the interface's network prefix length (-1 when unknown).
     */
    record LocalAddress(InetAddress address, InetAddress broadcast, int prefix) {

        public LocalAddress(InetAddress address, InetAddress broadcast) {
            this(address, broadcast, -1);
        }

        /** True when {@code a} lies on this address's IPv4 subnet. */
        public boolean sameSubnet(InetAddress a) {
            if (!(address instanceof Inet4Address) || !(a instanceof Inet4Address) || prefix < 0 || prefix > 32) {
                return false;
            }
            int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            return (v4(address) & mask) == (v4(a) & mask);
        }

        private static int v4(InetAddress a) {
            byte[] b = a.getAddress();
            return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
        }
    }

    /**
     * What a listener wants on its port.
     *
     * @param catchAll         the port's wildcard socket, and every datagram reaching the port once
     *                         (what a socket bound to the wildcard address alone would have read)
     * @param addresses        a socket on each of these addresses (and its broadcast address when
     *                         {@code broadcasts}); deliveries from them
     * @param broadcasts       also a socket on each address's broadcast address
     * @param forwarding       the forwarding groups joined on loopback and a socket to send to them
     *                         from (seed 002 §5); best effort, see {@link Port#forwarding()}
     * @param limitedBroadcast searches to 255.255.255.255, from the wildcard socket (epoll only)
     * @param sender           an ephemeral socket of its own for {@link Port#send} (beacons): the
     *                         wildcard IPv6 address, IPv4 where there is no IPv6
     * @param readers          0: its sockets are read on the engine loop; n &ge; 1: on the port
     *                         owner's responder loops, with n sockets ({@code SO_REUSEPORT}) on each
     *                         of {@code addresses}, each read by a loop of its own (a broadcast or
     *                         group socket is one socket whatever n: each of n would get a copy)
     */
    record Interest(boolean catchAll, List<LocalAddress> addresses, boolean broadcasts, boolean forwarding,
                    boolean limitedBroadcast, boolean sender, int readers) {

        public Interest {
            addresses = List.copyOf(addresses);
            if (readers < 0) {
                throw new IllegalArgumentException("readers " + readers);
            }
        }

        /** Read on the engine loop. */
        public Interest(boolean catchAll, List<LocalAddress> addresses, boolean broadcasts, boolean forwarding,
                        boolean limitedBroadcast, boolean sender) {
            this(catchAll, addresses, broadcasts, forwarding, limitedBroadcast, sender, 0);
        }

        /** Everything that reaches the port, once: the PVA client's beacons and stray replies. */
        public static Interest everything() {
            return new Interest(true, List.of(), false, false, false, false);
        }
    }

    /** Where datagrams go. Engine loop only unless {@link #concurrent()}; must not block. */
    interface Receiver {

        /**
         * True when every method here may be called on whichever loop read the datagram, several
         * at once (the PVA server's responder); false (the default): on the engine loop only.
         */
        default boolean concurrent() {
            return false;
        }

        /**
         * For a receiver that is not {@link #concurrent()}: whether a datagram read off the engine
         * loop is worth the hop onto it (the client wants beacons and replies, not the searches
         * that reach the server's sockets). Called on the reader loop; a pure function of its argument.
         */
        default boolean accepts(DatagramContents contents) {
            return true;
        }

        /** One datagram, decoded (dropped, with a reason, when malformed: counting it is the receiver's). */
        void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival);

        /**
         * {@link #datagram(DatagramContents, InetSocketAddress, Arrival)} with the datagram's bytes as
         * received ({@code raw}: valid during the call only, null when not at hand), for a receiver
         * that sends them on (a forwarded search, seed 002 §5). The default ignores them.
         */
        default void datagram(DatagramContents contents, ByteBuf raw, InetSocketAddress source, Arrival arrival) {
            datagram(contents, source, arrival);
        }

        /**
         * This receiver's own forwarded copy (seed 002 §5) came back on a forwarding group's socket
         * from one of its forwarding senders, and was dropped before decoding: it always carries
         * exactly one ORIGIN_TAG, so the forwarding rules could only drop it as its own copy.
         * Counting it is the receiver's. Where the kernel filters these ({@link Port#ownCopies()}),
         * none arrive.
         */
        default void ownCopy(InetSocketAddress source) {
        }

        /** A datagram this receiver's port sent to {@code to} left (for logging by destination). */
        default void sent(InetSocketAddress to) {
        }

        /** A datagram to {@code to} was refused; {@code to} null for an error of the socket itself. */
        default void sendFailed(InetSocketAddress to, NetError error) {
        }
    }

    /** One listener's hold on its sockets; closing it closes those nobody else holds. */
    interface Port extends AutoCloseable {

        /** The port bound. */
        int port();

        /** The sockets this listener holds, as {@code host:port}. */
        List<String> bound();

        /**
         * Sends from the port's sending socket (the search socket; a listener's {@link Interest#sender()}).
         * Takes {@code data}; false when there is none or the datagram did not leave.
         */
        boolean send(ByteBuf data, InetSocketAddress to);

        /**
         * Answers a datagram received on this port: from the socket bound to {@code from} (seed
         * 002 §4), else from the first socket of the family of {@code to}, else from the sending
         * socket. Made on the loop while the port's sockets are being read, it leaves with the
         * other answers of that read. Takes {@code data}; false when it did not leave.
         */
        boolean reply(ByteBuf data, InetSocketAddress to, InetAddress from);

        /**
         * Runs {@code work}; what it sends from this port leaves together at its end, in one batch
         * ({@code sendmmsg}) where the port is read on the calling thread.
         */
        default void together(Runnable work) {
            work.run();
        }

        /** True when at least one forwarding group is joined and can be sent to (seed 002 §5). */
        boolean forwarding();

        /**
         * Whether another process has a socket on this port now (Linux: {@code /proc/net/udp} and
         * {@code udp6}, rechecked every few seconds and on every bind change of this engine): true
         * when one has, and when it cannot be known. Any thread.
         */
        default boolean othersListening() {
            return true;
        }

        /** {@code alone}, {@code shared} (another process has a socket on the port) or {@code unknown}. */
        default String sharing() {
            return "unknown";
        }

        /** True when {@code source} is one of this hold's forwarding sockets (its own forwarded copy). Any thread. */
        default boolean ownForwarder(InetSocketAddress source) {
            return false;
        }

        /**
         * How this hold's own forwarded copies are kept from it: {@code filtered in the kernel} (a
         * socket filter on the group socket: they never reach the process), {@code dropped before
         * decoding: WHY} (the filter could not be attached, and why), or {@code not forwarding}.
         */
        default String ownCopies() {
            return "not forwarding";
        }

        /**
         * Datagrams the kernel dropped on the forwarding groups' sockets since they were opened
         * ({@code SO_MEMINFO}): the own copies the filter drops, and any receive-buffer overflow;
         * -1 where that cannot be known.
         */
        default long ownCopiesFiltered() {
            return -1;
        }

        /** Sockets on each address, each read by a loop of its own (0: read on the engine loop). */
        default int readers() {
            return 0;
        }

        /**
         * Sends {@code datagram} to the forwarding group of the family of {@code origin} (or the
         * other one, when only that one works), TTL 1 over loopback. Takes it; false when it did
         * not leave.
         */
        boolean forward(ByteBuf datagram, InetAddress origin);

        /** Stops deliveries and closes the sockets no other listener holds. Idempotent. */
        @Override
        void close();
    }
}
