package lookout.engine.pva.udp;

import io.netty.channel.EventLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import lookout.engine.api.Scheduler;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.net.UdpReceiver;

/** Where the port owner's parts open their sockets and find their loops. */
interface SocketFactory {

    /** The engine loop's scheduler: deliveries to listeners that are not concurrent, and their send outcomes, hop onto it. */
    Scheduler scheduler();

    /**
     * Whether listeners' own forwarded copies are to be filtered in the kernel on the group sockets
     * (where the socket takes a filter); false keeps them to the drop before decoding.
     */
    default boolean filtersOwnCopies() {
        return true;
    }

    /** True where each datagram's destination can be learnt (IP_RECVORIGDSTADDR: epoll). */
    boolean knowsDestinations();

    /**
     * The loop a socket is read on: the engine loop's own I/O loop for a listener read there
     * ({@code readers} 0), else responder loop {@code index} of {@code readers}.
     */
    EventLoop loop(int readers, int index);

    /** An endpoint on {@code local}, read by Netty on {@code loop}, bound before this returns. */
    UdpEndpoint open(EventLoop loop, InetSocketAddress local, UdpOptions options, UdpReceiver receiver) throws IOException;

    /**
     * A server's socket on one of its unicast addresses, read on responder loop {@code loop}: the
     * hottest socket of the port, which the factory may read another way than {@link #open}'s.
     */
    default UdpEndpoint openUnicast(EventLoop loop, InetSocketAddress local, UdpOptions options, UdpReceiver receiver)
            throws IOException {
        return open(loop, local, options, receiver);
    }
}
