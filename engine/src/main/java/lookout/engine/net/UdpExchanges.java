package lookout.engine.net;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Query-and-reply exchanges over UDP, each on a connected socket of its own — the resolver's
 * upstream transactions, for which seed 000 wants a fresh socket each (the kernel then takes
 * replies from the server alone, and an ICMP refusal shows on the socket at once) — opened, read
 * and closed natively ({@code liblookoutnet.so}), their sockets watched by one epoll set of this
 * class's own, which sits as a single descriptor on a Netty epoll loop (Netty 4.2's
 * {@link EpollIoHandle}).
 *
 * <p>What that saves against a Netty channel per exchange (docs/adr/0005-upstream-sockets.md):
 * opening is one JNI call making four system calls ({@code socket}, {@code connect},
 * {@code epoll_ctl}, {@code send}) where a channel made eleven (registration, {@code getsockname},
 * {@code getpeername}, option reads and three more {@code epoll_ctl}s); the replies of one wake-up
 * are read in one call ({@code epoll_wait} and a {@code recv} each, no second read to learn the
 * socket is empty); closing is a {@code close}, which also leaves the set. No channel, pipeline,
 * promise or buffer per exchange.
 *
 * <p>Exchanges are named by an {@code int}: a slot and a generation, so that a name closed and
 * given again never reaches the newer exchange. At most {@value #MAX_OPEN} are open at once.
 *
 * <p>Concurrency: every method and the readiness callback take this object's lock, which the
 * loop's thread already holds when it delivers; in the engine they are all the same thread (the
 * engine loop is the I/O loop), so the lock is never contended. {@link Receiver} methods run on
 * the loop's thread inside the lock, and may open and close exchanges.
 */
