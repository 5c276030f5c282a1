package lookout.engine.seams;

import java.net.InetSocketAddress;
import lookout.engine.pva.wire.DatagramContents;

/**
 * The seam between the engine's PVA server and its PVA client on the shared broadcast port: a
 * beacon or search reply that reached one of the server's sockets (unicast datagrams go to the
 * most specific bind, which is the server's) is handed to the client, which processes it exactly
 * as if its own beacon socket had read it. Implemented by the PVA client; engine loop only.
 */
public interface PvaSharedPort {

    void received(DatagramContents contents, InetSocketAddress source);
}
