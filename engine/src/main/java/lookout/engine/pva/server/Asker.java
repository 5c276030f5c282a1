package lookout.engine.pva.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import lookout.engine.net.HostPort;
import lookout.engine.pva.wire.WireAddress;

/**
 * Who asked for a name, as the on-demand limits count it: a UDP client by its address (its port
 * changes from one socket to the next), a TCP name-server client by its connection.
 *
 * @param tcp     a name-server connection
 * @param address the client's address (IPv4 unmapped)
 * @param port    the connection's port; 0 over UDP
 */
record Asker(boolean tcp, InetAddress address, int port) {

    static Asker udp(InetAddress address) {
        return new Asker(false, WireAddress.unmap(address), 0);
    }

    static Asker tcp(InetSocketAddress peer) {
        return new Asker(true, WireAddress.unmap(peer.getAddress()), peer.getPort());
    }

    /** {@code udp 10.0.0.7}, {@code tcp 10.0.0.7:40122}. */
    String label() {
        return tcp ? "tcp " + HostPort.format(address, port) : "udp " + HostPort.address(address);
    }
}
