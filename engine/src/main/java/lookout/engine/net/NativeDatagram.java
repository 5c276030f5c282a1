package lookout.engine.net;

import java.io.IOException;
import java.lang.ref.Reference;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A UDP socket read and written as gdnsd reads and writes its own: a thread blocked in
 * {@code recvmmsg(MSG_WAITFORONE)} on preallocated memory, answers leaving in one
 * {@code sendmmsg}; no selector, no per-datagram objects. Linux only, through the engine's own JNI
 * library ({@code liblookoutnet.so}, {@code engine/src/main/c/lookout_net.c}; {@link NativeLibrary}
 * finds and loads it). {@link Transport#nativeDatagramsUnavailable} says whether it can be used;
 * nothing calls this class before that says yes (docs/adr/0002-native-datagrams.md).
 *
 * <p>Memory: each {@link Batch} allocates direct buffers once — datagrams in, answers out, and
 * the records this class reads and writes — and the C side lays out the kernel's structures
 * ({@code mmsghdr}, {@code iovec}, {@code sockaddr}, control messages) over them in a state
 * buffer of its own. A receive or a flush is then one JNI call, with no allocation and no array
 * pinning. Java never touches a kernel structure: it sees records of its own layout
 * ({@code ADDRESS}, {@code RECEIVED}, {@code QUEUED} below), which the C side checks against its
 * structs when it is compiled (javac -h hands it these constants).
 *
 * <p>Errors: the C side reads {@code errno} right at the call that failed and hands it back as a
 * negative result, or in a thrown {@link NetError.NativeIoError}; its words ({@code strerror})
 * are for people only.
 *
 * <p>Threads: {@link Batch} is confined to the one thread that reads the socket (or, made shared,
 * used by one thread at a time); {@link #sendTo} may be called from any thread (it has its own
 * memory, under a lock); {@link #shutdown} wakes the reader (Linux wakes a blocked receive on an
 * unconnected UDP socket shut down) and {@link #close} frees the descriptor once the reader is gone.
 */
public final class NativeDatagram implements AutoCloseable {

    /** The version of the Java–C contract: the library must say the same ({@link #abi()}). */
    static final int ABI = 5;

    // An address record: family (4, 6; 0 for none), port, scope, then 16 bytes (IPv4: the first 4).
    static final int ADDRESS = 32;
    static final int ADDRESS_FAMILY = 0;
    static final int ADDRESS_PORT = 4;
    static final int ADDRESS_SCOPE = 8;
    static final int ADDRESS_BYTES = 16;
    // What a receive says about each datagram.
    static final int RECEIVED = 72;
    static final int RECEIVED_LENGTH = 0;
    static final int RECEIVED_TRUNCATED = 4;
    static final int RECEIVED_SENDER = 8;
    static final int RECEIVED_DESTINATION = 40;
    // Each queued answer: its bytes in the out buffer, where it goes, where it leaves from.
    static final int QUEUED = 80;
    static final int QUEUED_OFFSET = 0;
    static final int QUEUED_LENGTH = 4;
    static final int QUEUED_TO = 8;
    static final int QUEUED_FROM = 12;
    static final int QUEUED_ADDRESS = 16;
    static final int QUEUED_VIA = 48;
    /** {@code QUEUED_TO}: to the address record, not to a received datagram's sender. */
    static final int TO_ADDRESS = -1;
    /** {@code QUEUED_FROM}: from the via record; or from the kernel's choice. */
    static final int FROM_VIA = -1;
    static final int FROM_KERNEL = -2;

    // Linux's numbers for the options the tests read back (the C side checks them against its headers)
    static final int SOL_SOCKET = 1;
    static final int SO_RCVBUF = 8;
    static final int SOL_IP = 0;
    static final int SOL_IPV6 = 41;
    static final int IP_MTU_DISCOVER = 10;
    static final int IPV6_MTU_DISCOVER = 23;
    static final int PMTUDISC_OMIT = 5;
    static final int EINTR = 4;
    static final int EAGAIN = 11;

    /** Datagrams one receive takes and answers one send gives at most (gdnsd's batch). */
    public static final int BATCH = 16;
    /** Room for queued answers: two of the largest, far more of the usual ones. */
    private static final int OUT_BYTES = 2 * 65536;
    /** Room for one datagram sent by {@link #sendTo}. */
    private static final int SEND_BYTES = 65536;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final int fd;
    private final boolean inet6;
    private final InetSocketAddress local;
    /**
     * Bound to a wildcard address: every datagram's destination is read ({@code IP_PKTINFO},
     * {@code IPV6_RECVPKTINFO}) and its answers leave from it. Without it the kernel picks the
     * source by route, and on a host with several addresses a client that asked one of them gets
     * its answer from another — and drops it (gdnsd does the same, dnsio_udp.c).
     */
    private final boolean pktinfo;
    /** {@link #sendTo}'s memory: a queue of one; guarded by {@code this}. */
    private final Batch sender;
    private volatile boolean shut;
    /** Set under {@code this} before the descriptor is closed: nothing is sent on it after. */
    private volatile boolean closed;

    private NativeDatagram(int fd, boolean inet6, InetSocketAddress local, boolean pktinfo) {
        this.fd = fd;
        this.inet6 = inet6;
        this.local = local;
        this.pktinfo = pktinfo;
        this.sender = new Batch(0, 1, SEND_BYTES);
    }

    /** {@link #bind}'s {@code share}: {@code SO_REUSEPORT}, shared with this process's sockets (gdnsd's udp_threads). */
    public static final int SHARE_PORT = 1;
    /** {@code SO_REUSEADDR}: the port shared with other processes (PVA's broadcast port, seed 002 §5). */
    public static final int SHARE_ADDRESS = 2;
    /** {@code SO_BROADCAST}: may send to broadcast addresses. */
    public static final int SHARE_BROADCAST = 4;

    /**
     * A UDP socket bound to {@code address} (port 0: the kernel picks one), {@code share} any of
     * {@link #SHARE_PORT}, {@link #SHARE_ADDRESS} and {@link #SHARE_BROADCAST}. An IPv6 address
     * takes IPv4 clients too where the system does (mapped). A failure throws a
     * {@link NetError.NativeIoError} with its errno (EADDRINUSE for a port taken, EACCES for a
     * privileged one ...).
     */
    public static NativeDatagram bind(InetSocketAddress address, int share, int receiveBuffer) throws IOException {
        InetAddress a = address.getAddress();
        if (a == null) {
            throw new IOException("cannot bind to an unresolved address: " + address);
        }
        byte[] want = new byte[ADDRESS];
        writeAddress(ByteBuffer.wrap(want).order(NATIVE), 0, a, address.getPort());
        byte[] got = new byte[ADDRESS];
        boolean wildcard = a.isAnyLocalAddress();
        int fd = openSocket(want, share, receiveBuffer, wildcard, got);
        try {
            InetSocketAddress bound = readAddress(ByteBuffer.wrap(got).order(NATIVE), 0);
            if (bound == null) {
                throw new IOException("getsockname gave no address for " + address);
            }
            return new NativeDatagram(fd, a instanceof Inet6Address, bound, wildcard);
        } catch (IOException | RuntimeException | Error e) {
            closeSocket(fd);
            throw e;
        }
    }

    /** The descriptor, for a loop that watches it. */
    int descriptor() {
        return fd;
    }

    /** An integer socket option's value as the kernel reports it (tests); -1 when it will not say. */
    int intOption(int level, int option) {
        return closed ? -1 : socketOption(fd, level, option);
    }

    /**
     * The receive buffer as the kernel keeps it ({@code SO_RCVBUF} read back: twice what was asked,
     * within {@code net.core.rmem_max} unless the process may exceed it); -1 when it will not say.
     */
    public int receiveBuffer() {
        return intOption(SOL_SOCKET, SO_RCVBUF);
    }

    /** Datagrams the kernel dropped on this socket, ever (a full receive buffer); -1 when unknown. */
    public long receiveDrops() {
        if (closed) {
            return -1;
        }
        long n = receiveDrops(fd);
        return n < 0 ? -1 : n;
    }

    /** The address bound (the port the kernel chose for port 0). */
    public InetSocketAddress localAddress() {
        return local;
    }

    /**
     * Sends one datagram from any thread ({@code sendmmsg} of one), from the local address
     * {@code via} names ({@link Batch#via}; null: the kernel's choice); false when the kernel
     * refused it (a full send buffer, an unreachable address: UDP's loss, counted by the caller;
     * {@link #sendErrno()} says why).
     */
    public synchronized boolean sendTo(byte[] data, int length, InetSocketAddress to, byte[] via) {
        if (closed || length > SEND_BYTES) {
            return false;
        }
        long before = sender.sendErrors;
        sender.answer(to, via, data, length);
        sender.flush();
        return sender.sendErrors == before;
    }

    /** {@link #sendTo(byte[], int, InetSocketAddress, byte[])} from the kernel's choice of address. */
    public boolean sendTo(byte[] data, int length, InetSocketAddress to) {
        return sendTo(data, length, to, null);
    }

    /** The errno of the last datagram {@link #sendTo} could not send (0: none yet, or not the kernel's refusal). */
    public synchronized int sendErrno() {
        return sender.sendErrno;
    }

    /**
     * What makes a datagram leave from {@code source} ({@code IP_PKTINFO} with
     * {@code ipi_spec_dst}, or {@code IPV6_PKTINFO}), in the form {@link #sendTo} and
     * {@link Batch#answer(InetSocketAddress, byte[], byte[], int)} take; null for a wildcard source
     * or one of a family this socket does not send from, or a socket not bound to a wildcard address
     * (its source is its address). The bytes are this class's own address record, for it alone.
     */
    public byte[] via(InetAddress source) {
        if (!pktinfo || source == null || source.isAnyLocalAddress()) {
            return null;
        }
        byte[] a = source.getAddress();
        if (a.length == 16 && isMappedV4(a)) {
            a = Arrays.copyOfRange(a, 12, 16);
        }
        if (a.length == 16 && !inet6) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(ADDRESS).order(NATIVE);
        b.putInt(ADDRESS_FAMILY, a.length == 4 ? 4 : 6);
        // IPv4: no interface, the route decides; IPv6: the address's own (link-local needs it)
        b.putInt(ADDRESS_SCOPE, a.length == 16 && source instanceof Inet6Address s6 ? s6.getScopeId() : 0);
        b.put(ADDRESS_BYTES, a);
        return b.array();
    }

    private static boolean isMappedV4(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == -1 && a[11] == -1;
    }

    /** Wakes the reader (its receive returns 0) and makes every later receive return at once. */
    public void shutdown() {
        shut = true;
        synchronized (this) {
            if (!closed) {
                shutdownSocket(fd); // ENOTCONN on an unconnected socket, and the reader wakes all the same
            }
        }
    }

    /** Frees the descriptor: after the reader thread has ended. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        shut = true;
        closed = true;
        closeSocket(fd);
        sender.close();
    }

    /** Whether {@link #shutdown} was called. */
    public boolean isShut() {
        return shut;
    }

    /** An errno as an operator reads it: the host's words for it, and its number. */
    /** The most sources {@link #dropFrom} takes (the C side's program size). */
    static final int FILTER_SOURCES = 32;

    /**
     * Makes the kernel drop, on socket {@code fd}, every IPv4 datagram sent from one of
     * {@code sources} (a classic BPF socket filter on the source address and UDP source port),
     * replacing any filter there; an empty list removes it. Null when done, else why not (an IPv6
     * source, too many, the kernel's refusal with its errno). The library must be loaded
     * ({@link Transport#nativeDatagramsUnavailable()} null).
     */
    static String dropFrom(int fd, java.util.List<InetSocketAddress> sources) {
        if (sources.size() > FILTER_SOURCES) {
            return "more than " + FILTER_SOURCES + " sources";
        }
        int[] addresses = new int[sources.size()];
        int[] ports = new int[sources.size()];
        for (int i = 0; i < addresses.length; i++) {
            InetSocketAddress a = sources.get(i);
            if (!(a.getAddress() instanceof java.net.Inet4Address v4)) {
                return "the filter takes IPv4 sources only (" + a + ")";
            }
            byte[] b = v4.getAddress();
            addresses[i] = (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
            ports[i] = a.getPort();
        }
        int r = filterSources(fd, addresses, ports, addresses.length);
        return r == 0 ? null : "the kernel refused the socket filter: " + describe(-r);
    }

    static String describe(int errno) {
        return errnoText(errno) + " (errno " + errno + ")";
    }

    /** Writes {@code a} and {@code port} as an address record at {@code at}. */
    private static void writeAddress(ByteBuffer b, int at, InetAddress a, int port) {
        byte[] raw = a.getAddress();
        b.putInt(at + ADDRESS_FAMILY, raw.length == 4 ? 4 : 6);
        b.putInt(at + ADDRESS_PORT, port);
        b.putInt(at + ADDRESS_SCOPE, a instanceof Inet6Address i6 ? i6.getScopeId() : 0);
        b.put(at + ADDRESS_BYTES, raw);
    }

    /** The address record at {@code at}; null for no address or another family. */
    private static InetSocketAddress readAddress(ByteBuffer b, int at) {
        int family = b.getInt(at + ADDRESS_FAMILY);
        int port = b.getInt(at + ADDRESS_PORT);
        try {
            if (family == 4) {
                byte[] raw = new byte[4];
                b.get(at + ADDRESS_BYTES, raw);
                return new InetSocketAddress(InetAddress.getByAddress(raw), port);
            }
            if (family == 6) {
                byte[] raw = new byte[16];
                b.get(at + ADDRESS_BYTES, raw);
                int scope = b.getInt(at + ADDRESS_SCOPE);
                // an IPv4 client on a dual-stack socket (::ffff:a.b.c.d) comes out as Inet4Address
                InetAddress a = InetAddress.getByAddress(raw);
                if (a instanceof Inet6Address && scope != 0) {
                    a = Inet6Address.getByAddress(null, raw, scope);
                }
                return new InetSocketAddress(a, port);
            }
        } catch (UnknownHostException e) {
            return null; // cannot happen for 4 or 16 bytes
        }
        return null;
    }

    /**
     * A reader's memory: {@link #BATCH} datagrams in (a slot each, with the sender and, on a
     * wildcard address, the destination), up to {@link #BATCH} answers out (up to 65 535 bytes
     * each, packed one after the other in 128 KiB). Confined to the thread that made it, unless
     * made shared (an outbox; its users take turns).
     */
    public final class Batch implements AutoCloseable {
        private final int slot;
        private final int count;
        /** The C side's kernel structures, and their address (the JNI calls' handle). */
        private final ByteBuffer state;
        private final long handle;
        private final ByteBuffer inData;
        private final ByteBuffer received;
        private final ByteBuffer outData;
        private final ByteBuffer queuedRecords;
        /** Bytes of {@link #outData} the queued answers take: they lie one after the other. */
        private int outUsed;
        private int queued;
        /** Senders seen lately, by port and IPv4 address: one long compare, no objects. */
        private final long[] senderKeys = new long[64];
        private final InetSocketAddress[] senders = new InetSocketAddress[64];
        /** Answers the kernel would not send (or that could not be queued). */
        private long sendErrors;
        /** The errno of the last failed receive, and of the last answer the kernel refused. */
        private int receiveErrno;
        private int sendErrno;
        private boolean released;

        /**
         * A reader's batch, confined to the calling thread.
         *
         * @param slot the largest datagram kept whole (longer ones arrive cut, flagged {@link #truncated(int)})
         */
        public Batch(int slot) {
            this(slot, false);
        }

        /**
         * @param slot   as above
         * @param shared usable from any thread, one at a time (the caller serialises): an outbox
         *               for answers given off the reader thread
         */
        public Batch(int slot, boolean shared) {
            this(slot, BATCH, OUT_BYTES);
        }

        /**
         * A reader's batch of {@code count} datagrams in and answers out rather than
         * {@link #BATCH} (a socket read on an event loop takes more at a time), confined to the
         * calling thread.
         */
        Batch(int slot, int count) {
            this(slot, count, OUT_BYTES);
        }

        private Batch(int slot, int count, int outBytes) {
            this.slot = slot;
            this.count = count;
            inData = slot > 0 ? ByteBuffer.allocateDirect(count * slot) : null;
            received = ByteBuffer.allocateDirect(count * RECEIVED).order(NATIVE);
            outData = ByteBuffer.allocateDirect(outBytes);
            queuedRecords = ByteBuffer.allocateDirect(count * QUEUED).order(NATIVE);
            state = ByteBuffer.allocateDirect(stateSize(count));
            handle = batchInit(state, count, slot, inData, received, outData, queuedRecords, inet6, pktinfo);
        }

        /**
         * Blocks until at least one datagram is there and takes up to {@link #BATCH}; 0 once the
         * socket is shut down; -1 on an error ({@link #errno()}; interrupted calls are retried here).
         */
        public int receive() {
            if (released || slot == 0) {
                return 0;
            }
            try {
                while (!shut) {
                    int n = receiveBatch(handle, fd);
                    if (n >= 0) {
                        return shut ? 0 : n;
                    }
                    if (n != -EINTR) {
                        receiveErrno = -n;
                        return -1;
                    }
                }
                return 0;
            } finally {
                Reference.reachabilityFence(this); // the buffers live at least as long as the call
            }
        }

        /**
         * Takes what is there now, up to {@link #BATCH}, without waiting: for a socket an event
         * loop watches ({@code recvmmsg} with {@code MSG_DONTWAIT}). 0 when there is nothing (or
         * the socket is shut down); -1 on an error ({@link #errno()}).
         */
        public int receiveReady() {
            if (released || slot == 0 || shut) {
                return 0;
            }
            try {
                int n;
                do {
                    n = receiveNow(handle, fd);
                } while (n == -EINTR);
                if (n >= 0) {
                    return n;
                }
                if (n == -EAGAIN) {
                    return 0;
                }
                receiveErrno = -n;
                return -1;
            } finally {
                Reference.reachabilityFence(this);
            }
        }

        /** The error of the last failed {@link #receive}, for the log. */
        public String error() {
            return describe(receiveErrno);
        }

        /** The errno of the last failed {@link #receive}. */
        public int errno() {
            return receiveErrno;
        }

        /** The length of datagram {@code i} (at most the slot size). */
        public int length(int i) {
            return Math.min(received.getInt(i * RECEIVED + RECEIVED_LENGTH), slot);
        }

        /** Whether datagram {@code i} was longer than its slot and arrived cut. */
        public boolean truncated(int i) {
            return received.getInt(i * RECEIVED + RECEIVED_TRUNCATED) != 0;
        }

        /** Copies datagram {@code i}'s first {@code length} bytes into {@code to}. */
        public void copy(int i, byte[] to, int length) {
            inData.get(i * slot, to, 0, length);
        }

        /** The sender of datagram {@code i} (null for a family this socket does not speak). */
        public InetSocketAddress sender(int i) {
            int at = i * RECEIVED + RECEIVED_SENDER;
            if (received.getInt(at + ADDRESS_FAMILY) == 4) {
                // dnsperf-like clients send bursts from few ports: one long compare, no objects
                long key = ((long) received.getInt(at + ADDRESS_PORT) << 32)
                        | (received.getInt(at + ADDRESS_BYTES) & 0xFFFF_FFFFL);
                int h = (int) (key ^ (key >>> 29) ^ (key >>> 41)) & 63;
                InetSocketAddress s = senders[h];
                if (s != null && senderKeys[h] == key) {
                    return s;
                }
                s = readAddress(received, at);
                senders[h] = s;
                senderKeys[h] = key;
                return s;
            }
            return readAddress(received, at);
        }

        /**
         * Queues an answer to datagram {@code i}'s sender (its own name, no encoding), from the
         * address the datagram was sent to where the socket knows it, sending the queue first when full.
         */
        public void answer(int i, byte[] data, int length) {
            if (!room(length)) {
                return;
            }
            int q = queued * QUEUED;
            queuedRecords.putInt(q + QUEUED_TO, i);
            queuedRecords.putInt(q + QUEUED_FROM, pktinfo ? i : FROM_KERNEL);
            queue(data, length);
        }

        /** Queues an answer to any address, from the kernel's choice of address. */
        public void answer(InetSocketAddress to, byte[] data, int length) {
            answer(to, null, data, length);
        }

        /**
         * Queues an answer to any address, from the local address {@code via} names ({@link #via};
         * null: the kernel's choice). An address the socket cannot reach (IPv6 from an IPv4
         * socket) is the kernel's to refuse, with its errno, when the queue is sent.
         */
        public void answer(InetSocketAddress to, byte[] via, byte[] data, int length) {
            if (to == null || to.getAddress() == null) {
                sendErrors++;
                return;
            }
            if (!room(length)) {
                return;
            }
            int q = queued * QUEUED;
            queuedRecords.putInt(q + QUEUED_TO, TO_ADDRESS);
            writeAddress(queuedRecords, q + QUEUED_ADDRESS, to.getAddress(), to.getPort());
            if (via != null && via.length == ADDRESS) {
                queuedRecords.put(q + QUEUED_VIA, via);
                queuedRecords.putInt(q + QUEUED_FROM, FROM_VIA);
            } else {
                queuedRecords.putInt(q + QUEUED_FROM, FROM_KERNEL);
            }
            queue(data, length);
        }

        /**
         * The address datagram {@code i} was sent to ({@code ipi_addr}: a broadcast or group
         * address as such), or null when the socket is not on a wildcard address or the datagram
         * came without it.
         */
        public InetAddress destination(int i) {
            if (!pktinfo) {
                return null;
            }
            int at = i * RECEIVED + RECEIVED_DESTINATION;
            int family = received.getInt(at + ADDRESS_FAMILY);
            if (family != 4 && family != 6) {
                return null;
            }
            byte[] a = new byte[family == 4 ? 4 : 16];
            received.get(at + ADDRESS_BYTES, a);
            try {
                return InetAddress.getByAddress(a);
            } catch (UnknownHostException e) {
                return null; // cannot happen for 4 or 16 bytes
            }
        }

        /**
         * What makes an answer to datagram {@code i} leave from the address it was sent to, for
         * an answer given later or elsewhere ({@link #answer(InetSocketAddress, byte[], byte[], int)},
         * {@link NativeDatagram#sendTo(byte[], int, InetSocketAddress, byte[])}); null when the socket is
         * not on a wildcard address or the datagram said nothing.
         */
        public byte[] via(int i) {
            if (!pktinfo) {
                return null;
            }
            int at = i * RECEIVED + RECEIVED_DESTINATION;
            int family = received.getInt(at + ADDRESS_FAMILY);
            if (family != 4 && family != 6) {
                return null;
            }
            byte[] b = new byte[ADDRESS];
            received.get(at, b);
            return b;
        }

        /** Makes room in the queue for an answer of {@code length} bytes; false (counted) when none can be. */
        private boolean room(int length) {
            if (length < 0 || length > 65535 || length > outData.capacity() || released) {
                sendErrors++;
                return false;
            }
            if (queued == count || outUsed + length > outData.capacity()) {
                flush();
            }
            return true;
        }

        private void queue(byte[] data, int length) {
            // answers packed one after the other (the callers made room): a burst of small answers
            // touches a page or two
            outData.put(outUsed, data, 0, length);
            int q = queued * QUEUED;
            queuedRecords.putInt(q + QUEUED_OFFSET, outUsed);
            queuedRecords.putInt(q + QUEUED_LENGTH, length);
            outUsed += length;
            queued++;
        }

        /**
         * Sends what is queued ({@code sendmmsg}, again past a datagram the kernel refused, so one
         * bad address loses one answer); the queue is empty afterwards.
         */
        public void flush() {
            if (queued == 0) {
                return;
            }
            try {
                if (released || closed) {
                    sendErrors += queued; // never sent on a descriptor that may be another socket's now
                    return;
                }
                long r = sendBatch(handle, fd, queued);
                int refused = (int) (r >>> 32);
                if (refused > 0) {
                    sendErrors += refused;
                    sendErrno = (int) r;
                }
            } finally {
                queued = 0;
                outUsed = 0;
                Reference.reachabilityFence(this);
            }
        }

        /** Answers the kernel would not send, ever. */
        public long sendErrors() {
            return sendErrors;
        }

        /** The errno of the last answer the kernel refused (0: none). */
        public int sendErrno() {
            return sendErrno;
        }

        /** Ends the batch: later receives return 0 and later answers are dropped (counted). */
        @Override
        public void close() {
            released = true;
        }
    }

    // ------------------------------------------------------------------ liblookoutnet.so

    /** The library's {@link #ABI}. */
    static native int abi();

    /** strerror's words for {@code errno}, in the host's language. */
    private static native String errnoText(int errno);

    /**
     * socket, options, bind, getsockname: the descriptor; the bound address written to
     * {@code bound}. Throws {@link NetError.NativeIoError} (and closes the socket) on any failure.
     */
    private static native int openSocket(byte[] address, int share, int receiveBuffer, boolean wildcard,
                                         byte[] bound) throws IOException;

    private static native int socketOption(int fd, int level, int option);

    /** The socket's sk_drops (SO_MEMINFO), or -errno. */
    private static native long receiveDrops(int fd);

    /**
     * Attaches a socket filter dropping IPv4 datagrams from the {@code count} (address, port)
     * pairs, host order ({@code count} 0: detaches): 0, or -errno.
     */
    private static native int filterSources(int fd, int[] addresses, int[] ports, int count);

    private static native int shutdownSocket(int fd);

    private static native int closeSocket(int fd);

    private static native int stateSize(int count);

    private static native long batchInit(ByteBuffer state, int count, int slot, ByteBuffer inData, ByteBuffer received,
                                         ByteBuffer outData, ByteBuffer queued, boolean inet6, boolean pktinfo);

    /** recvmmsg: how many datagrams, or -errno. */
    private static native int receiveBatch(long batch, int fd);

    /** recvmmsg without waiting: how many datagrams, or -errno (-EAGAIN: none). */
    private static native int receiveNow(long batch, int fd);

    /** sendmmsg of the first {@code queued} answers: refused answers (high 32 bits), last errno (low). */
    private static native long sendBatch(long batch, int fd, int queued);
}
