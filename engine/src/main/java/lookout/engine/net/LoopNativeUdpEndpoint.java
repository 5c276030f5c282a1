package lookout.engine.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link UdpEndpoint} read natively ({@link NativeDatagram}) on a Netty epoll loop rather than
 * by a thread of its own: the socket is one more descriptor the loop watches (Netty 4.2's
 * {@link EpollIoHandle}, as {@link UdpExchanges}' set is). When it is readable the loop takes what
 * is there, {@value #BATCH} at a time ({@code recvmmsg} without waiting), at most
 * {@value #BATCHES_PER_WAKE} batches per wake-up, hands each datagram to the receiver and sends the
 * batch's answers with one {@code sendmmsg} at its end; what the loop sends outside a burst — the
 * answers that follow upstream replies — waits in the same memory for the end of the loop's round
 * and leaves in one {@code sendmmsg} too. Nothing is allocated per datagram, and nothing hops
 * between threads: the resolver's single socket is read this way on the engine loop, which then
 * answers cache hits, local zones and forwarded questions where it reads them
 * (docs/adr/0005-upstream-sockets.md).
 *
 * <p>Concurrency: {@code batch}, {@code outgoing}, {@code current}, {@code inBurst}, {@code flushQueued} and
 * {@code together} belong to the loop's thread; sends from any other thread leave at once
 * through {@link NativeDatagram#sendTo} (its own memory, under its lock). Closing stops the
 * watching on the loop and frees the socket after it.
 */
final class LoopNativeUdpEndpoint implements UdpEndpoint {

    private static final Logger LOG = System.getLogger("lookout.net.udp");
    /**
     * Datagrams one {@code recvmmsg} takes and answers one {@code sendmmsg} gives here: more than a
     * reader thread's {@value NativeDatagram#BATCH}. The engine loop is the resolver's only reader
     * of its one socket, so under load the queue in the receive buffer is as deep as the clients'
     * outstanding questions (~400 KB in bench/pools-dnsperf.sh): 256 at a time took the CPU per
     * DYNA answer from 1.06× gdnsd's to 1.00× (bench/results/issue16-cpu.md), where the system
     * calls per answer were already gdnsd's (1/16 each way) and Java's share is 0.3 µs of 4.5.
     */
    static final int BATCH = 256;
    /** Batches one wake-up takes before the loop goes on to its other descriptors and tasks (512 datagrams). */
    static final int BATCHES_PER_WAKE = 2;

    private final NativeDatagram socket;
    private final EventLoop loop;
    private final UdpReceiver receiver;
    private final LongAdder sendErrors = new LongAdder();
    private final LongAdder receiverErrors = new LongAdder();
    private final byte[] scratch;
    /** The loop's sends on their way into the batch's memory (a datagram being delivered is in {@code scratch}). */
    private final byte[] outgoing;
    private final Runnable flushTask = this::flushQueued;
    // the loop's thread only
    private final NativeDatagram.Batch batch;
    private int current = -1;
    private InetSocketAddress currentSender;
    private boolean inBurst;
    private boolean flushQueued;
    private int together;
    private long reportedBatchErrors;
    /** Written by the loop only, read by anyone ({@link #reads}). */
    private volatile long datagramsRead;
    private volatile long fullReads;
    private long receiveErrors;
    private IoRegistration registration;

    private LoopNativeUdpEndpoint(NativeDatagram socket, EventLoop loop, UdpReceiver receiver, UdpOptions options) {
        this.socket = socket;
        this.loop = loop;
        this.receiver = receiver;
        this.scratch = new byte[options.maxDatagram()];
        this.outgoing = new byte[options.maxDatagram()];
        this.batch = socket.new Batch(options.maxDatagram(), BATCH);
    }

    /** Binds natively and has {@code loop} (an epoll loop) watch the socket, before this returns. */
    static LoopNativeUdpEndpoint open(EventLoop loop, InetSocketAddress local, UdpOptions o, UdpReceiver receiver)
            throws IOException {
        if (o.joinGroup() != null) {
            throw new IOException("natively read sockets join no multicast groups");
        }
        if (Transport.of(loop) != Transport.EPOLL) {
            throw new IOException("a natively read socket on an event loop needs the epoll transport");
        }
        NativeDatagram s = NativeDatagram.bind(local, NativeUdpEndpoint.share(o), o.receiveBuffer());
        LoopNativeUdpEndpoint e;
        try {
            e = new LoopNativeUdpEndpoint(s, loop, receiver, o);
            io.netty.util.concurrent.Future<IoRegistration> f = ((IoEventLoop) loop).register(e.new Watch());
            if (!f.awaitUninterruptibly(10, TimeUnit.SECONDS) || !f.isSuccess()) {
                throw new IOException("the socket could not be watched from the loop: " + f.cause(), f.cause());
            }
            IoRegistration r = f.getNow();
            r.submit(EpollIoOps.EPOLLIN); // level-triggered: what one wake-up leaves is read at the next
            e.setRegistration(r);
        } catch (IOException | RuntimeException | Error x) {
            s.close();
            throw x;
        }
        return e;
    }

    private synchronized void setRegistration(IoRegistration r) {
        registration = r;
    }

    private synchronized IoRegistration takeRegistration() {
        IoRegistration r = registration;
        registration = null;
        return r;
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
        return out(offset == 0 ? data : staged(data, offset, length), length, to, from == null ? null : socket.via(from));
    }

    @Override
    public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
        try {
            int n = data.readableBytes();
            byte[] d = loop.inEventLoop() && n <= outgoing.length ? outgoing : new byte[n];
            data.getBytes(data.readerIndex(), d, 0, n);
            return out(d, n, to, from == null ? null : socket.via(from));
        } finally {
            data.release();
        }
    }

    @Override
    public boolean reply(byte[] data, int offset, int length) {
        if (current < 0 || !loop.inEventLoop()) {
            throw new IllegalStateException("reply() outside a datagram's delivery");
        }
        // the sender's own name as received, and the datagram's destination as the source
        batch.answer(current, offset == 0 ? data : staged(data, offset, length), length);
        return true;
    }

    /**
     * {@code data[offset, offset + length)} from index 0 of an array: on the loop, the reusable
     * {@link #outgoing} (the batch copies it into its own memory before anything else is sent
     * there); elsewhere a copy of its own.
     */
    private byte[] staged(byte[] data, int offset, int length) {
        if (loop.inEventLoop() && length <= outgoing.length) {
            System.arraycopy(data, offset, outgoing, 0, length);
            return outgoing;
        }
        return java.util.Arrays.copyOfRange(data, offset, offset + length);
    }

    private boolean out(byte[] data, int length, InetSocketAddress to, byte[] via) {
        if (!loop.inEventLoop()) {
            if (!socket.sendTo(data, length, to, via)) {
                sendErrors.increment();
                return false;
            }
            return true;
        }
        if (socket.isShut()) {
            sendErrors.increment();
            return false;
        }
        if (inBurst && current >= 0 && to == currentSender && via == null) {
            batch.answer(current, data, length);
        } else {
            batch.answer(to, via, data, length);
        }
        if (!inBurst && together == 0 && !flushQueued) {
            // outside a burst (an answer after an upstream reply): the rest of this round's answers
            // join it, and all leave together once the loop has handled what woke it
            flushQueued = true;
            try {
                loop.execute(flushTask);
            } catch (RejectedExecutionException e) {
                flushQueued = false;
                flush();
            }
        }
        return true;
    }

    private void flushQueued() {
        flushQueued = false;
        flush();
    }

    /** Loop thread: sends what the batch holds, counting what the kernel refused. */
    private void flush() {
        batch.flush();
        long lost = batch.sendErrors();
        if (lost != reportedBatchErrors) {
            sendErrors.add(lost - reportedBatchErrors);
            reportedBatchErrors = lost;
        }
    }

    @Override
    public void sendTogether(Runnable work) {
        if (!loop.inEventLoop()) {
            work.run(); // each leaves at once (sendTo): only the loop's own sends are batched
            return;
        }
        together++;
        try {
            work.run();
        } finally {
            if (--together == 0 && !inBurst) {
                flush();
            }
        }
    }

    @Override
    public boolean onReaderThread() {
        return loop.inEventLoop();
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
    public long[] reads() {
        return new long[] {datagramsRead, fullReads};
    }

    @Override
    public String steerGroup(boolean first) {
        if (socket.isShut()) {
            return "the socket is closed";
        }
        int r = steer(socket.descriptor(), first);
        return r == 0 ? null : "the kernel refused the steering program: " + NativeDatagram.describe(-r);
    }

    /** liblookoutnet: the group's steering program (SO_ATTACH_REUSEPORT_CBPF); 0 or -errno. */
    private static native int steer(int fd, boolean first);

    @Override
    public String readBy() {
        return "native-loop";
    }

    /** Stops the watching (on the loop) and closes the socket after it. Idempotent. */
    @Override
    public void close() {
        socket.shutdown(); // nothing more is read, nor sent from the batch
        IoRegistration r = takeRegistration();
        if (r != null) {
            r.cancel();
        }
        Runnable free = () -> {
            batch.close();
            socket.close();
        };
        if (loop.inEventLoop()) {
            free.run();
            return;
        }
        try {
            // after the cancel, which runs as a task there: nothing reads the socket any more
            loop.submit(free).awaitUninterruptibly(2, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            free.run(); // the loop has ended
        }
    }

    // ------------------------------------------------------------------ the loop's side

    /** Loop thread: the socket is readable. */
    private void ready() {
        for (int round = 0; round < BATCHES_PER_WAKE && !socket.isShut(); round++) {
            // answers waiting for the end of the round (to an address of their own, no received
            // slot) may wait through a receive: they leave with this batch's
            int n = batch.receiveReady();
            if (n < 0) {
                receiveError();
                return;
            }
            if (n == 0) {
                return;
            }
            receiveErrors = 0;
            datagramsRead += n;
            if (n == BATCH) {
                fullReads++;
            }
            inBurst = true;
            try {
                for (int i = 0; i < n; i++) {
                    one(i);
                }
            } finally {
                current = -1;
                currentSender = null;
                inBurst = false;
            }
            try {
                receiver.burstEnd(this);
            } catch (RuntimeException e) {
                receiverErrors.increment();
                LOG.log(Level.WARNING, "UDP receiver on " + socket.localAddress() + " failed at the end of a burst", e);
            }
            // the batch's answers name its received slots: they leave before the next receive
            flush();
            if (n < BATCH) {
                return;
            }
        }
    }

    private void one(int i) {
        try {
            InetSocketAddress sender = batch.sender(i);
            if (sender == null) {
                return;
            }
            current = i;
            currentSender = sender;
            int len = batch.length(i);
            batch.copy(i, scratch, len);
            receiver.datagram(this, scratch, len, sender, knowsDestination() ? batch.destination(i) : null,
                    batch.truncated(i));
        } catch (RuntimeException e) {
            receiverErrors.increment();
            LOG.log(Level.WARNING, "UDP receiver on " + socket.localAddress() + " failed", e);
        }
    }

    /**
     * A receive error: logged once, told to the receiver; a lasting one must not spin the loop,
     * so the socket is unwatched for a millisecond (not a protocol timer) and watched again.
     */
    private void receiveError() {
        if (receiveErrors++ == 0) {
            LOG.log(Level.WARNING, "UDP receive on " + socket.localAddress() + " failed: " + batch.error());
        }
        try {
            receiver.receiveFailed(this, new NetError(batch.errno(), batch.error(), null));
        } catch (RuntimeException x) {
            receiverErrors.increment();
        }
        IoRegistration r;
        synchronized (this) {
            r = registration;
        }
        if (r != null && receiveErrors > 1) {
            r.submit(EpollIoOps.NONE);
            loop.schedule(() -> {
                IoRegistration again;
                synchronized (this) {
                    again = registration;
                }
                if (again != null && again.isValid()) {
                    again.submit(EpollIoOps.EPOLLIN);
                }
            }, 1, TimeUnit.MILLISECONDS);
        }
    }

    /** The socket as Netty's epoll loop sees it. */
    private final class Watch implements EpollIoHandle {
        private final FileDescriptor fd = new FileDescriptor(socket.descriptor());

        @Override
        public FileDescriptor fd() {
            return fd;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            try {
                ready();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, "UDP reads on " + socket.localAddress() + " failed", e);
            }
        }

        @Override
        public void close() {
            // the loop is ending: the endpoint's owner closes the socket
        }
    }
}
