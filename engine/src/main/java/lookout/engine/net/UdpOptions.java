package lookout.engine.net;

import java.net.InetAddress;
import java.net.NetworkInterface;

/**
 * How a {@link UdpEndpoint} is opened: socket options and how much it reads at once. An immutable
 * value; start from {@link #DEFAULTS} and change what differs.
 *
 * @param reusePort          share the port with other sockets of this process ({@code SO_REUSEPORT}: the
 *                           kernel spreads senders among them)
 * @param reuseAddress       share the port with other processes ({@code SO_REUSEADDR}: PVA's broadcast port)
 * @param broadcast          may send to broadcast addresses
 * @param receiveBuffer      {@code SO_RCVBUF} in bytes, 0 for the system default
 * @param destination        learn each datagram's destination address ({@code IP_PKTINFO} natively,
 *                           {@code IP_RECVORIGDSTADDR} on epoll; unavailable on NIO)
 * @param maxDatagram        the longest datagram read whole; longer ones arrive cut and flagged
 * @param maxPerRead         datagrams taken per wake-up of a Netty-read socket
 * @param joinGroup          a multicast group to join on {@code groupInterface} (Netty-read sockets only), or null
 * @param groupInterface     the interface of {@code joinGroup} and of multicast sends, or null
 * @param multicastTtl       the TTL of multicast sends, -1 for the default
 * @param multicastLoop      multicast sends loop back to this host's own sockets
 * @param noPathMtuDiscovery answers leave without DF (gdnsd's {@code IP_PMTUDISC_OMIT}; IPv6 at the
 *                           1280-byte minimum), for the resolver's listeners
 * @param queueLimit         bytes queued for sending beyond which further datagrams are dropped
 *                           (a flood must not grow memory), 0 for no limit
 */
public record UdpOptions(boolean reusePort, boolean reuseAddress, boolean broadcast, int receiveBuffer,
                         boolean destination, int maxDatagram, int maxPerRead, InetAddress joinGroup,
                         NetworkInterface groupInterface, int multicastTtl, boolean multicastLoop,
                         boolean noPathMtuDiscovery, int queueLimit) {

    /**
     * Nothing shared, system buffers, datagrams up to 4 095 bytes, 64 per wake-up, no queue limit.
     * 4 095, not 4 096: a read slot holds one byte more than is kept (that byte shows a longer
     * datagram as cut), and eight 4-KiB slots fill one 32-KiB batched read exactly — a 4 097-byte
     * slot fits seven, an eighth more reads for the same datagrams.
     */
    public static final UdpOptions DEFAULTS = new UdpOptions(false, false, false, 0, false,
            Transport.BATCHED_DATAGRAM_SIZE - 1, 64, null, null, -1, true, false, 0);

    public UdpOptions {
        if (maxDatagram < 12 || maxDatagram > 65534) {
            throw new IllegalArgumentException("maxDatagram " + maxDatagram + " outside 12..65534");
        }
        if (maxPerRead < 1) {
            throw new IllegalArgumentException("maxPerRead " + maxPerRead);
        }
    }

    public UdpOptions withReusePort(boolean v) {
        return new UdpOptions(v, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withReuseAddress(boolean v) {
        return new UdpOptions(reusePort, v, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withBroadcast(boolean v) {
        return new UdpOptions(reusePort, reuseAddress, v, receiveBuffer, destination, maxDatagram, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withReceiveBuffer(int bytes) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, bytes, destination, maxDatagram, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withDestination(boolean v) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, v, maxDatagram, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withMaxDatagram(int bytes) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, bytes, maxPerRead, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withMaxPerRead(int n) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, n, joinGroup,
                groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    /** Joins {@code group} on {@code on} once bound; multicast sends go out on {@code on} too. */
    public UdpOptions withGroup(InetAddress group, NetworkInterface on) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead, group,
                on, multicastTtl, multicastLoop, noPathMtuDiscovery, queueLimit);
    }

    /** Multicast sends leave on {@code on} with {@code ttl} (-1: default), looped back to this host or not. */
    public UdpOptions withMulticastSend(NetworkInterface on, int ttl, boolean loop) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead,
                joinGroup, on, ttl, loop, noPathMtuDiscovery, queueLimit);
    }

    public UdpOptions withNoPathMtuDiscovery(boolean v) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead,
                joinGroup, groupInterface, multicastTtl, multicastLoop, v, queueLimit);
    }

    public UdpOptions withQueueLimit(int bytes) {
        return new UdpOptions(reusePort, reuseAddress, broadcast, receiveBuffer, destination, maxDatagram, maxPerRead,
                joinGroup, groupInterface, multicastTtl, multicastLoop, noPathMtuDiscovery, bytes);
    }
}
