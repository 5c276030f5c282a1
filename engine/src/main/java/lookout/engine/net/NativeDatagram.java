package lookout.engine.net;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAccess;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;
import jdk.incubator.foreign.SymbolLookup;

/**
 * A UDP socket read and written as gdnsd reads and writes its own: a thread blocked in
 * {@code recvmmsg(MSG_WAITFORONE)} on preallocated native memory, answers leaving in one
 * {@code sendmmsg}; no selector, no per-datagram objects. Linux only, through Java 17's incubating
 * foreign-function API ({@code jdk.incubator.foreign}; the JVM needs
 * {@code --add-modules jdk.incubator.foreign --enable-native-access=lookout.engine}, which the
 * runtime image's launcher gives). {@link Transport#nativeDatagrams} says whether it is used;
 * nothing else touches this class before that, so without the module it is never loaded.
 *
 * <p>Threads: {@link Batch} is confined to the one thread that reads the socket;
 * {@link #sendTo} may be called from any thread (it has its own memory, under a lock);
 * {@link #shutdown} wakes the reader (Linux wakes a blocked receive on an unconnected UDP socket
 * shut down) and {@link #close} frees the descriptor once the reader is gone.
 *
 * <p>Structure layouts are those of LP64 Linux (x86-64 and AArch64 alike): {@code mmsghdr} 64
 * bytes ({@code msghdr} 56 + {@code msg_len} + padding), {@code iovec} 16, {@code sockaddr_in} 16,
 * {@code sockaddr_in6} 28.
 */
public final class NativeDatagram implements AutoCloseable {

    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVBUF = 8;
    private static final int SO_REUSEPORT = 15;
    static final int SOL_IP = 0;
    static final int SOL_IPV6 = 41;
    static final int IP_MTU_DISCOVER = 10;
    static final int IPV6_MTU_DISCOVER = 23;
    private static final int IPV6_MTU = 24;
    static final int PMTUDISC_OMIT = 5;
    private static final int IP_PKTINFO = 8;
    private static final int IPV6_RECVPKTINFO = 49;
    private static final int IPV6_PKTINFO = 50;
    /** Room for a datagram's control messages (one {@code in_pktinfo} or {@code in6_pktinfo}). */
    private static final int CONTROL = 64;
    /** {@code CMSG_SPACE} of an {@code in_pktinfo} (12 bytes) and of an {@code in6_pktinfo} (20). */
    private static final int VIA4 = 32;
    private static final int VIA6 = 40;
    private static final int PMTUDISC_DONT = 0;
    private static final int MSG_WAITFORONE = 0x10000;
    private static final int MSG_TRUNC = 0x20;
    /** Sends never block a reader: a full send buffer loses the answer (UDP's loss), as in gdnsd. */
    private static final int MSG_DONTWAIT = 0x40;
    private static final int SHUT_RDWR = 2;
    private static final int EINTR = 4;

    private static final int MMSGHDR = 64;
    private static final int IOVEC = 16;
    /** Room for a {@code sockaddr_in6}, 8-aligned. */
    private static final int NAME = 32;

    /** Datagrams one receive takes and answers one send gives at most (gdnsd's batch). */
    public static final int BATCH = 16;
    /** Room for queued answers: two of the largest, far more of the usual ones. */
    private static final int OUT_BYTES = 2 * 65536;

    private static final Functions F = new Functions();

    /** The C functions, looked up once: any failure here means the class cannot be used. */
    private static final class Functions {
        final MethodHandle socket;
        final MethodHandle setsockopt;
        final MethodHandle getsockopt;
        final MethodHandle bind;
        final MethodHandle getsockname;
        final MethodHandle recvmmsg;
        final MethodHandle sendmmsg;
        final MethodHandle sendmsg;
        final MethodHandle shutdown;
        final MethodHandle close;
        final MethodHandle errnoLocation;
        final MethodHandle strerror;

