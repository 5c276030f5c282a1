package lookout.engine.net;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.channel.unix.RawUnixChannelOption;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.function.Consumer;

/**
 * Which Netty transport the engine's sockets use: Linux's native epoll where Netty's native
 * library loads, NIO elsewhere. Every socket a service opens comes from here, so that it matches
 * the loop it registers on (an epoll loop takes only epoll channels, and the other way round).
 *
 * <p>Why epoll: the resolver and the PVA responder pay mostly for the kernel's per-datagram path
 * (bench/RESULTS.md). Netty's epoll datagram channel reads a burst with one {@code recvmmsg} and
 * writes the answers of a burst with one {@code sendmmsg}, where NIO pays one {@code recvfrom} and
 * one {@code sendto} per datagram; and opening the fresh socket that seed 000 wants for each upstream
 * transaction is a plain {@code socket(2)}, without the JDK channel's bookkeeping.
 *
 * <p>The engine's options choose ({@code lookout.engine.api.EngineOptions#transport()}): NIO forces
 * NIO (for comparison, or where the native library must not be unpacked to the temporary
 * directory); EPOLL insists on epoll. This package depends on Netty alone: it is the bottom room.
 */
public enum Transport {
    EPOLL, NIO;

    /**
     * The largest datagram a batched (recvmmsg) read takes whole. DNS queries over UDP and PVA
     * searches stay far below it; a longer datagram arrives truncated and fails to decode, which is
     * counted and dropped as malformed (the resolver's and responder's usual path).
     */
    public static final int BATCHED_DATAGRAM_SIZE = 4096;

    /** The buffer one batched read fills: the pooled allocator's thread cache takes up to 32 KiB. */
    static final int RECEIVE_BUFFER = 32 * 1024;

    /**
     * The transport to use when {@code wanted} is asked for (null: epoll where it is available, else
     * NIO); EPOLL throws where epoll is unavailable.
     */
    public static Transport choose(Transport wanted) {
        if (wanted == NIO) {
            return NIO;
        }
        if (wanted == EPOLL) {
            Epoll.ensureAvailability();
            return EPOLL;
        }
        return epollAvailable() ? EPOLL : NIO;
    }

