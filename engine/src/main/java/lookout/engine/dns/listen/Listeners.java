package lookout.engine.dns.listen;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.net.HostPort;
import lookout.engine.net.Transport;
import lookout.engine.net.Udp;
import lookout.engine.net.UdpEndpoint;
import lookout.engine.net.UdpOptions;
import lookout.engine.seams.DynamicRecords;

/**
 * The resolver's sockets on {@code resolver.listen}: for each address, UDP first (port 0 resolved
 * there), then TCP on the same port ({@link TcpListener}); with {@code resolver.udp_threads} above 1
 * (gdnsd's {@code udp_threads}) that many UDP sockets sharing the port ({@code SO_REUSEPORT}: the
 * kernel spreads clients among them by their address and port). Every UDP socket has a
 * {@link UdpListener}; sockets are bound synchronously, so a bind error aborts start (or a reload)
 * with a message naming the address.
 *
 * <p>Who reads the UDP sockets ({@link #readNatively}): natively, one socket per address on the
 * engine's own loop ({@link Udp#nativeOnLoop}: it then answers cache hits and forwarded questions
 * without a hop), or from two sockets up every socket by a reader thread of its own blocked in
 * {@code recvmmsg} ({@link Udp#nativeRead}, {@code lookout-dns-udp-PORT-N}, gdnsd's I/O loop);
 * through Netty, the first socket of an address on the engine's own loop and every other one on
 * an answer loop of its own ({@code lookout-dns-answer-N}, a group made here).
 */
public final class Listeners {

    /* Concurrency: every field is the engine loop's (open, close, status and stop run there);
     * `view` is volatile, written here and read by the listeners on their reader threads. The
     * endpoints' and listeners' own counters are read through their thread-safe getters. */

    private static final Logger LOG = System.getLogger("lookout.engine.dns");
    /** Tries at a port-0 address whose UDP port turns out taken for TCP by another process. */
    private static final int PORT_TRIES = 20;

    private final Scheduler scheduler;
    private final EventLoopGroup io;
    private final Transport transport;
    private final EngineOptions.UdpReads reads;
    private final Consumer<EngineEvent> publish;
    private final Intake intake;
    private final Supplier<DynamicRecords> pools;
    private final TcpListener tcp;
    private volatile LoopView view;

    /** One UDP socket and what it hands its datagrams to. */
    private record Socket(UdpEndpoint endpoint, UdpListener listener) {
    }

    private final List<Socket> udp = new ArrayList<>();
    private final List<Channel> servers = new ArrayList<>();
    private final List<InetSocketAddress> bound = new ArrayList<>();
    /** Loops reading the extra UDP sockets through Netty; null when there are none. */
    private EventLoopGroup answerLoops;
    private int udpThreads = 1;
    /** {@code resolver.udp_receive_buffer}: bytes asked for each UDP socket (0: the system's default). */
    private int receiveBuffer;
    private boolean nativeUdp;
    /** The one UDP socket of each address read natively on the engine loop (no reader thread). */
    private boolean nativeOnLoop;
    // counts of sockets closed since (the open ones count their own)
    private long retiredFastAnswers;
    private long retiredLoopAnswers;
    private long retiredSendErrors;
    private long retiredFastErrors;
    private long retiredDrops;

    public Listeners(Scheduler scheduler, EventLoopGroup io, Transport transport, EngineOptions.UdpReads reads,
                     Consumer<EngineEvent> publish, Intake intake, Supplier<DynamicRecords> pools) {
        this.scheduler = scheduler;
        this.io = io;
        this.transport = transport;
        this.reads = reads;
        this.publish = publish;
        this.intake = intake;
        this.pools = pools;
        this.tcp = new TcpListener(scheduler, intake, io);
    }

    /** The TCP limits from now on (start, reload): connections open at once, pipelining, idle timeout. */
    public void tcpLimits(int clients, int pipeline, int idleSeconds) {
        tcp.limits(clients, pipeline, idleSeconds);
    }

    /** What the UDP listeners answer from from now on (start, reload). */
    public void publish(LoopView v) {
        view = v;
    }