        Functions() {
            CLinker linker = CLinker.getInstance();
            SymbolLookup libc = CLinker.systemLookup();
            socket = handle(linker, libc, "socket", int.class, CLinker.C_INT, int.class, int.class, int.class);
            setsockopt = handle(linker, libc, "setsockopt", int.class, CLinker.C_INT,
                    int.class, int.class, int.class, MemoryAddress.class, int.class);
            getsockopt = handle(linker, libc, "getsockopt", int.class, CLinker.C_INT,
                    int.class, int.class, int.class, MemoryAddress.class, MemoryAddress.class);
            bind = handle(linker, libc, "bind", int.class, CLinker.C_INT, int.class, MemoryAddress.class, int.class);
            getsockname = handle(linker, libc, "getsockname", int.class, CLinker.C_INT,
                    int.class, MemoryAddress.class, MemoryAddress.class);
            recvmmsg = handle(linker, libc, "recvmmsg", int.class, CLinker.C_INT,
                    int.class, MemoryAddress.class, int.class, int.class, MemoryAddress.class);
            sendmmsg = handle(linker, libc, "sendmmsg", int.class, CLinker.C_INT,
                    int.class, MemoryAddress.class, int.class, int.class);
            sendmsg = handle(linker, libc, "sendmsg", long.class, CLinker.C_LONG, int.class, MemoryAddress.class, int.class);
            shutdown = handle(linker, libc, "shutdown", int.class, CLinker.C_INT, int.class, int.class);
            close = handle(linker, libc, "close", int.class, CLinker.C_INT, int.class);
            errnoLocation = handle(linker, libc, "__errno_location", MemoryAddress.class, CLinker.C_POINTER);
            strerror = handle(linker, libc, "strerror", MemoryAddress.class, CLinker.C_POINTER, int.class);
        }

        private static MethodHandle handle(CLinker linker, SymbolLookup libc, String name, Class<?> ret,
                                           jdk.incubator.foreign.MemoryLayout retLayout, Class<?>... args) {
            MemoryAddress symbol = libc.lookup(name).orElseThrow(() -> new UnsatisfiedLinkError("no " + name + " in libc"));
            jdk.incubator.foreign.MemoryLayout[] layouts = new jdk.incubator.foreign.MemoryLayout[args.length];
            for (int i = 0; i < args.length; i++) {
                layouts[i] = args[i] == int.class ? CLinker.C_INT : args[i] == long.class ? CLinker.C_LONG : CLinker.C_POINTER;
            }
            return linker.downcallHandle(symbol, MethodType.methodType(ret, args), FunctionDescriptor.of(retLayout, layouts));
        }
    }

