package lookout.engine.net;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * One UDP socket of the engine, for DNS and PVA alike: datagrams come in bursts to its
 * {@link UdpReceiver} on the one thread that reads it (a Netty event loop, or a reader thread of
 * its own for a natively read socket), each with its sender and — where the endpoint
 * {@link #knowsDestination() knows it} — the address it was sent to; answers go out in batches.
 *
 * <p>Sending: on the reader thread during a burst, datagrams are queued and leave together
 * ({@code sendmmsg}) every {@link #FLUSH_EVERY} and when the burst ends; from any other thread, or
 * outside a burst, each leaves at once. A datagram the kernel refuses is counted
 * ({@link #sendErrors()}) and reported to the receiver ({@link UdpReceiver#sendFailed}) with its
 * errno; it never throws.
 *
 * <p>Concurrency: {@link #send}, {@link #sendErrors}, {@link #close} may be called from any thread;
 * {@link #reply} only from inside {@link UdpReceiver#datagram} on the reader thread.
 */
public interface UdpEndpoint {

    /**
     * Datagrams a burst queues before they leave (one {@code sendmmsg}), as gdnsd does: the first
     * answers of a long burst leave sooner, at the same CPU per datagram as one send per burst of 64
     * within this machine's noise (docs/adr/0002-native-datagrams.md).
     */
    int FLUSH_EVERY = 16;

    /** The address and port bound (port 0 resolved). */
    InetSocketAddress localAddress();

    /** True when {@link UdpReceiver#datagram} is given each datagram's destination address. */
    boolean knowsDestination();

    /** True when {@link #send}'s {@code from} chooses the source address (IP_PKTINFO). */
    boolean choosesSource();

    /**
     * Sends {@code length} bytes of {@code data} from {@code offset} to {@code to}, leaving from
     * {@code from} where the endpoint {@link #choosesSource() can choose} (null: the kernel's choice,
     * the bound address). The bytes are copied before this returns. False when the datagram was not
     * sent (closed endpoint, refused by the kernel, a full queue).
     */
    boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from);

    /** {@link #send(byte[], int, int, InetSocketAddress, InetAddress)} of a buffer's readable bytes; releases it. */
    boolean send(ByteBuf data, InetSocketAddress to, InetAddress from);

    /**
     * How one send went, once the kernel took or refused the datagram: for senders that keep
     * state per destination (a failure logged once, and the recovery after it).
     */
    @FunctionalInterface
    interface SendOutcome {
        /** {@code error} null: the datagram left; else why it did not. Must not block. */
        void completed(NetError error);
    }

    /**
     * {@link #send(ByteBuf, InetSocketAddress, InetAddress)}, telling {@code outcome} how it went:
     * on the reader thread when the datagram was queued, else before this returns. A refused
     * datagram is counted ({@link #sendErrors()}) but not also reported to
     * {@link UdpReceiver#sendFailed}. The default tells what {@code send} returned, at once.
     */
    default boolean send(ByteBuf data, InetSocketAddress to, InetAddress from, SendOutcome outcome) {
        boolean sent = send(data, to, from);
        outcome.completed(sent ? null : new NetError(0, "not sent", null));
        return sent;
    }

    /**
     * Answers the datagram being delivered: to its sender, from the address it was sent to. Only
     * inside {@link UdpReceiver#datagram}, on the reader thread (a natively read socket reuses the
     * sender's address as received, without encoding it again).
     */
    boolean reply(byte[] data, int offset, int length);

    /**
     * Runs {@code work} on the calling thread and sends whatever it sends together at its end (one
     * {@code sendmmsg}): answers to a burst handed over from another endpoint's reader leave in one
     * go. Blocks may nest; sends from other threads meanwhile may join the batch.
     */
    void sendTogether(Runnable work);

    /** True on the thread that reads this endpoint. */
    boolean onReaderThread();

    /** Datagrams the kernel would not send, ever, on this endpoint. */
    long sendErrors();

    /**
     * The receive buffer the kernel keeps for this socket, in bytes ({@code SO_RCVBUF} read back:
     * Linux keeps twice what was asked, for its bookkeeping, within {@code net.core.rmem_max}
     * unless the process may exceed it); -1 when the socket will not say.
     */
    default int receiveBuffer() {
        return -1;
    }

    /**
     * Datagrams the kernel dropped on this socket, ever — a full receive buffer, a burst larger
     * than it — or -1 where that cannot be known (NIO). Read when asked ({@code SO_MEMINFO}: the
     * socket's drop counter, which {@code SO_RXQ_OVFL} would report datagram by datagram).
     */
    default long receiveDrops() {
        return -1;
    }

    /**
     * Makes the kernel drop the datagrams sent to this socket from any of {@code sources} (IPv4)
     * before they are queued, replacing what an earlier call asked; an empty list lets everything
     * in again. Null when the kernel filters them, else why it cannot (then they arrive as before).
     * Linux: a socket filter attached through liblookoutnet. Engine loop or any thread.
     */
    default String dropFrom(java.util.List<InetSocketAddress> sources) {
        return "a socket read by " + readBy() + " takes no filter";
    }

    /**
     * For a socket of a {@code SO_REUSEPORT} group (several sockets on one address, each read by a
     * loop of its own): has the kernel give every datagram of the group to its first socket
     * ({@code first}), or spread them over all by their flows again. Null when done, else why it
     * cannot be (then the kernel spreads them as before). Any thread.
     */
    default String steerGroup(boolean first) {
        return "a socket read by " + readBy() + " cannot steer its group";
    }

    /**
     * What its reader has read, ever: {@code [datagrams, reads that took a whole batch]} — a whole
     * batch means more were waiting, the reader behind —, or null where that is not counted. Any thread.
     */
    default long[] reads() {
        return null;
    }

    /** How it is read, for logs and status: {@code netty-epoll}, {@code netty-nio}, {@code native}. */
    String readBy();

    /**
     * Closes the socket. A natively read endpoint wakes its reader and waits for it (bounded)
     * before freeing anything. Idempotent.
     */
    void close();
}