    /**
     * Opens {@code udpThreads} UDP sockets and one TCP socket on each of {@code addresses},
     * replacing the answer loops there were. On an error nothing stays open.
     */
    public void open(List<InetSocketAddress> addresses, int udpThreads, int receiveBuffer) throws IOException {
        this.receiveBuffer = receiveBuffer;
        boolean onLoop = reads != EngineOptions.UdpReads.NETTY && Udp.nativeOnLoopUnavailable(io) == null;
        nativeUdp = readNatively(reads, udpThreads, anyWildcard(addresses), onLoop);
        // one socket per address: read natively on the engine loop itself, where it can be
        nativeOnLoop = nativeUdp && udpThreads == 1 && onLoop;
        answerLoops(udpThreads);
        try {
            for (InetSocketAddress a : addresses) {
                bind(a);
            }
        } catch (IOException e) {
            close();
            throw e;
        }
        if (!addresses.isEmpty()) {
            logHowRead(addresses);
        }
    }

    /**
     * Whether the UDP listeners are read natively rather than through Netty, for
     * {@code udpThreads} sockets per address: {@code AUTO} wherever the engine's library loads —
     * one socket per address on the engine loop itself when the loop is on epoll
     * ({@link Udp#nativeOnLoop}: cache hits and forwarding answered where they are read, without a
     * hop), from two sockets up (or on a wildcard address, whose answers must leave from the
     * address asked) by a reader thread each ({@link Udp#nativeRead}, gdnsd's loop); one socket on
     * a specific address on a loop that is not epoll stays with Netty on the loop. {@code NATIVE}
     * always (an error saying why where it cannot be done), {@code NETTY} never.
     *
     * @param onLoop whether a socket can be read natively on the engine loop ({@link Udp#nativeOnLoopUnavailable})
     */
    public static boolean readNatively(EngineOptions.UdpReads wanted, int udpThreads, boolean wildcard, boolean onLoop)
            throws IOException {
        if (wanted == EngineOptions.UdpReads.NETTY) {
            return false;
        }
        if (wanted == EngineOptions.UdpReads.NATIVE) {
            String why = Udp.nativeUnavailable();
            if (why != null) {
                throw new IOException("native UDP reads were asked for: " + why);
            }
            return true;
        }
        // probed only when wanted: the first probe links the C functions (start-up time)
        return (udpThreads > 1 || wildcard || onLoop) && Udp.nativeUnavailable() == null;
    }

    private static boolean anyWildcard(List<InetSocketAddress> listen) {
        return listen.stream().anyMatch(a -> a.getAddress().isAnyLocalAddress());
    }

