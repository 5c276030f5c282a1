package lookout.engine.pva.udp;

import java.net.InetSocketAddress;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Interest;
import lookout.engine.seams.PvaPorts.Kind;

/** One hold on a port ({@link PortGroup}): a listener, as the port's sockets see it. */
interface PortMember {

    Interest interest();

    /** Whether a datagram that reached a socket as {@code kind} is this member's ({@code holds}: it holds that socket). */
    boolean wants(boolean holds, Kind kind);

    /** Whether {@link #deliver} may run on the loop that read the datagram (else it hops onto the engine loop). */
    boolean concurrent();

    /** Whether a datagram read off the engine loop is worth a hop onto it, for a member that is not concurrent. */
    boolean accepts(DatagramContents contents);

    /**
     * One datagram for this member, on the calling thread; {@code raw} its bytes as received, valid
     * during the call only (null when not at hand).
     */
    void deliver(DatagramContents contents, io.netty.buffer.ByteBuf raw, InetSocketAddress source, Arrival arrival);

    /** Where this member's forwarded copies come from (its forwarding senders); empty when it forwards none. */
    default java.util.List<InetSocketAddress> forwardSources() {
        return java.util.List.of();
    }

    /** True when {@code source} is one of this member's forwarding senders. Any thread. */
    default boolean ownForwarder(InetSocketAddress source) {
        return false;
    }

    /** This member's own forwarded copy came back on a group socket: dropped undecoded, counted; on the reading loop. */
    default void ownCopy(InetSocketAddress source) {
    }

    /** A send or socket error for this member ({@code to} null: the socket's own); engine loop. */
    void failed(InetSocketAddress to, NetError error);

    /** How a send of this member to {@code to} went. */
    UdpEndpoint.SendOutcome outcome(InetSocketAddress to);
}
