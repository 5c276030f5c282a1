package lookout.engine.pva.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;

/**
 * The client's UDP sockets, from the engine's port owner: its search socket (an ephemeral port;
 * searches leave from it and their replies come back to it) and its hold on
 * {@code pva.broadcast_port}, where beacons arrive — shared with the engine's own PVA server and
 * with other PVA processes on the host. What they read goes to the one dispatch routine
 * ({@link ReplyProcessor#datagram}); how searches went, to the {@link SearchFanOut}.
 *
 * <p>Concurrency: engine loop only.
 */
final class ClientSockets implements PvaPorts.Receiver {

    private final PvaPorts ports;
    private final ReplyProcessor replies;
    private final SearchFanOut fanOut;
    private PvaPorts.Port searchSocket;
    private PvaPorts.Port broadcastPort;

    ClientSockets(PvaPorts ports, ReplyProcessor replies, SearchFanOut fanOut) {
        this.ports = ports;
        this.replies = replies;
        this.fanOut = fanOut;
    }

    /** Opens the search socket; returns its port (the reply port of every search). */
    int openSearchSocket() throws IOException {
        searchSocket = ports.searchSocket(this);
        fanOut.via(searchSocket);
        return searchSocket.port();
    }

    /**
     * Listens on {@code port} for beacons (everything reaching the port, once), letting go of the
     * port held before. Throws when it cannot be bound (a process holds it without SO_REUSEADDR);
     * then none is held.
     */
    void listen(int port) throws IOException {
        closeBroadcastPort();
        broadcastPort = ports.listen(port, PvaPorts.Interest.everything(), this);
    }

    /** The search socket's port, or 0. */
    int searchPort() {
        return searchSocket == null ? 0 : searchSocket.port();
    }

    /** The broadcast port held, or 0 when none is. */
    int beaconPort() {
        return broadcastPort == null ? 0 : broadcastPort.port();
    }

    void close() {
        closeBroadcastPort();
        if (searchSocket != null) {
            fanOut.via(null);
            searchSocket.close();
            searchSocket = null;
        }
    }

    private void closeBroadcastPort() {
        if (broadcastPort != null) {
            broadcastPort.close();
            broadcastPort = null;
        }
    }

    // ------------------------------------------------------------------ PvaPorts.Receiver

    /** Off the engine loop, only what the client reads is worth the hop: beacons and search replies. */
    @Override
    public boolean accepts(DatagramContents contents) {
        if (contents.dropped()) {
            return false; // the server's sockets count it
        }
        for (lookout.engine.pva.wire.Frame f : contents.frames()) {
            if (f.message() instanceof lookout.engine.pva.wire.Beacon
                    || f.message() instanceof lookout.engine.pva.wire.SearchResponse) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
        replies.datagram(contents, source, arrival);
    }

    @Override
    public void sent(InetSocketAddress to) {
        fanOut.sent(to);
    }

    @Override
    public void sendFailed(InetSocketAddress to, NetError error) {
        fanOut.failed(to, error);
    }
}
