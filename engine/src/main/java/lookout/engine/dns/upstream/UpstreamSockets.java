package lookout.engine.dns.upstream;

import java.net.InetSocketAddress;

/**
 * Opens the one socket of an upstream transaction and sends the query on it. Injectable, so that
 * tests can make opening throw the local resource errors of seed 000 §4.6.2.
 *
 * <p>Concurrency: {@link Listener} methods are called on an I/O thread; the receiver hops onto
 * the engine loop.
 */
public interface UpstreamSockets {

    /** Events of one transaction's socket. */
    interface Listener {
        void reply(byte[] message, InetSocketAddress from);

        void failed(Throwable cause, FailureKind phase);
    }

    /** The open socket; closing is idempotent. */
    interface Handle {
        void close();
    }

    /**
     * A connected UDP socket to {@code server} with {@code query} sent on it. A synchronous failure
     * to open the socket throws; later failures arrive on {@code listener}.
     */
    Handle udp(InetSocketAddress server, byte[] query, Listener listener) throws Exception;

    /** A TCP connection to {@code server} sending {@code query} with its 2-byte length. */
    Handle tcp(InetSocketAddress server, byte[] query, Listener listener) throws Exception;

    /** How the sockets are opened, for the log. */
    default String describe() {
        return getClass().getSimpleName();
    }

    /** Closes whatever the opener holds (its sockets still open); engine loop, at stop. */
    default void close() {
    }
}
