package lookout.engine.net;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link UdpEndpoint} read natively ({@link NativeDatagram}), as gdnsd reads its own: a reader
 * thread of its own blocks in {@code recvmmsg} on preallocated memory, hands each datagram to the
 * receiver, and sends what was answered during the burst with one {@code sendmmsg} at its end.
 * Sends from other threads go out at once ({@code sendmsg}), or together at the end of a
 * {@link #sendTogether} block. No selector, no per-datagram objects (docs/adr/0002).
 *
 * <p>On a wildcard address every datagram's destination is known and its answers leave from it
 * ({@code IP_PKTINFO}), so {@link #knowsDestination()} and {@link #choosesSource()} hold there.
 *
 * <p>Concurrency: {@code batch}, {@code current} and {@code inBurst} belong to the reader thread;
 * {@code outbox} and {@code together} are guarded by {@code outbox}; the socket's own
 * {@link NativeDatagram#sendTo} is synchronized. {@link #close} wakes the reader and frees nothing
 * while it may still run.
 */
final class NativeUdpEndpoint implements UdpEndpoint, Runnable {

    private static final Logger LOG = System.getLogger("lookout.net.udp");

    private final NativeDatagram socket;
    private final UdpReceiver receiver;
    private final UdpOptions options;
    private final Thread thread;
    private final LongAdder sendErrors = new LongAdder();
    private final LongAdder receiverErrors = new LongAdder();
    /** Where answers given in a {@link #sendTogether} block on another thread wait; guarded by itself. */
    private final NativeDatagram.Batch outbox;
    private int together;
    // reader thread only
    private NativeDatagram.Batch batch;
    private final byte[] scratch;
    private int current = -1;
    private InetSocketAddress currentSender;
    private boolean inBurst;
    private long reportedBatchErrors;
    private long receiveErrors;

    private NativeUdpEndpoint(NativeDatagram socket, UdpReceiver receiver, UdpOptions options, String threadName) {
        this.socket = socket;
        this.receiver = receiver;
        this.options = options;
        this.scratch = new byte[options.maxDatagram()];
        this.outbox = socket.new Batch(options.maxDatagram(), true);
        this.thread = new Thread(this, threadName);
        this.thread.setDaemon(true);
    }

    /** The {@link NativeDatagram#bind(InetSocketAddress, int, int)} sharing flags that {@code o} asks for. */
    static int share(UdpOptions o) {
        return (o.reusePort() ? NativeDatagram.SHARE_PORT : 0) | (o.reuseAddress() ? NativeDatagram.SHARE_ADDRESS : 0)
                | (o.broadcast() ? NativeDatagram.SHARE_BROADCAST : 0);
    }

    /**
     * Binds natively and starts the reader thread. Throws where native datagrams are unavailable
     * ({@link Udp#nativeUnavailable()}) or the bind fails.
     */
    static NativeUdpEndpoint open(InetSocketAddress local, UdpOptions o, UdpReceiver receiver, String threadName)
            throws IOException {
        if (o.joinGroup() != null) {
            throw new IOException("natively read sockets join no multicast groups");
        }
        NativeDatagram s = NativeDatagram.bind(local, share(o), o.receiveBuffer());
        NativeUdpEndpoint e;
        try {
            e = new NativeUdpEndpoint(s, receiver, o, threadName);
        } catch (RuntimeException | Error x) {
            s.close();
            throw x;
        }
        e.thread.start();
        return e;
    }

    @Override
    public InetSocketAddress localAddress() {
        return socket.localAddress();
    }

    @Override
    public boolean knowsDestination() {
        return socket.localAddress().getAddress().isAnyLocalAddress();
    }

    @Override
    public boolean choosesSource() {
        return knowsDestination();
    }

    @Override
    public boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from) {
        byte[] d = data;
        if (offset != 0) {
            d = java.util.Arrays.copyOfRange(data, offset, offset + length);
        }
        return out(d, length, to, from == null ? null : socket.via(from));
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
        try {
            byte[] d = new byte[data.readableBytes()];
            data.getBytes(data.readerIndex(), d);
            return out(d, d.length, to, from == null ? null : socket.via(from));
        } finally {
            data.release();
        }
    }

    @Override
    public boolean reply(byte[] data, int offset, int length) {
        if (current < 0 || Thread.currentThread() != thread) {
            throw new IllegalStateException("reply() outside a datagram's delivery");
        }
        byte[] d = offset == 0 ? data : java.util.Arrays.copyOfRange(data, offset, offset + length);
        // the sender's own name as received, and the datagram's destination as the source
        batch.answer(current, d, length);
        return true;
    }

    private boolean out(byte[] data, int length, InetSocketAddress to, byte[] via) {
        if (inBurst && Thread.currentThread() == thread) {
            if (to == currentSender && current >= 0 && via == null) {
                batch.answer(current, data, length);
            } else {
                batch.answer(to, via, data, length);
            }
            return true;
        }
        synchronized (outbox) {
            if (together > 0) {
                if (!socket.isShut()) { // the outbox is closed with the socket (under this lock)
                    outbox.answer(to, via, data, length);
                }
                return true;
            }
        }
        if (!socket.sendTo(data, length, to, via)) {
            sendErrors.increment();
            return false;
        }
        return true;
    }

    /**
     * Runs {@code work} on the calling thread (not the reader), and sends whatever it sends in one
     * {@code sendmmsg} at its end: answers to a burst handed over from the reader leave together.
     */
    @Override
    public void sendTogether(Runnable work) {
        synchronized (outbox) {
            together++;
        }
        try {
            work.run();
        } finally {
            synchronized (outbox) {
                if (--together == 0 && !socket.isShut()) {
                    long before = outbox.sendErrors();
                    outbox.flush();
                    sendErrors.add(outbox.sendErrors() - before);
                }
            }
        }
    }

    @Override
    public boolean onReaderThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public long sendErrors() {
        return sendErrors.sum();
    }

    @Override
    public int receiveBuffer() {
        return socket.receiveBuffer();
    }

    @Override
    public long receiveDrops() {
        return socket.receiveDrops();
    }

    long receiverErrors() {
        return receiverErrors.sum();
    }

    @Override
    public String readBy() {
        return "native";
    }

    /** Wakes the reader and waits for it (bounded); frees the socket once it has ended. */
    @Override
    public void close() {
        socket.shutdown();
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.isAlive()) {
            // never freed under a thread that may still touch it: the descriptor leaks instead
            LOG.log(Level.WARNING, "UDP reader " + thread.getName() + " did not end; its socket is left open");
            return;
        }
        synchronized (outbox) {
            outbox.close();
        }
        socket.close();
    }

    @Override
    public void run() {
        try (NativeDatagram.Batch b = socket.new Batch(options.maxDatagram())) {
            batch = b;
            while (!socket.isShut()) {
                int n = b.receive();
                if (n < 0) {
                    if (socket.isShut()) {
                        break;
                    }
                    if (receiveErrors++ == 0) {
                        LOG.log(Level.WARNING, "UDP receive on " + socket.localAddress() + " failed: " + b.error());
                    }
                    notify(new NetError(b.errno(), b.error(), null));
                    // not a protocol timer: a pause so that a socket in a lasting error state does not spin
                    LockSupport.parkNanos(1_000_000);
                    continue;
                }
                inBurst = true;
                for (int i = 0; i < n; i++) {
                    one(b, i);
                }
                current = -1;
                currentSender = null;
                inBurst = false;
                try {
                    receiver.burstEnd(this);
                } catch (RuntimeException e) {
                    receiverErrors.increment();
                    LOG.log(Level.WARNING, "UDP receiver on " + socket.localAddress() + " failed at the end of a burst", e);
                }
                b.flush();
                long lost = b.sendErrors();
                if (lost != reportedBatchErrors) {
                    sendErrors.add(lost - reportedBatchErrors);
                    reportedBatchErrors = lost;
                }
            }
        } catch (Throwable t) {
            // the socket stays bound but unread: said loudly, the engine goes on
            LOG.log(Level.ERROR, "UDP reader " + thread.getName() + " on " + socket.localAddress() + " ended", t);
            notify(new NetError(0, "the reader of " + socket.localAddress() + " ended: " + t, t));
        }
    }

    private void notify(NetError e) {
        try {
            receiver.receiveFailed(this, e);
        } catch (RuntimeException x) {
            receiverErrors.increment();
        }
    }

    private void one(NativeDatagram.Batch b, int i) {
        try {
            InetSocketAddress sender = b.sender(i);
            if (sender == null) {
                return;
            }
            current = i;
            currentSender = sender;
            int len = b.length(i);
            b.copy(i, scratch, len);
            receiver.datagram(this, scratch, len, sender, knowsDestination() ? b.destination(i) : null, b.truncated(i));
        } catch (RuntimeException e) {
            receiverErrors.increment();
            LOG.log(Level.WARNING, "UDP receiver on " + socket.localAddress() + " failed", e);
        }
    }
}
