package lookout.engine.pva.udp;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.net.UdpOptions;
import lookout.engine.pva.wire.WireAddress;

/** The settings every PVA UDP socket is opened with, and the addresses they are bound to. */
final class UdpSetup {

    private UdpSetup() {
    }

    static final Logger LOG = System.getLogger("lookout.pva.udp");
    /** seed 002 §3.5: reply bursts can overrun the receive buffer; size it generously. */
    static final int RECEIVE_BUFFER = 1 << 20;
    /** seed 002 §3.5: datagrams the client's sockets take per wake-up. */
    static final int CLIENT_PER_READ = 40;
    /** Datagrams a listening socket of the server takes per wake-up (on epoll in recvmmsg batches). */
    static final int SERVER_PER_READ = 64;
    /** Answers queued beyond this are dropped: a flood must not grow memory. */
    static final int QUEUE_LIMIT = 256 * 1024;

    static final InetAddress LOOPBACK_V4 = HostPort.literal("127.0.0.1");
    static final InetAddress LOOPBACK_V6 = HostPort.literal("::1");
    static final InetAddress ANY_V4 = HostPort.literal("0.0.0.0");
    static final InetAddress ANY_V6 = HostPort.literal("::");

    /** A listening socket of a port: shared with other processes (SO_REUSEADDR), broadcasts allowed. */
    static UdpOptions listening(int perRead) {
        return UdpOptions.DEFAULTS.withReuseAddress(true).withBroadcast(true).withReceiveBuffer(RECEIVE_BUFFER)
                .withMaxPerRead(perRead).withQueueLimit(QUEUE_LIMIT);
    }

    /** An error as an operator reads it: the kernel's words, never an exception's class. */
    static String why(Throwable e) {
        return NetError.of(e).message();
    }

    /** The loopback interface (the forwarding groups are joined on it), or null. */
    static NetworkInterface loopbackInterface() {
        try {
            NetworkInterface lo = NetworkInterface.getByInetAddress(LOOPBACK_V4);
            if (lo != null && lo.isLoopback()) {
                return lo;
            }
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isLoopback()) {
                    return ni;
                }
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "cannot list the network interfaces: " + why(e));
        }
        return null;
    }

    static boolean isV4(InetAddress a) {
        return WireAddress.unmap(a) instanceof Inet4Address;
    }
}