public final class UdpExchanges implements AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.net.udp");

    // A record per datagram a poll read (the C side's struct lk_exchange).
    static final int RECORD = 24;
    static final int RECORD_HANDLE = 0;
    static final int RECORD_OFFSET = 4;
    static final int RECORD_LENGTH = 8;
    static final int RECORD_TRUNCATED = 12;
    static final int RECORD_ERROR = 16;
    /** The address record that leads the out buffer (NativeDatagram's layout). */
    static final int ADDRESS = 32;
    // What failed when an exchange could not be opened.
    static final int PHASE_SOCKET = 1;
    static final int PHASE_CONNECT = 2;
    static final int PHASE_WATCH = 3;
    static final int PHASE_SEND = 4;

    /** Exchanges open at once, at most (the resolver's in-flight ceiling is 4 096). */
    public static final int MAX_OPEN = 1 << 16;
    /** Ready sockets one poll takes; level-triggered, so the rest come at the next. */
    private static final int EVENTS = 256;
    /** Polls per wake-up before the loop gets back to its other work. */
    private static final int POLLS_PER_WAKE = 4;
    /** Where one poll's datagrams land, packed: at least 64 KiB of room for each. */
    private static final int IN_BYTES = 512 * 1024;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    /** What the exchanges' sockets bring, on the loop's thread. */
    public interface Receiver {
        /**
         * A datagram on {@code exchange}'s socket (from its peer alone: the socket is connected):
         * {@code data[0, length)}, the receiver's to keep; {@code truncated} when it was longer
         * than 64 KiB.
         */
        void datagram(int exchange, Object attachment, byte[] data, int length, boolean truncated);

        /** A receive error on {@code exchange}'s socket: {@code ECONNREFUSED} after an ICMP refusal. */
        void failed(int exchange, Object attachment, NetError error);
    }

    private final int set;
    private final EventLoop loop;
    private final Receiver receiver;
    private final ByteBuffer out = ByteBuffer.allocateDirect(ADDRESS + 65536).order(NATIVE);
    private final ByteBuffer events;
    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_BYTES);
    private final ByteBuffer records = ByteBuffer.allocateDirect(EVENTS * RECORD).order(NATIVE);
    private final byte[] addressScratch = new byte[ADDRESS];
    // the slot table, under this lock
    private int[] fds = new int[256];
    private int[] generations = new int[256];
    private Object[] attachments = new Object[256];
    private int[] free = new int[256];
    private int freeCount;
    private int used;
    private int open;
    private boolean closed;
    private IoRegistration registration;
    private long pollErrors;

    private UdpExchanges(int set, EventLoop loop, Receiver receiver) {
        this.set = set;
        this.loop = loop;
        this.receiver = receiver;
        this.events = ByteBuffer.allocateDirect(EVENTS * eventSize());
    }

    /**
     * Why exchanges cannot be watched from a loop of {@code group} (its transport is not epoll, or
     * the native library did not load), or null when they can. Never throws.
     */
    public static String unavailable(EventLoopGroup group) {
        if (Transport.of(group) != Transport.EPOLL) {
            return "the engine loop is not on the epoll transport";
        }
        return NativeLibrary.unavailable();
    }

    /**
     * A set of exchanges watched from {@code loop} (an epoll loop: see {@link #unavailable}),
     * registered there before this returns; {@code receiver} gets what their sockets bring.
     */
    public static UdpExchanges open(EventLoop loop, Receiver receiver) throws IOException {
        String why = unavailable(loop);
        if (why != null) {
            throw new IOException("UDP exchanges cannot be opened natively: " + why);
        }
        int fd = epollCreate();
        if (fd < 0) {
            throw new NetError.NativeIoError("epoll_create1: " + NativeDatagram.describe(-fd), -fd, null);
        }
        UdpExchanges x = new UdpExchanges(fd, loop, receiver);
        try {
            io.netty.util.concurrent.Future<IoRegistration> f = ((IoEventLoop) loop).register(x.new Watch());
            if (!f.awaitUninterruptibly(10, TimeUnit.SECONDS) || !f.isSuccess()) {
                throw new IOException("UDP exchanges could not be watched from the loop: " + f.cause(), f.cause());
            }
            IoRegistration r = f.getNow();
            r.submit(EpollIoOps.EPOLLIN); // level-triggered: a poll that leaves sockets ready is called again
            synchronized (x) {
                x.registration = r;
            }
        } catch (IOException | RuntimeException e) {
            closeDescriptor(fd);
            throw e;
        }
        return x;
    }

    /**
     * Opens an exchange with {@code to}: a socket connected to it (an ephemeral port the kernel
     * picks at random), watched, and {@code data[0, length)} sent on it. Returns the exchange's
     * name; a failure throws {@link NetError.NativeIoError} with its errno (nothing stays open):
     * EMFILE, ENOBUFS and the like are this host's, ENETUNREACH the route's.
     */
    public synchronized int open(InetSocketAddress to, byte[] data, int length, Object attachment) throws IOException {
        if (closed) {
            throw new NetError.NativeIoError("UDP exchanges closed", NetError.EBADF, null);
        }
        if (open >= MAX_OPEN) {
            throw new NetError.NativeIoError("more than " + MAX_OPEN + " UDP exchanges open", NetError.ENOBUFS, null);
        }
        if (length < 0 || length > 65535 || to.getAddress() == null) {
            throw new IllegalArgumentException("a datagram of " + length + " bytes to " + to);
        }
        int slot = take();
        int handle = (generations[slot] << 16) | slot;
        byte[] raw = to.getAddress().getAddress();
        Arrays.fill(addressScratch, (byte) 0);
        ByteBuffer a = ByteBuffer.wrap(addressScratch).order(NATIVE);
        a.putInt(NativeDatagram.ADDRESS_FAMILY, raw.length == 4 ? 4 : 6);
        a.putInt(NativeDatagram.ADDRESS_PORT, to.getPort());
        a.putInt(NativeDatagram.ADDRESS_SCOPE, to.getAddress() instanceof Inet6Address i6 ? i6.getScopeId() : 0);
        a.put(NativeDatagram.ADDRESS_BYTES, raw);
        out.put(0, addressScratch);
        out.put(ADDRESS, data, 0, length);
        long r = openExchange(set, out, length, handle);
        if (r < 0) {
            giveBack(slot);
            long code = -r;
            int errno = (int) (code & 0xFFFF);
            throw new NetError.NativeIoError(phase((int) (code >>> 16)) + ": " + NativeDatagram.describe(errno), errno, null);
        }
        fds[slot] = (int) r;
        attachments[slot] = attachment;
        open++;
        return handle;
    }

    /** Closes exchange {@code exchange}'s socket; nothing when it is closed already (its name is not given again). */
    public synchronized void close(int exchange) {
        int slot = exchange & 0xFFFF;
        if (slot >= used || generations[slot] != exchange >>> 16 || fds[slot] < 0) {
            return;
        }
        closeDescriptor(fds[slot]); // leaves the set too: nothing else holds the descriptor
        fds[slot] = -1;
        attachments[slot] = null;
        open--;
        giveBack(slot);
    }

    /** Exchanges open now. */
    public synchronized int openCount() {
        return open;
    }

    /** Polls that failed (a bug, or the set closed under the loop): logged once, counted. */
    public synchronized long pollErrors() {
        return pollErrors;
    }

    /** Closes every exchange and the set, unwatched first (on the loop, where Netty does it). Idempotent. */
    @Override
    public void close() {
        IoRegistration r;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            r = registration;
            registration = null;
            for (int slot = 0; slot < used; slot++) {
                if (fds[slot] >= 0) {
                    closeDescriptor(fds[slot]);
                    fds[slot] = -1;
                    attachments[slot] = null;
                }
            }
            open = 0;
        }
        if (r != null) {
            r.cancel();
        }
        // the set's own descriptor last, once Netty stopped watching it: off the loop, cancel runs
        // as a task there, and closing first would let a new descriptor of the same number meet
        // Netty's old entry; a task queued after it runs after it
        if (r == null || loop.inEventLoop()) {
            closeDescriptor(set);
            return;
        }
        try {
            loop.execute(() -> closeDescriptor(set));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            closeDescriptor(set); // the loop has ended: nothing watches the set any more
        }
    }

    // ------------------------------------------------------------------ slots

    private int take() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (used == fds.length) {
            int n = Math.min(MAX_OPEN, fds.length * 2);
            fds = Arrays.copyOf(fds, n);
            generations = Arrays.copyOf(generations, n);
            attachments = Arrays.copyOf(attachments, n);
            free = Arrays.copyOf(free, n);
        }
        int slot = used++;
        fds[slot] = -1;
        generations[slot] = 1;
        return slot;
    }

    private void giveBack(int slot) {
        // a new generation: a name given before never reaches the next exchange in this slot
        generations[slot] = generations[slot] == 0x7FFF ? 1 : generations[slot] + 1;
        free[freeCount++] = slot;
    }

    private static String phase(int p) {
        return switch (p) {
            case PHASE_SOCKET -> "socket";
            case PHASE_CONNECT -> "connect";
            case PHASE_WATCH -> "epoll_ctl";
            default -> "send";
        };
    }

    // ------------------------------------------------------------------ the loop's side

    /** Loop thread: the set is readable; reads what is there and hands it out. */
    private synchronized void ready() {
        for (int round = 0; round < POLLS_PER_WAKE && !closed; round++) {
            int n = pollExchanges(set, events, EVENTS, in, records);
            if (n < 0) {
                if (pollErrors++ == 0) {
                    LOG.log(Level.WARNING, "UDP exchanges: epoll_wait failed: " + NativeDatagram.describe(-n));
                }
                return;
            }
            for (int i = 0; i < n; i++) {
                deliver(i);
            }
            if (n < EVENTS) {
                return;
            }
        }
    }

    private void deliver(int i) {
        int at = i * RECORD;
        int handle = records.getInt(at + RECORD_HANDLE);
        int slot = handle & 0xFFFF;
        if (slot >= used || generations[slot] != handle >>> 16 || fds[slot] < 0) {
            return; // closed by an earlier delivery of this poll
        }
        Object attachment = attachments[slot];
        int error = records.getInt(at + RECORD_ERROR);
        try {
            if (error != 0) {
                receiver.failed(handle, attachment, new NetError(error, NativeDatagram.describe(error), null));
                return;
            }
            int length = records.getInt(at + RECORD_LENGTH);
            byte[] data = new byte[length];
            in.get(records.getInt(at + RECORD_OFFSET), data, 0, length);
            receiver.datagram(handle, attachment, data, length, records.getInt(at + RECORD_TRUNCATED) != 0);
        } catch (RuntimeException e) {
            // never out of the loop: one exchange's handling failed, the others go on
            LOG.log(Level.WARNING, "UDP exchange receiver failed", e);
        }
    }

    /** The set as Netty's epoll loop sees it: one descriptor, readable while any socket in it is. */
    private final class Watch implements EpollIoHandle {
        private final FileDescriptor fd = new FileDescriptor(set);

        @Override
        public FileDescriptor fd() {
            return fd;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            try {
                ready();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, "UDP exchanges: a poll failed", e);
            }
        }

        @Override
        public void close() {
            // the loop is ending: the owner closes the set (UdpExchanges.close)
        }
    }

    // ------------------------------------------------------------------ liblookoutnet.so

    private static native int epollCreate();

    private static native int eventSize();

    /** The descriptor, or -(phase << 16 | errno). */
    private static native long openExchange(int set, ByteBuffer out, int length, int handle);

    /** Records read into {@code records}, or -errno. */
    private static native int pollExchanges(int set, ByteBuffer events, int max, ByteBuffer in, ByteBuffer records);

    private static native int closeDescriptor(int fd);
}
