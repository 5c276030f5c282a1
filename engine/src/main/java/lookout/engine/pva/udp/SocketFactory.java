package lookout.engine.pva.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import lookout.engine.api.Scheduler;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.net.UdpReceiver;

/** Where the port owner's parts open their sockets and find the engine loop. */
interface SocketFactory {

    /** The engine loop's scheduler: deliveries and send outcomes hop onto it. */
    Scheduler scheduler();

    /** True on the loop every socket of the owner is read on. */
    boolean onReaderLoop();

    /** True where each datagram's destination can be learnt (IP_RECVORIGDSTADDR: epoll). */
    boolean knowsDestinations();

    /** An endpoint on {@code local}, read by Netty on the reader loop, bound before this returns. */
    UdpEndpoint open(InetSocketAddress local, UdpOptions options, UdpReceiver receiver) throws IOException;
}