    private static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (Throwable e) { // the native module missing from the module graph, another OS ...
            return false;
        }
    }

    /**
     * Turns Netty's buffer leak detector off, or leaves it as Netty's own settings say. By default
     * it samples one buffer in 128 and records a stack trace for it; with two buffers per datagram
     * that is thousands of stack traces a second under load, all to find a leak the tests already
     * look for (their runs leave it on and set the level, see the poms).
     */
    public static void leakDetection(boolean off) {
        if (off) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
    }

    /**
     * Why UDP listeners cannot be read natively in this JVM ({@link NativeDatagram}: the engine's
     * JNI library, liblookoutnet.so, did not load — another OS or architecture, the library
     * missing, a temporary directory it cannot be unpacked into and run from), or null when they
     * can. The first call loads the library; never throws.
     */
    public static String nativeDatagramsUnavailable() {
        return NativeLibrary.unavailable();
    }

    /** Why {@code chosen} is not epoll, or null when it is. */
    public static String epollUnavailableReason(Transport chosen) {
        if (chosen == EPOLL) {
            return null;
        }
        try {
            Throwable t = Epoll.unavailabilityCause();
            return t == null ? "NIO was asked for" : String.valueOf(t);
        } catch (Throwable e) {
            return String.valueOf(e);
        }
    }

    /** The transport of the loops in {@code group}. */
    public static Transport of(EventLoopGroup group) {
        if (group instanceof IoEventLoopGroup g && epollAvailable() && g.isIoType(EpollIoHandler.class)) {
            return EPOLL;
        }
        return NIO;
    }

    public IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** An unregistered datagram channel of the family of {@code local} (IPv4 when null). */
    public DatagramChannel datagram(InetAddress local) {
        return this == EPOLL ? new EpollDatagramChannel(family(local)) : new NioDatagramChannel(family(local));
    }

    /**
     * A datagram channel for a listener that may get bursts: reads up to 64 KiB per read call,
     * on epoll as one {@code recvmmsg} of up to 16 datagrams.
     */
    public DatagramChannel batchedDatagram(InetAddress local, int maxMessagesPerRead) {
        return batchedDatagram(local, maxMessagesPerRead, BATCHED_DATAGRAM_SIZE);
    }

    /**
     * {@link #batchedDatagram(InetAddress, int)} for datagrams up to {@code maxDatagram} bytes read
     * whole (a batched read then takes as many as fit in its buffer).
     */
    public DatagramChannel batchedDatagram(InetAddress local, int maxMessagesPerRead, int maxDatagram) {
        DatagramChannel ch = datagram(local);
        // Netty 4.2's default (adaptive) allocator hands chunks between threads through lock-free
        // queues on every buffer: a tenth of a busy listener's Java time. A listener allocates and
        // frees its buffers on its own loop, where the pooled allocator's thread cache serves them
        // — up to 32 KiB: the receive buffer of one recvmmsg (8 datagrams of BATCHED_DATAGRAM_SIZE)
        // is that big, not more, or every read would take and give back a run of the shared arena.
        ch.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(Math.max(RECEIVE_BUFFER, maxDatagram))
                .maxMessagesPerRead(maxMessagesPerRead));
        ch.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        if (this == EPOLL) {
            ch.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, maxDatagram);
        }
        return ch;
    }

    /** Whether {@link #reusePort} works here (epoll: always; NIO: where the JDK offers SO_REUSEPORT). */
    public boolean reusePortSupported() {
        if (this == EPOLL) {
            return true;
        }
        try (java.nio.channels.DatagramChannel probe = java.nio.channels.DatagramChannel.open()) {
            return probe.supportedOptions().contains(java.net.StandardSocketOptions.SO_REUSEPORT);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Lets several sockets of this process bind the same address and port, the kernel spreading
     * datagrams among them by source (Linux {@code SO_REUSEPORT}; only sockets of the same user
     * may join). Before bind; see {@link #reusePortSupported}.
     */
    public void reusePort(DatagramChannel ch) {
        if (this == EPOLL) {
            ch.config().setOption(EpollChannelOption.SO_REUSEPORT, true);
        } else {
            ch.config().setOption(io.netty.channel.socket.nio.NioChannelOption.of(
                    java.net.StandardSocketOptions.SO_REUSEPORT), true);
        }
    }

    // Linux's numbers (asm-generic/socket.h, x86-64 and AArch64 alike) for what Netty has no option of
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVBUFFORCE = 33;
    private static final int SO_MEMINFO = 55;
    /** SO_MEMINFO's u32 array: SK_MEMINFO_DROPS is its ninth (linux/sock_diag.h). */
    private static final int MEMINFO_DROPS = 8;
    private static final IntegerUnixChannelOption RCVBUF_FORCE = new IntegerUnixChannelOption("SO_RCVBUFFORCE",
            SOL_SOCKET, SO_RCVBUFFORCE);
    private static final RawUnixChannelOption MEMINFO = new RawUnixChannelOption("SO_MEMINFO", SOL_SOCKET, SO_MEMINFO,
            4 * (MEMINFO_DROPS + 1));

    /**
     * Asks for a receive buffer of {@code bytes} before bind: beyond {@code net.core.rmem_max}
     * where the process may ({@code SO_RCVBUFFORCE} with CAP_NET_ADMIN, as unbound does), else
     * within it ({@code SO_RCVBUF}: the kernel caps it silently; read it back to know).
     */
    public void receiveBuffer(DatagramChannel ch, int bytes) {
        if (this == EPOLL) {
            try {
                ch.config().setOption(RCVBUF_FORCE, bytes);
                return;
            } catch (RuntimeException e) {
                // EPERM without the capability: the ordinary option, within the limit
            }
        }
        ch.config().setReceiveBufferSize(bytes);
    }

    /** Datagrams the kernel dropped on {@code ch}, ever ({@code SO_MEMINFO}); -1 where it cannot say (NIO, closed). */
    static long receiveDrops(Channel ch) {
        if (!(ch instanceof EpollDatagramChannel) || !ch.isOpen()) {
            return -1;
        }
        try {
            java.nio.ByteBuffer b = ch.config().getOption(MEMINFO);
            return b == null || b.capacity() < 4 * (MEMINFO_DROPS + 1) ? -1
                    : b.order(java.nio.ByteOrder.nativeOrder()).getInt(4 * MEMINFO_DROPS) & 0xFFFF_FFFFL;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Makes every datagram read report the address it was sent to as its
     * {@code DatagramPacket.recipient()} (Linux {@code IP_RECVORIGDSTADDR}; epoll only: NIO has no
     * way to tell). Before bind.
     */
    public void reportOriginalDestination(DatagramChannel ch) {
        if (this != EPOLL) {
            throw new UnsupportedOperationException("the original destination of a datagram is known on epoll only");
        }
        ch.config().setOption(EpollChannelOption.IP_RECVORIGDSTADDR, true);
    }

    public ServerSocketChannel serverSocket(InetAddress local) {
        return this == EPOLL ? new EpollServerSocketChannel(family(local))
                : new NioServerSocketChannel(SelectorProvider.provider(), family(local));
    }

    public SocketChannel socket(InetAddress remote) {
        return this == EPOLL ? new EpollSocketChannel(family(remote))
                : new NioSocketChannel(SelectorProvider.provider(), family(remote));
    }

    private static SocketProtocolFamily family(InetAddress a) {
        return a instanceof Inet6Address ? SocketProtocolFamily.INET6 : SocketProtocolFamily.INET;
    }

    public Class<? extends SocketChannel> socketClass() {
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Configures {@code ch} (options, handlers), registers it on {@code io} and binds it to
     * {@code local}, synchronously (see {@link #sync}); on any failure the channel is closed and
     * the error thrown. Every listening or sending socket of the engine is opened through here.
     */
    public static <C extends Channel> C bind(EventLoopGroup io, C ch, SocketAddress local, Consumer<? super C> configure)
            throws IOException {
        try {
            configure.accept(ch);
            sync(io.register(ch));
            sync(ch.bind(local));
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Waits for a registration, bind or connect: on the channel's own loop these complete in the
     * call (Netty runs them inline there), elsewhere this waits. A failure becomes the
     * {@link IOException} the JDK would have thrown, so callers keep one error path.
     */
    public static void sync(ChannelFuture f) throws IOException {
        if (!f.isDone()) {
            if (f.channel().eventLoop().inEventLoop()) {
                throw new IllegalStateException("a channel operation did not complete on its own loop");
            }
            f.awaitUninterruptibly();
        }
        if (!f.isSuccess()) {
            Throwable c = f.cause();
            if (isAddressInUse(c) && !(c instanceof BindException)) {
                BindException b = new BindException(c.getMessage());
                b.initCause(c);
                throw b;
            }
            if (c instanceof IOException io) {
                throw io;
            }
            throw new IOException(String.valueOf(c.getMessage()), c);
        }
    }

    /** By errno (Netty's native transport carries it), or the JDK's own type: never by the message's words. */
    private static boolean isAddressInUse(Throwable t) {
        return NetError.errnoOf(t) == NetError.EADDRINUSE;
    }
}
