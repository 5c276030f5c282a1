package lookout.engine.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * What an endpoint's reader thread hands its datagrams to. Every method runs on that thread and
 * must not block; a receiver that throws has the exception caught, counted by the endpoint and
 * logged — it never ends the reader.
 */
public interface UdpReceiver {

    /**
     * One datagram: {@code data[0, length)}, valid only during the call (the endpoint reuses the
     * array). {@code destination} is the address it was sent to where the endpoint
     * {@link UdpEndpoint#knowsDestination() knows it} (a broadcast or group address as such), else
     * null. A datagram longer than the endpoint's {@link UdpOptions#maxDatagram()} arrives cut to
     * it with {@code truncated} set.
     */
    void datagram(UdpEndpoint endpoint, byte[] data, int length, InetSocketAddress sender, InetAddress destination,
                  boolean truncated);

    /** The end of a burst (one wake-up of the reader): what was sent during it leaves now, after this returns. */
    default void burstEnd(UdpEndpoint endpoint) {
    }

    /** A send the kernel refused, with its error; called on whichever thread sent, or the reader. */
    default void sendFailed(UdpEndpoint endpoint, NetError error, InetSocketAddress to) {
    }

    /** A receive error; the reader goes on (pausing briefly so that a lasting error does not spin). */
    default void receiveFailed(UdpEndpoint endpoint, NetError error) {
    }
}