    /** Makes {@code threads - 1} answer loops where Netty reads (none for 1), replacing any there were. */
    private void answerLoops(int threads) {
        shutdownAnswerLoops();
        if (threads > 1 && !nativeUdp && !transport.reusePortSupported()) {
            // e.g. Windows: one socket per address, said once per start or reload
            String why = "resolver.udp_threads => " + threads + " needs SO_REUSEPORT, which this platform's sockets lack:"
                    + " one UDP socket per listen address";
            LOG.log(Level.WARNING, why);
            publish.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.RESOLVER, Severity.WARNING, why));
            threads = 1;
        }
        udpThreads = threads;
        if (threads > 1 && !nativeUdp) {
            answerLoops = new MultiThreadIoEventLoopGroup(threads - 1, new DefaultThreadFactory("lookout-dns-answer", true),
                    transport.ioHandlerFactory());
        }
    }

    private void bind(InetSocketAddress a) throws IOException {
        DynamicRecords dyn = pools.get();
        UdpOptions options = UdpOptions.DEFAULTS.withReusePort(udpThreads > 1).withNoPathMtuDiscovery(true)
                .withReceiveBuffer(receiveBuffer);
        Socket first = null;
        Channel server = null;
        // port 0: UDP picks the port and TCP must get the same one; another process may hold it for
        // TCP, so try a few ports (bounded)
        for (int attempt = 0; attempt < PORT_TRIES && server == null; attempt++) {
            try {
                first = nativeOnLoop ? loopNativeSocket(a, options, dyn) : nativeUdp ? nativeSocket(a, options, dyn, 1)
                        : firstNettySocket(a, options, dyn);
            } catch (IOException e) {
                throw new IOException("resolver cannot listen on " + a + " (UDP): " + e.getMessage(), e);
            }
            InetSocketAddress actual = first.endpoint().localAddress();
            try {
                server = tcp.bind(transport, actual);
            } catch (IOException e) {
                first.endpoint().close();
                first = null;
                if (a.getPort() != 0 || attempt == PORT_TRIES - 1) {
                    throw new IOException("resolver cannot listen on " + actual + " (TCP): " + e.getMessage(), e);
                }
            }
        }
        servers.add(server);
        udp.add(first);
        InetSocketAddress actual = first.endpoint().localAddress();
        bound.add(actual);
        checkReceiveBuffer(first.endpoint());
        UdpOptions shared = options.withReusePort(true);
        for (int i = 1; i < udpThreads; i++) {
            try {
                udp.add(nativeUdp ? nativeSocket(actual, shared, dyn, i + 1) : answerLoopSocket(actual, shared, dyn));
            } catch (IOException e) {
                throw new IOException("resolver cannot listen on " + actual + " (UDP socket " + (i + 1) + " of "
                        + udpThreads + "): " + e.getMessage(), e);
            }
        }
    }

    /**
     * The one socket of an address read natively on the engine's loop itself (no reader thread,
     * no hop), with the pools' own answerer (engine-loop confined).
     */
    private Socket loopNativeSocket(InetSocketAddress a, UdpOptions o, DynamicRecords dyn) throws IOException {
        UdpListener l = new UdpListener(scheduler, () -> view, dyn, intake, UdpListener.Reader.ENGINE_LOOP, publish);
        return new Socket(Udp.nativeOnLoop(io.next(), a, o, l), l);
    }

    /** The first socket read through Netty: on the engine's loop, with the pools' own answerer (engine-loop confined). */
    private Socket firstNettySocket(InetSocketAddress a, UdpOptions o, DynamicRecords dyn) throws IOException {
        UdpListener l = new UdpListener(scheduler, () -> view, dyn, intake, UdpListener.Reader.ENGINE_LOOP, publish);
        return new Socket(Udp.netty(io, a, o, l), l);
    }

    /** Another socket read through Netty, on an answer loop, with draws of its own. */
    private Socket answerLoopSocket(InetSocketAddress a, UdpOptions o, DynamicRecords dyn) throws IOException {
        UdpListener l = ownThreadListener(dyn);
        return new Socket(Udp.netty(answerLoops, a, o, l), l);
    }

    /** A socket read natively by a thread of its own, with draws of its own. */
    private Socket nativeSocket(InetSocketAddress a, UdpOptions o, DynamicRecords dyn, int n) throws IOException {
        UdpListener l = ownThreadListener(dyn);
        return new Socket(Udp.nativeRead(a, o, l, "lookout-dns-udp-" + a.getPort() + "-" + n), l);
    }

    private UdpListener ownThreadListener(DynamicRecords dyn) {
        // draws of its own: forAnswerLoop may be called from any thread, before the pools start
        return new UdpListener(scheduler, () -> view, dyn == null ? null : dyn.forAnswerLoop(), intake,
                UdpListener.Reader.OWN_THREAD, publish);
    }

    /**
     * Warns, once per socket bound, when the kernel kept less receive buffer than asked for (Linux
     * keeps twice what is asked, within {@code net.core.rmem_max}): a burst larger than it is
     * dropped before the resolver sees it (the drops are counted, {@link ListenerStatus#udpReceiveDrops}).
     */
    private void checkReceiveBuffer(UdpEndpoint e) {
        int got = e.receiveBuffer();
        if (receiveBuffer <= 0 || got < 0 || got >= 2L * receiveBuffer) {
            return;
        }
        long max = RmemMax.read();
        String warn = "resolver: the UDP receive buffer of " + HostPort.format(e.localAddress()) + " is " + got
                + " bytes, not the " + receiveBuffer + " asked for (resolver.udp_receive_buffer): the kernel caps it at"
                + " net.core.rmem_max" + (max > 0 ? " (" + max + ")" : "") + ", so a burst of more than about "
                + got / RmemMax.BYTES_PER_QUERY + " questions is dropped before the resolver sees it; raise the cap with"
                + " sysctl -w net.core.rmem_max=" + receiveBuffer + ", or run with the capability CAP_NET_ADMIN";
        LOG.log(Level.WARNING, warn);
        publish.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.RESOLVER, Severity.WARNING, warn));
    }

    private void logHowRead(List<InetSocketAddress> addresses) {
        String how = nativeOnLoop ? "read natively on the engine loop (recvmmsg/sendmmsg, no reader thread)"
                : nativeUdp ? "read natively (recvmmsg, a reader thread each)"
                : reads == EngineOptions.UdpReads.NETTY ? "read through Netty (--udp-reads=netty)"
                : "read through Netty (native reads unavailable: " + Udp.nativeUnavailable() + ")";
        LOG.log(Level.INFO, "resolver UDP on " + bound + ": " + udpThreads + " socket(s) per address, " + how);
        if (!nativeUdp && anyWildcard(addresses)) {
            String warn = "resolver listens on a wildcard address through Netty: answers leave from the address the kernel"
                    + " routes by, which on a host with several addresses may not be the one a client asked (and the client"
                    + " drops the answer); list the addresses, or run with native reads";
            LOG.log(Level.WARNING, warn);
            publish.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.RESOLVER, Severity.WARNING, warn));
        }
    }

    /** Closes every socket (the answer loops stay for the next {@link #open}); their counts are kept. */
    public void close() {
        for (Channel c : servers) {
            ChannelFuture f = c.close();
            if (!c.eventLoop().inEventLoop()) {
                // gone before the port is bound again without SO_REUSEPORT
                f.awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }
        servers.clear();
        for (Socket s : udp) {
            s.endpoint().close();
            retiredFastAnswers += s.listener().answered();
            retiredFastErrors += s.listener().fastErrors();
            if (s.listener().ownThread()) {
                retiredLoopAnswers += s.listener().answered();
            }
            if (nativeUdp) {
                retiredSendErrors += s.endpoint().sendErrors();
            }
            retiredDrops += Math.max(0, s.endpoint().receiveDrops());
        }
        udp.clear();
        bound.clear();
    }

    /** Closes every socket and ends the answer loops. */
    public void stop() {
        close();
        shutdownAnswerLoops();
    }

    /** Their sockets are closed first ({@link #close}); the threads end on their own. */
    private void shutdownAnswerLoops() {
        if (answerLoops != null) {
            answerLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            answerLoops = null;
        }
    }

    /** The addresses bound (port 0 resolved). */
    public List<InetSocketAddress> boundAddresses() {
        return List.copyOf(bound);
    }

    /** Questions the listeners' fast paths answered, ever. */
    public long fastAnswers() {
        long n = retiredFastAnswers;
        for (Socket s : udp) {
            n += s.listener().answered();
        }
        return n;
    }

    /** Everything the snapshot and metrics need of the listeners, now (engine loop). */
    public ListenerStatus status() {
        long loop = retiredLoopAnswers;
        long sendErrors = retiredSendErrors;
        long fastErrors = retiredFastErrors;
        List<LoopTrace> traces = new ArrayList<>();
        long drops = retiredDrops;
        boolean dropsKnown = !udp.isEmpty() || retiredDrops > 0;
        int buffer = -1;
        for (Socket s : udp) {
            long d = s.endpoint().receiveDrops();
            dropsKnown &= d >= 0;
            drops += Math.max(0, d);
            int b = s.endpoint().receiveBuffer();
            buffer = buffer < 0 ? b : b < 0 ? buffer : Math.min(buffer, b);
            if (s.listener().ownThread()) {
                loop += s.listener().answered();
            }
            if (nativeUdp) {
                // the metric counts natively read sockets (through Netty a failed send is a rare DEBUG line)
                sendErrors += s.endpoint().sendErrors();
            }
            fastErrors += s.listener().fastErrors();
            traces.addAll(s.listener().recentAnswers());
        }
        return new ListenerStatus(boundAddresses(), fastAnswers(), loop, udpThreads, nativeUdp, sendErrors,
                intake.malformed(), intake.denied(), intake.internalErrors() + fastErrors, tcp.open(), tcp.rejected(), traces,
                buffer, dropsKnown ? drops : -1, tcp.closedIdleCount(), nativeOnLoop);
    }
}