    /** Throws when this JVM cannot call C here (no native access, not LP64 Linux, no libc symbol). */
    static void probe() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.equals("Linux") || !(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            throw new UnsupportedOperationException("native datagrams need Linux on x86-64 or AArch64, not " + os + " " + arch);
        }
        if (F.socket == null) {
            throw new IllegalStateException("no socket()");
        }
    }

    private final int fd;
    private final boolean inet6;
    private final InetSocketAddress local;
    private final ResourceScope scope = ResourceScope.newSharedScope();
    /**
     * Bound to a wildcard address: every datagram's destination is read ({@code IP_PKTINFO},
     * {@code IPV6_RECVPKTINFO}) and its answers leave from it. Without it the kernel picks the
     * source by route, and on a host with several addresses a client that asked one of them gets
     * its answer from another — and drops it (gdnsd does the same, dnsio_udp.c).
     */
    private final boolean pktinfo;
    /** {@link #sendTo}'s memory: a {@code msghdr}, its iovec, name and control; guarded by {@code this}. */
    private final MemorySegment sendHeader;
    private final MemorySegment sendName;
    private final MemorySegment sendControl;
    private final MemorySegment sendBuffer;
    private final ByteBuffer sendView;
    private volatile boolean shut;
    private boolean closed;

    private NativeDatagram(int fd, boolean inet6, InetSocketAddress local, boolean pktinfo) {
        this.fd = fd;
        this.inet6 = inet6;
        this.local = local;
        this.pktinfo = pktinfo;
        sendHeader = MemorySegment.allocateNative(MMSGHDR + IOVEC, 8, scope);
        sendControl = MemorySegment.allocateNative(CONTROL, 8, scope);
        sendName = MemorySegment.allocateNative(NAME, 8, scope);
        sendBuffer = MemorySegment.allocateNative(65536, 8, scope);
        sendView = sendBuffer.asByteBuffer();
    }

    /**
     * A UDP socket bound to {@code address} (port 0: the kernel picks one), sharing its port with
     * the process's other sockets when {@code reusePort} ({@code SO_REUSEPORT}, gdnsd's
     * {@code udp_threads}). An IPv6 address takes IPv4 clients too where the system does (mapped).
     */
    public static NativeDatagram bind(InetSocketAddress address, boolean reusePort, int receiveBuffer) throws IOException {
        boolean v6 = address.getAddress() instanceof Inet6Address;
        int fd;
        try {
            fd = (int) F.socket.invokeExact(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        } catch (Throwable t) {
            throw new IOException("socket: " + t, t);
        }
        if (fd < 0) {
            throw new IOException("socket: " + lastError());
        }
        try (ResourceScope s = ResourceScope.newConfinedScope()) {
            MemorySegment value = MemorySegment.allocateNative(4, 4, s);
            MemoryAccess.setInt(value, 1);
            if (reusePort) {
                option(fd, SO_REUSEPORT, value, "SO_REUSEPORT");
            }
            if (receiveBuffer > 0) {
                MemoryAccess.setInt(value, receiveBuffer);
                option(fd, SO_RCVBUF, value, "SO_RCVBUF");
            }
            // as gdnsd does (dnsio_udp.c): answers leave without DF and without path-MTU state,
            // so a forged ICMP "fragmentation needed" cannot shrink them into fragments an
            // off-path attacker could replace, and no PMTU black hole swallows them; IPv6 answers
            // fragment at the minimum MTU. Kernels without OMIT (before 3.15) get DONT.
            if (!ipOption(fd, SOL_IP, IP_MTU_DISCOVER, PMTUDISC_OMIT, value) && !v6) {
                ipOption(fd, SOL_IP, IP_MTU_DISCOVER, PMTUDISC_DONT, value);
            }
            if (v6) {
                if (!ipOption(fd, SOL_IPV6, IPV6_MTU_DISCOVER, PMTUDISC_OMIT, value)) {
                    ipOption(fd, SOL_IPV6, IPV6_MTU_DISCOVER, PMTUDISC_DONT, value);
                }
                ipOption(fd, SOL_IPV6, IPV6_MTU, 1280, value);
            }
            boolean wildcard = address.getAddress().isAnyLocalAddress();
            if (wildcard) {
                // an IPv6 socket takes IPv4 clients too (mapped): both kinds of destination
                if (!ipOption(fd, SOL_IP, IP_PKTINFO, 1, value) && !v6) {
                    throw new IOException("IP_PKTINFO: " + lastError());
                }
                if (v6 && !ipOption(fd, SOL_IPV6, IPV6_RECVPKTINFO, 1, value)) {
                    throw new IOException("IPV6_RECVPKTINFO: " + lastError());
                }
            }
            MemorySegment name = MemorySegment.allocateNative(NAME, 8, s);
            int length = encode(address, name, v6);
            int r = (int) F.bind.invokeExact(fd, name.address(), length);
            if (r != 0) {
                throw new IOException(lastError());
            }
            MemorySegment len = MemorySegment.allocateNative(4, 4, s);
            MemoryAccess.setInt(len, NAME);
            r = (int) F.getsockname.invokeExact(fd, name.address(), len.address());
            if (r != 0) {
                throw new IOException("getsockname: " + lastError());
            }
            InetSocketAddress bound = decode(name, 0);
            return new NativeDatagram(fd, v6, bound, wildcard);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd);
            throw e;
        } catch (Throwable t) {
            closeQuietly(fd);
            throw new IOException(t.toString(), t);
        }
    }

    private static void option(int fd, int option, MemorySegment value, String what) throws Throwable {
        int r = (int) F.setsockopt.invokeExact(fd, SOL_SOCKET, option, value.address(), 4);
        if (r != 0) {
            throw new IOException(what + ": " + lastError());
        }
    }

    /** Sets an IP-level option; false (and nothing else) when the kernel refuses it. */
    private static boolean ipOption(int fd, int level, int option, int v, MemorySegment value) throws Throwable {
        MemoryAccess.setInt(value, v);
        int r = (int) F.setsockopt.invokeExact(fd, level, option, value.address(), 4);
        return r == 0;
    }

    /** An integer socket option's value as the kernel reports it (tests); -1 when it will not say. */
    int intOption(int level, int option) {
        try (ResourceScope s = ResourceScope.newConfinedScope()) {
            MemorySegment value = MemorySegment.allocateNative(4, 4, s);
            MemorySegment length = MemorySegment.allocateNative(4, 4, s);
            MemoryAccess.setInt(length, 4);
            int r = (int) F.getsockopt.invokeExact(fd, level, option, value.address(), length.address());
            return r == 0 ? MemoryAccess.getInt(value) : -1;
        } catch (Throwable t) {
            return -1;
        }
    }

    private static void closeQuietly(int fd) {
        try {
            int ignored = (int) F.close.invokeExact(fd);
        } catch (Throwable ignored) {
            // nothing more to do for a descriptor being given up
        }
    }

    /** The address bound (the port the kernel chose for port 0). */
    public InetSocketAddress localAddress() {
        return local;
    }

    /** The calling thread's {@code errno}, read right after the call that failed. */
    private static int errno() {
        try {
            MemoryAddress a = (MemoryAddress) F.errnoLocation.invokeExact();
            return MemoryAccess.getInt(a.asSegment(4, ResourceScope.globalScope()));
        } catch (Throwable t) {
            return -1;
        }
    }

    private static String lastError() {
        int e = errno();
        try {
            MemoryAddress s = (MemoryAddress) F.strerror.invokeExact(e);
            return CLinker.toJavaString(s) + " (errno " + e + ")";
        } catch (Throwable t) {
            return "errno " + e;
        }
    }

    /**
     * Sends one datagram from any thread ({@code sendmsg}), from the local address {@code via}
     * names ({@link Batch#via}; null: the kernel's choice); false when the kernel refused it (a
     * full send buffer, an unreachable address: UDP's loss, counted by the caller).
     */
    public synchronized boolean sendTo(byte[] data, int length, InetSocketAddress to, byte[] via) {
        if (closed || length > sendBuffer.byteSize()) {
            return false;
        }
        int nameLength = encode(to, sendName, inet6);
        if (nameLength < 0) {
            return false;
        }
        sendView.put(0, data, 0, length);
        MemoryAccess.setLongAtOffset(sendHeader, 0, sendName.address().toRawLongValue());
        MemoryAccess.setIntAtOffset(sendHeader, 8, nameLength);
        MemoryAccess.setLongAtOffset(sendHeader, 16, sendHeader.address().toRawLongValue() + MMSGHDR);
        MemoryAccess.setLongAtOffset(sendHeader, 24, 1);
        MemoryAccess.setLongAtOffset(sendHeader, MMSGHDR, sendBuffer.address().toRawLongValue());
        MemoryAccess.setLongAtOffset(sendHeader, MMSGHDR + 8, length);
        if (via != null && via.length <= CONTROL) {
            sendControl.asByteBuffer().put(0, via);
            MemoryAccess.setLongAtOffset(sendHeader, 32, sendControl.address().toRawLongValue());
            MemoryAccess.setLongAtOffset(sendHeader, 40, via.length);
        } else {
            MemoryAccess.setLongAtOffset(sendHeader, 32, 0);
            MemoryAccess.setLongAtOffset(sendHeader, 40, 0);
        }
        MemoryAccess.setIntAtOffset(sendHeader, 48, 0);
        try {
            long r = (long) F.sendmsg.invokeExact(fd, sendHeader.address(), MSG_DONTWAIT);
            return r == length;
        } catch (Throwable t) {
            return false;
        }
    }

    /** {@link #sendTo(byte[], int, InetSocketAddress, byte[])} from the kernel's choice of address. */
    public boolean sendTo(byte[] data, int length, InetSocketAddress to) {
        return sendTo(data, length, to, null);
    }

    /**
     * The control message that makes a datagram leave from {@code source} ({@code IP_PKTINFO} with
     * {@code ipi_spec_dst}, or {@code IPV6_PKTINFO}), in the form {@link #sendTo} and
     * {@link Batch#answer(InetSocketAddress, byte[], byte[], int)} take; null for a wildcard source
     * or one of a family this socket does not send from, or a socket not bound to a wildcard address
     * (its source is its address). LP64 Linux layout: {@code cmsghdr} 16 bytes, then the payload.
     */
    public byte[] via(InetAddress source) {
        if (!pktinfo || source == null || source.isAnyLocalAddress()) {
            return null;
        }
        byte[] a = source.getAddress();
        if (a.length == 16 && isMappedV4(a)) {
            a = java.util.Arrays.copyOfRange(a, 12, 16);
        }
        if (a.length == 4) {
            ByteBuffer b = ByteBuffer.allocate(VIA4).order(ByteOrder.nativeOrder());
            b.putLong(16 + 12).putInt(SOL_IP).putInt(IP_PKTINFO);
            b.putInt(0); // ipi_ifindex: the route decides
            b.put(a);    // ipi_spec_dst
            b.putInt(0); // ipi_addr (ignored on send)
            return b.array();
        }
        if (!inet6) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(VIA6).order(ByteOrder.nativeOrder());
        b.putLong(16 + 20).putInt(SOL_IPV6).putInt(IPV6_PKTINFO);
        b.put(a);
        b.putInt(source instanceof Inet6Address s6 ? s6.getScopeId() : 0);
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
        try {
            int ignored = (int) F.shutdown.invokeExact(fd, SHUT_RDWR);
        } catch (Throwable ignored) {
            // the flag alone ends the reader at its next wake-up
        }
    }

    /** Frees the descriptor and the memory: after the reader thread has ended. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        shut = true;
        closeQuietly(fd);
        scope.close();
    }

    /** Whether {@link #shutdown} was called. */
    public boolean isShut() {
        return shut;
    }

    /**
     * {@code to} as a {@code sockaddr_in}/{@code sockaddr_in6} at {@code name} for a socket of
     * the given family; its length, or -1 when an IPv4 socket is asked to reach an IPv6 address.
     */
    private static int encode(InetSocketAddress to, MemorySegment name, boolean v6) {
        InetAddress a = to.getAddress();
        int port = to.getPort();
        byte[] raw = a.getAddress();
        if (!v6) {
            if (raw.length != 4) {
                return -1;
            }
            MemoryAccess.setShortAtOffset(name, 0, (short) AF_INET);
            MemoryAccess.setByteAtOffset(name, 2, (byte) (port >> 8));
            MemoryAccess.setByteAtOffset(name, 3, (byte) port);
            for (int i = 0; i < 4; i++) {
                MemoryAccess.setByteAtOffset(name, 4 + i, raw[i]);
            }
            MemoryAccess.setLongAtOffset(name, 8, 0);
            return 16;
        }
        MemoryAccess.setShortAtOffset(name, 0, (short) AF_INET6);
        MemoryAccess.setByteAtOffset(name, 2, (byte) (port >> 8));
        MemoryAccess.setByteAtOffset(name, 3, (byte) port);
        MemoryAccess.setIntAtOffset(name, 4, 0); // flow info
        if (raw.length == 4) { // IPv4-mapped
            for (int i = 0; i < 10; i++) {
                MemoryAccess.setByteAtOffset(name, 8 + i, (byte) 0);
            }
            MemoryAccess.setByteAtOffset(name, 18, (byte) 0xff);
            MemoryAccess.setByteAtOffset(name, 19, (byte) 0xff);
            for (int i = 0; i < 4; i++) {
                MemoryAccess.setByteAtOffset(name, 20 + i, raw[i]);
            }
            MemoryAccess.setIntAtOffset(name, 24, 0);
        } else {
            for (int i = 0; i < 16; i++) {
                MemoryAccess.setByteAtOffset(name, 8 + i, raw[i]);
            }
            MemoryAccess.setIntAtOffset(name, 24, a instanceof Inet6Address i6 ? i6.getScopeId() : 0);
        }
        return 28;
    }

    /** The address in the {@code sockaddr} at {@code offset} of {@code names}; null for another family. */
    private static InetSocketAddress decode(MemorySegment names, long offset) {
        int family = Short.toUnsignedInt(MemoryAccess.getShortAtOffset(names, offset));
        int port = (Byte.toUnsignedInt(MemoryAccess.getByteAtOffset(names, offset + 2)) << 8)
                | Byte.toUnsignedInt(MemoryAccess.getByteAtOffset(names, offset + 3));
        try {
            if (family == AF_INET) {
                byte[] raw = new byte[4];
                for (int i = 0; i < 4; i++) {
                    raw[i] = MemoryAccess.getByteAtOffset(names, offset + 4 + i);
                }
                return new InetSocketAddress(InetAddress.getByAddress(raw), port);
            }
            if (family == AF_INET6) {
                byte[] raw = new byte[16];
                for (int i = 0; i < 16; i++) {
                    raw[i] = MemoryAccess.getByteAtOffset(names, offset + 8 + i);
                }
                int scope = MemoryAccess.getIntAtOffset(names, offset + 24);
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
     * A reader's memory: {@link #BATCH} datagrams in (a slot each, with the sender's name and, on a
     * wildcard address, the destination), up to {@link #BATCH} answers out (up to 65 535 bytes
     * each, packed one after the other in 128 KiB). Confined to the thread that made it, unless
     * made shared (an outbox; its users take turns).
     */
    public final class Batch implements AutoCloseable {
        private final ResourceScope mine;
        private final MemorySegment in;
        private final MemorySegment inIov;
        private final MemorySegment names;
        private final MemorySegment inData;
        private final ByteBuffer inView;
        private final MemorySegment out;
        private final MemorySegment outIov;
        private final MemorySegment outNames;
        /** Control messages received with each datagram, and those sent with each answer ({@link #pktinfo}). */
        private final MemorySegment inControl;
        private final MemorySegment outControl;
        private final long inControlBase;
        private final long outControlBase;
        private final MemorySegment outData;
        private final ByteBuffer outView;
        private final long namesBase;
        private final long outNamesBase;
        private final long outDataBase;
        /** Bytes of {@link #outData} the queued answers take: they lie one after the other. */
        private int outUsed;
        private final int slot;
        private int queued;
        /** Senders seen lately, by the first 8 bytes of their {@code sockaddr_in} (IPv4 sockets only). */
        private final long[] senderKeys = new long[64];
        private final InetSocketAddress[] senders = new InetSocketAddress[64];
        /** Answers the kernel would not send (or that could not be queued). */
        private long sendErrors;

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
            this.slot = slot;
            mine = shared ? ResourceScope.newSharedScope() : ResourceScope.newConfinedScope();
            in = MemorySegment.allocateNative((long) BATCH * MMSGHDR, 8, mine);
            inIov = MemorySegment.allocateNative((long) BATCH * IOVEC, 8, mine);
            names = MemorySegment.allocateNative((long) BATCH * NAME, 8, mine);
            inData = MemorySegment.allocateNative((long) BATCH * slot, 8, mine);
            inView = inData.asByteBuffer().order(ByteOrder.BIG_ENDIAN);
            out = MemorySegment.allocateNative((long) BATCH * MMSGHDR, 8, mine);
            outIov = MemorySegment.allocateNative((long) BATCH * IOVEC, 8, mine);
            outNames = MemorySegment.allocateNative((long) BATCH * NAME, 8, mine);
            inControl = MemorySegment.allocateNative((long) BATCH * CONTROL, 8, mine);
            outControl = MemorySegment.allocateNative((long) BATCH * CONTROL, 8, mine);
            inControlBase = inControl.address().toRawLongValue();
            outControlBase = outControl.address().toRawLongValue();
            outData = MemorySegment.allocateNative(OUT_BYTES, 8, mine);
            outView = outData.asByteBuffer();
            namesBase = names.address().toRawLongValue();
            outNamesBase = outNames.address().toRawLongValue();
            long inDataBase = inData.address().toRawLongValue();
            outDataBase = outData.address().toRawLongValue();
            for (int i = 0; i < BATCH; i++) {
                MemoryAccess.setLongAtOffset(inIov, (long) i * IOVEC, inDataBase + (long) i * slot);
                MemoryAccess.setLongAtOffset(inIov, (long) i * IOVEC + 8, slot);
                MemoryAccess.setLongAtOffset(in, (long) i * MMSGHDR + 16, inIov.address().toRawLongValue() + (long) i * IOVEC);
                MemoryAccess.setLongAtOffset(in, (long) i * MMSGHDR + 24, 1);
                MemoryAccess.setLongAtOffset(out, (long) i * MMSGHDR + 16, outIov.address().toRawLongValue() + (long) i * IOVEC);
                MemoryAccess.setLongAtOffset(out, (long) i * MMSGHDR + 24, 1);
            }
        }

        /**
         * Blocks until at least one datagram is there and takes up to {@link #BATCH}; 0 once the
         * socket is shut down; -1 on an error (interrupted calls are retried here).
         */
        public int receive() {
            for (int i = 0; i < BATCH; i++) {
                long m = (long) i * MMSGHDR;
                MemoryAccess.setLongAtOffset(in, m, namesBase + (long) i * NAME);
                MemoryAccess.setIntAtOffset(in, m + 8, NAME);
                // the destination address comes as a control message where the socket asked for it
                MemoryAccess.setLongAtOffset(in, m + 32, pktinfo ? inControlBase + (long) i * CONTROL : 0);
                MemoryAccess.setLongAtOffset(in, m + 40, pktinfo ? CONTROL : 0);
                MemoryAccess.setIntAtOffset(in, m + 48, 0);
            }
            while (!shut) {
                int n;
                try {
                    n = (int) F.recvmmsg.invokeExact(fd, in.address(), BATCH, MSG_WAITFORONE, MemoryAddress.NULL);
                } catch (Throwable t) {
                    return -1;
                }
                if (n >= 0) {
                    return shut ? 0 : n;
                }
                if (errno() != EINTR) {
                    return -1;
                }
            }
            return 0;
        }

        /** The error of the last failed {@link #receive}, for the log. */
        public String error() {
            return lastError();
        }

        /** The length of datagram {@code i} (at most the slot size). */
        public int length(int i) {
            return Math.min(MemoryAccess.getIntAtOffset(in, (long) i * MMSGHDR + 56), slot);
        }

        /** Whether datagram {@code i} was longer than its slot and arrived cut. */
        public boolean truncated(int i) {
            return (MemoryAccess.getIntAtOffset(in, (long) i * MMSGHDR + 48) & MSG_TRUNC) != 0;
        }

        /** Copies datagram {@code i}'s first {@code length} bytes into {@code to}. */
        public void copy(int i, byte[] to, int length) {
            inView.get(i * slot, to, 0, length);
        }

        /** The sender of datagram {@code i} (null for a family this socket does not speak). */
        public InetSocketAddress sender(int i) {
            long at = (long) i * NAME;
            if (!inet6) {
                // dnsperf-like clients send bursts from few ports: one long compare, no objects
                long key = MemoryAccess.getLongAtOffset(names, at);
                int h = (int) (key ^ (key >>> 29) ^ (key >>> 41)) & 63;
                InetSocketAddress s = senders[h];
                if (s != null && senderKeys[h] == key) {
                    return s;
                }
                s = decode(names, at);
                senders[h] = s;
                senderKeys[h] = key;
                return s;
            }
            return decode(names, at);
        }

        /**
         * Queues an answer to datagram {@code i}'s sender (its own name, no encoding), sending the
         * queue first when full.
         */
        public void answer(int i, byte[] data, int length) {
            if (!room(length)) {
                return;
            }
            long m = (long) queued * MMSGHDR;
            MemoryAccess.setLongAtOffset(out, m, namesBase + (long) i * NAME);
            MemoryAccess.setIntAtOffset(out, m + 8, MemoryAccess.getIntAtOffset(in, (long) i * MMSGHDR + 8));
            int via = pktinfo ? writeVia(i, outControl, (long) queued * CONTROL) : 0;
            MemoryAccess.setLongAtOffset(out, m + 32, via > 0 ? outControlBase + (long) queued * CONTROL : 0);
            MemoryAccess.setLongAtOffset(out, m + 40, via);
            queue(data, length);
        }

        /** Queues an answer to any address (encoded into the queue's own name), from the kernel's choice of address. */
        public void answer(InetSocketAddress to, byte[] data, int length) {
            answer(to, null, data, length);
        }

        /**
         * Queues an answer to any address (encoded into the queue's own name), from the local
         * address {@code via} names ({@link #via}; null: the kernel's choice).
         */
        public void answer(InetSocketAddress to, byte[] via, byte[] data, int length) {
            if (!room(length)) {
                return;
            }
            long m = (long) queued * MMSGHDR;
            MemorySegment name = outNames.asSlice((long) queued * NAME, NAME);
            int nameLength = encode(to, name, inet6);
            if (nameLength < 0) {
                sendErrors++;
                return;
            }
            MemoryAccess.setLongAtOffset(out, m, outNamesBase + (long) queued * NAME);
            MemoryAccess.setIntAtOffset(out, m + 8, nameLength);
            if (via != null && via.length <= CONTROL) {
                outControl.asByteBuffer().put(queued * CONTROL, via);
                MemoryAccess.setLongAtOffset(out, m + 32, outControlBase + (long) queued * CONTROL);
                MemoryAccess.setLongAtOffset(out, m + 40, via.length);
            } else {
                MemoryAccess.setLongAtOffset(out, m + 32, 0);
                MemoryAccess.setLongAtOffset(out, m + 40, 0);
            }
            queue(data, length);
        }

        /**
         * Writes, at {@code offset} of {@code to}, the control message that sends an answer to
         * datagram {@code i} from the address it was sent to: {@code IP_PKTINFO} with
         * {@code ipi_spec_dst} = the datagram's destination and no interface (the route decides),
         * or {@code IPV6_PKTINFO} with its address and interface (link-local needs it). Its
         * length; 0 when the datagram came without one.
         */
        private int writeVia(int i, MemorySegment to, long offset) {
            long base = (long) i * CONTROL;
            long length = Math.min(MemoryAccess.getLongAtOffset(in, (long) i * MMSGHDR + 40), CONTROL);
            long at = 0;
            while (at + 16 <= length) {
                long cmsgLength = MemoryAccess.getLongAtOffset(inControl, base + at);
                int level = MemoryAccess.getIntAtOffset(inControl, base + at + 8);
                int type = MemoryAccess.getIntAtOffset(inControl, base + at + 12);
                if (cmsgLength < 16 || at + cmsgLength > length) {
                    return 0;
                }
                if (level == SOL_IP && type == IP_PKTINFO && cmsgLength >= 16 + 12) {
                    MemoryAccess.setLongAtOffset(to, offset, 16 + 12);
                    MemoryAccess.setIntAtOffset(to, offset + 8, SOL_IP);
                    MemoryAccess.setIntAtOffset(to, offset + 12, IP_PKTINFO);
                    MemoryAccess.setIntAtOffset(to, offset + 16, 0); // ipi_ifindex
                    MemoryAccess.setIntAtOffset(to, offset + 20, MemoryAccess.getIntAtOffset(inControl, base + at + 24)); // spec_dst = ipi_addr
                    MemoryAccess.setIntAtOffset(to, offset + 24, 0);
                    MemoryAccess.setIntAtOffset(to, offset + 28, 0);
                    return VIA4;
                }
                if (level == SOL_IPV6 && type == IPV6_PKTINFO && cmsgLength >= 16 + 20) {
                    MemoryAccess.setLongAtOffset(to, offset, 16 + 20);
                    MemoryAccess.setIntAtOffset(to, offset + 8, SOL_IPV6);
                    MemoryAccess.setIntAtOffset(to, offset + 12, IPV6_PKTINFO);
                    MemoryAccess.setLongAtOffset(to, offset + 16, MemoryAccess.getLongAtOffset(inControl, base + at + 16));
                    MemoryAccess.setLongAtOffset(to, offset + 24, MemoryAccess.getLongAtOffset(inControl, base + at + 24));
                    MemoryAccess.setIntAtOffset(to, offset + 32, MemoryAccess.getIntAtOffset(inControl, base + at + 32));
                    MemoryAccess.setIntAtOffset(to, offset + 36, 0);
                    return VIA6;
                }
                at += (cmsgLength + 7) & ~7L;
            }
            return 0;
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
            long base = (long) i * CONTROL;
            long length = Math.min(MemoryAccess.getLongAtOffset(in, (long) i * MMSGHDR + 40), CONTROL);
            long at = 0;
            while (at + 16 <= length) {
                long cmsgLength = MemoryAccess.getLongAtOffset(inControl, base + at);
                int level = MemoryAccess.getIntAtOffset(inControl, base + at + 8);
                int type = MemoryAccess.getIntAtOffset(inControl, base + at + 12);
                if (cmsgLength < 16 || at + cmsgLength > length) {
                    return null;
                }
                try {
                    if (level == SOL_IP && type == IP_PKTINFO && cmsgLength >= 16 + 12) {
                        byte[] a = new byte[4];
                        inControl.asByteBuffer().get((int) (base + at + 24), a);
                        return InetAddress.getByAddress(a);
                    }
                    if (level == SOL_IPV6 && type == IPV6_PKTINFO && cmsgLength >= 16 + 20) {
                        byte[] a = new byte[16];
                        inControl.asByteBuffer().get((int) (base + at + 16), a);
                        return InetAddress.getByAddress(a);
                    }
                } catch (UnknownHostException e) {
                    return null; // cannot happen for 4 or 16 bytes
                }
                at += (cmsgLength + 7) & ~7L;
            }
            return null;
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
            try (ResourceScope s = ResourceScope.newConfinedScope()) {
                MemorySegment tmp = MemorySegment.allocateNative(CONTROL, 8, s);
                int n = writeVia(i, tmp, 0);
                if (n == 0) {
                    return null;
                }
                byte[] b = new byte[n];
                tmp.asByteBuffer().get(0, b);
                return b;
            }
        }

        /** Makes room in the queue for an answer of {@code length} bytes; false (counted) when none can be. */
        private boolean room(int length) {
            if (length > 65535) {
                sendErrors++;
                return false;
            }
            if (queued == BATCH || outUsed + length > OUT_BYTES) {
                flush();
            }
            return true;
        }

        private void queue(byte[] data, int length) {
            // answers packed one after the other (the callers made room): a burst of small answers
            // touches a page or two
            outView.put(outUsed, data, 0, length);
            MemoryAccess.setLongAtOffset(outIov, (long) queued * IOVEC, outDataBase + outUsed);
            MemoryAccess.setLongAtOffset(outIov, (long) queued * IOVEC + 8, length);
            outUsed += length;
            queued++;
        }

        /**
         * Sends what is queued ({@code sendmmsg}, again past a datagram the kernel refused, so one
         * bad address loses one answer); the queue is empty afterwards.
         */
        public void flush() {
            int k = 0;
            while (k < queued) {
                int r;
                try {
                    r = (int) F.sendmmsg.invokeExact(fd, MemoryAddress.ofLong(out.address().toRawLongValue() + (long) k * MMSGHDR),
                            queued - k, MSG_DONTWAIT);
                } catch (Throwable t) {
                    r = -1;
                }
                if (r > 0) {
                    k += r;
                } else if (r < 0 && errno() == EINTR) {
                    continue;
                } else {
                    sendErrors++;
                    k++; // this one is lost; the rest still go
                }
            }
            queued = 0;
            outUsed = 0;
        }

        /** Answers the kernel would not send, ever. */
        public long sendErrors() {
            return sendErrors;
        }

        @Override
        public void close() {
            mine.close();
        }
    }
}
