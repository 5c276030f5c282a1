package lookout.engine.dns;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import io.netty.channel.EventLoopGroup;
import lookout.engine.api.Metric;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Cidr;
import lookout.engine.config.Config;
import lookout.engine.config.ResolverConfig;
import lookout.engine.core.Commands;
import lookout.engine.seams.DynamicRecords;
import lookout.engine.net.NativeDatagram;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.Transport;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.answer.Synthetic;
import lookout.engine.dns.upstream.NettyUpstreamSockets;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import lookout.engine.dns.zone.Zone;

/**
 * The DNS forwarding resolver as an engine service: UDP and TCP listeners on {@code resolver.listen},
 * the client access list, and the {@link Resolver} that does the work.
 *
 * <p>Concurrency: every field is confined to the engine loop. Listener handlers run on I/O threads
 * and hop in with {@code scheduler().run(...)}; sockets are bound synchronously here (on the engine
 * loop Netty binds inline; {@link Transport#sync}) so a bind error aborts start and port 0 is known
 * at once.
 *
 * <p>Answer loops ({@code resolver.udp_threads} above 1, like gdnsd's {@code udp_threads}): each
 * listen address gets that many UDP sockets sharing the port ({@code SO_REUSEPORT}, the kernel
 * spreading clients among them). The first is read on the engine loop, each other one on an answer
 * loop of its own. Every socket answers questions for local zones (DYNA/DYNC included) on its own
 * loop, from an immutable published view ({@link LoopView}; a zones memo per socket; the pools'
 * published states, through {@link DynamicRecords#forAnswerLoop} off the engine loop); an answer
 * loop hands every other question to the engine loop a burst at a time, and its answer leaves
 * through the first socket (same address and port). Resolver state — cache, marks, transactions —
 * stays on the engine loop.
 *
 * <p>Read natively ({@link Transport#nativeDatagrams}: the runtime image's default on Linux from
 * {@code udp_threads => 2} up), every UDP socket — the first too — has a reader thread of its own
 * blocked in {@code recvmmsg}
 * ({@link NativeUdp}, {@link NativeDatagram}), which answers as an answer loop does; what it hands
 * to the engine loop is answered back through the same socket. This is gdnsd's own I/O loop: no
 * selector, no per-datagram objects, and the one change that took DYNA answers to gdnsd's rate
 * (bench/results/pools.md, fifth session).
 */
public final class ResolverService implements Service, Commands.Resolver {

    private static final Logger LOG = System.getLogger("lookout.engine.dns");
    private static final long TCP_IDLE_NANOS = 30_000_000_000L;
    /** Client TCP connections held at once; more are closed at once (a slow-loris guard). */
    static final int MAX_TCP_CLIENTS = 1024;
    /**
     * Questions one TCP connection may have unanswered at once (RFC 7766 §6.2.1.1 pipelining).
     * Beyond it the connection's further queries wait, unread, until answers go out, so that one
     * client cannot take the whole in-flight ceiling (seed 000 §4.6.5) from the others.
     */
    static final int MAX_TCP_PIPELINE = 64;

    private ServiceContext ctx;
    private Scheduler scheduler;
    private Resolver resolver;
    private Function<EventLoopGroup, UpstreamSockets> socketFactory = NettyUpstreamSockets::new;
    private final List<Channel> listeners = new ArrayList<>();
    /** Loops reading the extra UDP sockets; null when {@code udp_threads} is 1. */
    private EventLoopGroup answerLoops;
    private int udpThreads = 1;
    private final List<UdpSocket> udpHandlers = new ArrayList<>();
    /** The natively read sockets ({@link #nativeUdp}), closed with the listeners. */
    private final List<NativeUdp> nativeSockets = new ArrayList<>();
    /** Whether UDP listeners are read natively ({@link Transport#nativeDatagrams}), decided at each bind. */
    private boolean nativeUdp;
    /** What answer loops answer from; replaced on the engine loop on start and reload. */
    private volatile LoopView loopView;
    // written by the sockets' loops, read by snapshots: local answers on the fast path (all
    // sockets), those of them on answer loops, and fast-path failures (bugs)
    /** Fast-path answers of sockets closed since (engine loop); the open ones count their own. */
    private long retiredFastAnswers;
    private long retiredLoopAnswers;
    private long retiredSendErrors;
    private final LongAdder fastErrors = new LongAdder();
    private final List<InetSocketAddress> bound = new ArrayList<>();
    private List<Cidr> allow = List.of();
    private Scheduler.Cancellable rateTimer = Scheduler.Cancellable.NONE;
    private long lastQueries;
    private double queriesPerSecond;
    private long malformed;
    private long denied;
    private long internalErrors;
    private int tcpClients;
    private long tcpRejected;

    @Override
    public String name() {
        return "resolver";
    }

    @Override
    public void start(ServiceContext context, Config config) throws Exception {
        this.ctx = context;
        this.scheduler = context.scheduler();
        ResolverConfig rc = config.resolver();
        resolver = new Resolver(scheduler, context.random(), context::publish, socketFactory.apply(context.io()),
                () -> ctx.seam(DynamicRecords.class), rc, config.zones());
        allow = rc.allow();
        publishLoopView(rc);
        nativeUdp = readNatively(ctx.options().udpReads(), rc.udpThreads(), anyWildcard(rc.listen()));
        answerLoops(rc.udpThreads());
        bind(rc.listen());
        rateTimer = scheduler.scheduleAtFixedRate(() -> {
            long q = queriesTotal();
            queriesPerSecond = q - lastQueries;
            lastQueries = q;
        }, 1, 1, TimeUnit.SECONDS);
    }

    /** Questions received: the resolver's and those answered on the sockets' fast path. */
    private long queriesTotal() {
        return resolver.queries + fastAnswers();
    }

    /** What an answer loop needs to answer a local question: all immutable. */
    private record LoopView(LocalZones zones, List<Cidr> allow, boolean searchesSingleLabels) {
    }

    private void publishLoopView(ResolverConfig rc) {
        loopView = new LoopView(resolver.zones, rc.allow(), !rc.search().isEmpty());
    }

    /** Makes {@code threads - 1} answer loops (none for 1), replacing any there were. */
    private void answerLoops(int threads) {
        shutdownAnswerLoops();
        if (threads > 1 && !nativeUdp && !ctx.transport().reusePortSupported()) {
            // e.g. Windows: one socket per address, said once per start or reload
            String why = "resolver.udp_threads => " + threads + " needs SO_REUSEPORT, which this platform's sockets lack:"
                    + " one UDP socket per listen address";
            LOG.log(Level.WARNING, why);
            ctx.publish(new lookout.engine.api.EngineEvent.Notice(scheduler.now(), lookout.engine.api.Subsystem.RESOLVER,
                    lookout.engine.api.Severity.WARNING, why));
            threads = 1;
        }
        udpThreads = threads;
        if (threads > 1 && !nativeUdp) {
            answerLoops = new io.netty.channel.MultiThreadIoEventLoopGroup(threads - 1,
                    new io.netty.util.concurrent.DefaultThreadFactory("lookout-dns-answer", true),
                    ctx.transport().ioHandlerFactory());
        }
    }

    /** Tests: replaces the upstream socket opener (e.g. one that throws EMFILE). Engine loop only. */
    void useSockets(UpstreamSockets sockets) {
        resolver.sockets(sockets);
    }

    /** Tests: the addresses actually bound (port 0 resolved). */
    public List<InetSocketAddress> boundAddresses() {
        return List.copyOf(bound);
    }

    Resolver resolver() {
        return resolver;
    }

    /** Client packets dropped or answered FORMERR (engine loop). */
    long malformed() {
        return malformed;
    }

    /** Exceptions caught while handling a client packet: always 0 unless there is a bug. */
    long internalErrors() {
        return internalErrors + fastErrors.sum();
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        ResolverConfig rc = after.resolver();
        resolver.reconfigure(rc, after.zones());
        allow = rc.allow();
        publishLoopView(rc);
        if (!before.resolver().listen().equals(rc.listen()) || before.resolver().udpThreads() != rc.udpThreads()) {
            closeListeners();
            nativeUdp = readNatively(ctx.options().udpReads(), rc.udpThreads(), anyWildcard(rc.listen()));
            answerLoops(rc.udpThreads());
            bind(rc.listen());
        }
    }

    @Override
    public void stop() {
        rateTimer.cancel();
        closeListeners();
        shutdownAnswerLoops();
    }

    /** Their sockets are closed first ({@link #closeListeners}); the threads end on their own. */
    private void shutdownAnswerLoops() {
        if (answerLoops != null) {
            answerLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            answerLoops = null;
        }
    }

    private void closeListeners() {
        for (Channel c : listeners) {
            io.netty.channel.ChannelFuture f = c.close();
            if (!c.eventLoop().inEventLoop()) {
                // an answer loop's socket: gone before the port is bound again without SO_REUSEPORT
                f.awaitUninterruptibly(2, TimeUnit.SECONDS);
            }
        }
        listeners.clear();
        for (NativeUdp u : nativeSockets) {
            u.close();
            retiredSendErrors += u.sendErrors.sum();
        }
        nativeSockets.clear();
        bound.clear();
        retiredFastAnswers = fastAnswers();
        retiredLoopAnswers = loopAnswers();
        udpHandlers.clear();
    }

    /** Local answers the sockets' fast paths gave, ever (engine loop). */
    private long fastAnswers() {
        long n = retiredFastAnswers;
        for (UdpSocket h : udpHandlers) {
            n += h.answered.get();
        }
        return n;
    }

    /** Answers the natively read sockets could not send, ever. */
    private long udpSendErrors() {
        long n = retiredSendErrors;
        for (NativeUdp u : nativeSockets) {
            n += u.sendErrors.sum();
        }
        return n;
    }

    /** The part of {@link #fastAnswers} given on answer loops. */
    private long loopAnswers() {
        long n = retiredLoopAnswers;
        for (UdpSocket h : udpHandlers) {
            if (h instanceof AnswerLoopHandler || h instanceof NativeUdp) {
                n += h.answered.get();
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ listeners

    private void bind(List<InetSocketAddress> addresses) throws IOException {
        Transport transport = ctx.transport();
        DynamicRecords pools = ctx.seam(DynamicRecords.class);
        try {
            for (InetSocketAddress a : addresses) {
                Channel udp = null;
                NativeDatagram first = null;
                Channel tcp = null;
                InetSocketAddress actual = null;
                UdpHandler[] primary = new UdpHandler[1];
                // port 0: UDP picks the port and TCP must get the same one; another process may
                // hold it for TCP, so try a few ports (bounded)
                for (int attempt = 0; attempt < 20 && tcp == null; attempt++) {
                    try {
                        if (nativeUdp) {
                            first = NativeDatagram.bind(a, udpThreads > 1, 0);
                            actual = first.localAddress();
                        } else {
                            // a burst of queries is read in one go (recvmmsg on epoll) and its answers
                            // leave in one go at the end of the burst (UdpHandler.endBurst)
                            io.netty.channel.socket.DatagramChannel u = Transport.bind(ctx.io(),
                                    transport.batchedDatagram(a.getAddress(), 64), a, ch -> {
                                        if (udpThreads > 1) {
                                            transport.reusePort(ch);
                                        }
                                        // on the engine loop: the pools' own answerer (engine loop confined)
                                        primary[0] = new UdpHandler(ch, pools);
                                        ch.pipeline().addLast(primary[0].handler);
                                    });
                            udp = u;
                            actual = u.localAddress();
                        }
                    } catch (IOException e) {
                        throw new IOException("resolver cannot listen on " + a + " (UDP): " + e.getMessage(), e);
                    }
                    try {
                        tcp = Transport.bind(ctx.io(), transport.serverSocket(a.getAddress()),
                                new InetSocketAddress(actual.getAddress(), actual.getPort()), ch -> {
                                    ch.config().setReuseAddress(true);
                                    ch.config().setBacklog(128);
                                    ch.pipeline().addLast(new Acceptor());
                                });
                    } catch (IOException e) {
                        if (first != null) {
                            first.close();
                            first = null;
                        } else {
                            udp.close();
                        }
                        if (a.getPort() != 0 || attempt == 19) {
                            throw new IOException("resolver cannot listen on " + actual + " (TCP): " + e.getMessage(), e);
                        }
                    }
                }
                listeners.add(tcp);
                bound.add(actual);
                if (nativeUdp) {
                    for (int i = 0; i < udpThreads; i++) {
                        NativeDatagram s = first;
                        if (i > 0) {
                            try {
                                s = NativeDatagram.bind(actual, true, 0);
                            } catch (IOException e) {
                                throw new IOException("resolver cannot listen on " + actual + " (UDP socket " + (i + 1) + " of "
                                        + udpThreads + "): " + e.getMessage(), e);
                            }
                        }
                        NativeUdp u = new NativeUdp(s, pools, "lookout-dns-udp-" + actual.getPort() + "-" + (i + 1));
                        nativeSockets.add(u);
                        udpHandlers.add(u);
                        u.start();
                    }
                    continue;
                }
                listeners.add(udp);
                udpHandlers.add(primary[0]);
                for (int i = 1; i < udpThreads; i++) {
                    try {
                        Channel extra = Transport.bind(answerLoops, transport.batchedDatagram(a.getAddress(), 64), actual, ch -> {
                            transport.reusePort(ch);
                            AnswerLoopHandler h = new AnswerLoopHandler(ch, primary[0], pools);
                            udpHandlers.add(h);
                            ch.pipeline().addLast(h.handler);
                        });
                        listeners.add(extra);
                    } catch (IOException e) {
                        throw new IOException("resolver cannot listen on " + actual + " (UDP socket " + (i + 1) + " of "
                                + udpThreads + "): " + e.getMessage(), e);
                    }
                }
            }
        } catch (IOException e) {
            closeListeners();
            throw e;
        }
        if (!addresses.isEmpty()) {
            String how = nativeUdp ? "read natively (recvmmsg, a reader thread each)"
                    : ctx.options().udpReads() == lookout.engine.api.EngineOptions.UdpReads.NETTY ? "read through Netty (--udp-reads=netty)"
                    : udpThreads > 1 || anyWildcard(addresses)
                    ? "read through Netty (native reads unavailable: " + Transport.nativeDatagramsUnavailable() + ")"
                    : "read through Netty (one socket: read on the engine loop, which answers cache hits without a hop;"
                    + " native reads from udp_threads 2)";
            LOG.log(Level.INFO, "resolver UDP on " + bound + ": " + udpThreads + " socket(s) per address, " + how);
            if (!nativeUdp && anyWildcard(addresses)) {
                String warn = "resolver listens on a wildcard address through Netty: answers leave from the address the kernel"
                        + " routes by, which on a host with several addresses may not be the one a client asked (and the client"
                        + " drops the answer); list the addresses, or run with native reads";
                LOG.log(Level.WARNING, warn);
                ctx.publish(new lookout.engine.api.EngineEvent.Notice(scheduler.now(), lookout.engine.api.Subsystem.RESOLVER,
                        lookout.engine.api.Severity.WARNING, warn));
            }
        }
    }

    /**
     * Whether the UDP listeners are read natively ({@link lookout.engine.net.Udp#nativeRead}: a reader
     * thread per socket blocked in {@code recvmmsg}, as gdnsd does) rather than through Netty, for
     * {@code udpThreads} sockets per address: {@code AUTO} natively from two sockets up, or when a
     * listen address is a wildcard (only native reads answer from the address each datagram was sent
     * to), where the JVM allows it; one socket on a specific address is best read on the engine loop
     * itself, where cache hits and forwarding are answered without a hop between threads.
     * {@code NATIVE} always (an error saying why where it cannot be done), {@code NETTY} never.
     */
    static boolean readNatively(lookout.engine.api.EngineOptions.UdpReads wanted, int udpThreads, boolean wildcard)
            throws IOException {
        if (wanted == lookout.engine.api.EngineOptions.UdpReads.NETTY) {
            return false;
        }
        if (wanted == lookout.engine.api.EngineOptions.UdpReads.NATIVE) {
            String why = Transport.nativeDatagramsUnavailable();
            if (why != null) {
                throw new IOException("native UDP reads were asked for: " + why);
            }
            return true;
        }
        // probed only when wanted: the first probe links the C functions (start-up time)
        return (udpThreads > 1 || wildcard) && Transport.nativeDatagramsUnavailable() == null;
    }

    private static boolean anyWildcard(List<InetSocketAddress> listen) {
        return listen.stream().anyMatch(a -> a.getAddress().isAnyLocalAddress());
    }

    private boolean allowed(InetAddress a) {
        return contains(allow, a);
    }

    private static boolean contains(List<Cidr> allow, InetAddress a) {
        for (Cidr c : allow) {
            if (c.contains(a)) {
                return true;
            }
            // an IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d; Java maps it already
        }
        return false;
    }

    /**
     * One UDP socket of a listen address, read by its own thread: on Netty ({@link UdpHandler}) the
     * engine loop for the first socket of each address, an answer loop for the others
     * ({@link AnswerLoopHandler}); read natively ({@link NativeUdp}) a reader thread of its own for
     * every socket.
     *
     * <p>Local questions take a fast path on the socket's own loop ({@link #answerHere}): the same
     * conditions and answer as {@link Resolver#question}'s local-zone path, from the published
     * {@link LoopView}, with a zones memo of the socket's own, without the resolver's per-question
     * bookkeeping. The first socket takes it only where its loop is the engine loop (production; with
     * a virtual clock in tests the engine loop is another thread, and every question goes there).
     * Everything else goes to {@link #onQuery} on the engine loop.
     */
    private abstract class UdpSocket {
        // the socket's thread only: true between the first datagram of a read burst and its end
        boolean reading;
        /** Draws DYNA/DYNC answers on this socket's loop (the engine's own on the engine loop); null: no pools. */
        private final DynamicRecords draws;
        // the socket's loop only
        private LoopView seen;
        private LocalZones zones;
        /** Plans of questions answered here before, by their bytes (cleared with a new view). */
        private final QuestionMemo<Remembered> remembered = new QuestionMemo<>();
        /** The current datagram, read for the fast path; {@link #plain}: it is of the usual shape. */
        final PlainQuery query = new PlainQuery();
        /** Where the fast path composes an answer (the largest a UDP client may take). */
        final byte[] reply = new byte[65535];
        private boolean plain;
        /** The last client the allow list took, in view {@link #seen}. */
        private InetAddress allowedLast;
        private int nextTrace;
        /** The question {@link #answerHere} decoded and did not answer, so the engine need not decode it again. */
        ClientQuery decoded;
        /** Local answers this socket's fast path gave: written by its loop only, read by snapshots. */
        final java.util.concurrent.atomic.AtomicLong answered = new java.util.concurrent.atomic.AtomicLong();
        /** When the current read burst began (clock reads are per burst: answers in it take microseconds). */
        private long burstStarted;
        /** Local answers given here, written by this loop (release), read by snapshots on the engine loop. */
        final java.util.concurrent.atomic.AtomicReferenceArray<LoopTrace> recent =
                new java.util.concurrent.atomic.AtomicReferenceArray<>(LOOP_TRACES);

        UdpSocket(DynamicRecords draws) {
            this.draws = draws;
        }

        /** Sends an answer made elsewhere ({@link Responses#stamp}, the engine loop). */
        abstract void send(byte[] r, InetSocketAddress to);

        /** {@link #send(byte[], InetSocketAddress)} from the address {@code via} names where the socket can say. */
        void send(byte[] r, InetSocketAddress to, byte[] via) {
            send(r, to);
        }

        /** Sends the first {@code length} bytes of {@link #reply} (composed there). */
        abstract void sendReply(int length, InetSocketAddress to);

        /** The end of a read burst: what was written in it leaves. */
        abstract void endBurst();

        /** Whether the calling thread is the one that reads this socket. */
        abstract boolean onOwnThread();

        /**
         * One datagram from {@code sender}: in {@link PlainQuery#raw} ({@code len} bytes) when
         * {@code large} is null, else {@code large} itself (longer than the fast path reads). Bugs
         * are counted and the datagram goes to the engine loop, which answers it on its own.
         */
        final void received(byte[] large, int len, InetSocketAddress sender) {
            if (!reading) {
                reading = true;
                burstStarted = scheduler.nanoTime();
            }
            decoded = null;
            boolean fast = fastPath();
            plain = false;
            boolean copied = large == null;
            if (copied && fast) {
                query.length = len;
                plain = query.read();
                try {
                    if (plain && answerRemembered(sender)) {
                        return;
                    }
                } catch (RuntimeException e) {
                    fastErrors.increment();
                    LOG.log(Level.WARNING, "resolver: local fast path failed", e);
                    plain = false;
                }
            }
            byte[] bytes = copied ? Arrays.copyOf(query.raw, len) : large;
            boolean answered = false;
            if (fast) {
                try {
                    answered = answerHere(bytes, sender);
                } catch (RuntimeException e) {
                    // a bug, not bad input: the engine loop gets the question and its own accounting
                    fastErrors.increment();
                    LOG.log(Level.WARNING, "resolver: local fast path failed", e);
                }
            }
            if (!answered) {
                dispatch(bytes, sender);
            }
        }

        /** Whether local questions may be answered on this thread. */
        abstract boolean fastPath();

        /** A question the fast path did not answer: to the engine loop. */
        void dispatch(byte[] bytes, InetSocketAddress sender) {
            ClientQuery q = decoded;
            if (q != null) {
                scheduler.run(() -> onDecoded(q, sender, r -> send(r, sender)));
            } else {
                scheduler.run(() -> onQuery(bytes, sender, false, r -> send(r, sender)));
            }
        }

        private void countLocal() {
            // one writer (this loop): a plain increment published, no atomic read-modify-write
            answered.lazySet(answered.get() + 1);
        }

        /**
         * True when the question was a local one and is answered: class IN, not a synthetic name,
         * no search list to apply, a local zone holds the name (the conditions of the local-zone
         * path in {@link Resolver#question}); anything doubtful (refused clients, malformed
         * packets, other opcodes, EDNS versions, meta types) is left to the engine loop.
         */
        final boolean answerHere(byte[] bytes, InetSocketAddress sender) {
            LoopView v = loopView;
            if (bytes.length < 12 || (bytes[2] & 0x80) != 0 || sender == null || !allowed(v, sender.getAddress())) {
                return false;
            }
            ClientQuery q;
            try {
                q = ClientQuery.decode(bytes, bytes.length, false);
            } catch (WireException e) {
                return false;
            }
            if (q == null || q.opcode() != 0 || (q.edns && q.ednsVersion > 0)
                    || q.qtype == RrType.OPT || (q.qtype >= 128 && q.qtype <= 255 && q.qtype != RrType.ANY)) {
                return false; // the engine loop answers it with the error it deserves
            }
            decoded = q;
            if (q.qclass != RrType.IN) {
                return false;
            }
            String name = q.qname;
            if (Synthetic.covers(name) || (v.searchesSingleLabels() && Names.labelCount(name) == 1)) {
                return false;
            }
            LocalZones zones = zonesFor(v);
            Zone z = zones == null ? null : zones.find(name);
            if (z == null) {
                return false;
            }
            Answer a = zones.answer(z, name, q.qtype, q.qclass, draws);
            if (plain) {
                // the same question (name, type) in the same view is answered from the memo next time
                remembered.put(query, new Remembered(zones.lastPlan(), name));
            }
            send(Responses.stamp(a.encoded, q, 0, -1, null), sender);
            countLocal();
            trace(new LoopTrace(q, q.qname, q.qtype, a, null, sender, burstStarted, scheduler.nanoTime()));
            return true;
        }

        /** The zones of view {@code v} with this socket's memos (new ones when the view changed). */
        private LocalZones zonesFor(LoopView v) {
            if (seen != v) {
                seen = v;
                zones = v.zones().isEmpty() ? null : new LocalZones(v.zones());
                remembered.clear();
                allowedLast = null;
            }
            return zones;
        }

        /** Whether the view's allow list takes {@code a}; the last client allowed is remembered. */
        private boolean allowed(LoopView v, InetAddress a) {
            if (seen == v && a.equals(allowedLast)) {
                return true;
            }
            if (!contains(v.allow(), a)) {
                return false;
            }
            if (seen == v) {
                allowedLast = a;
            }
            return true;
        }

        private void trace(LoopTrace t) {
            recent.setRelease(nextTrace++ & (LOOP_TRACES - 1), t);
        }

        /**
         * The fast path proper: a question of the usual shape ({@link #query}, read) that
         * {@link #answerHere} answered before in this view, answered again from its plan without
         * decoding — a fixed answer stamped, a DYNA/DYNC draw written — straight into the
         * outgoing buffer, exactly as {@link Responses#stamp} would. False (nothing sent, nothing
         * counted) when there is no plan, so the general path answers.
         */
        private boolean answerRemembered(InetSocketAddress sender) {
            LoopView v = loopView;
            if (sender == null || zonesFor(v) == null || remembered.size() == 0) {
                return false;
            }
            Remembered r = remembered.get(query);
            if (r == null || !allowed(v, sender.getAddress())) {
                return false;
            }
            LocalZones.Plan p = r.plan();
            PlainQuery q = query;
            Answer a = p.fixed();
            DynamicRecords.Answer d = null;
            if (a == null) {
                d = LocalZones.drawFrom(p.dyn(), q.qtype, draws);
                if (d == null || d.cname() != null || !writeAddresses(d, sender)) {
                    a = LocalZones.drawn(p.zone(), p.dyn(), r.qname(), q.qtype, RrType.IN, d);
                    d = null;
                }
            }
            if (a != null && !writeStamped(a, sender)) {
                // too big for the client: the general stamp cuts it (TC)
                ClientQuery cq = decodeAgain();
                if (cq == null) {
                    return false;
                }
                send(Responses.stamp(a.encoded, cq, 0, -1, null), sender);
            }
            countLocal();
            trace(new LoopTrace(null, r.qname(), q.qtype, a, d, sender, burstStarted, scheduler.nanoTime()));
            return true;
        }

        private ClientQuery decodeAgain() {
            try {
                return ClientQuery.decode(Arrays.copyOf(query.raw, query.length), query.length, false);
            } catch (WireException e) {
                return null; // cannot happen for a query PlainQuery read
            }
        }

        /** {@link Responses#stampInto} for {@link #query}, sent; false (nothing sent) when too big. */
        private boolean writeStamped(Answer a, InetSocketAddress to) {
            return sendComposed(Responses.stampInto(reply, a.encoded, query), to);
        }

        /** {@link Responses#addressesInto} for {@link #query}, sent; false (nothing sent) for NODATA or too big. */
        private boolean writeAddresses(DynamicRecords.Answer d, InetSocketAddress to) {
            return sendComposed(Responses.addressesInto(reply, query, d.addresses(), d.ttl()), to);
        }

        /** The first {@code length} bytes of {@link #reply}, composed there; false when -1 (nothing composed). */
        private boolean sendComposed(int length, InetSocketAddress to) {
            if (length < 0) {
                return false;
            }
            sendReply(length, to);
            return true;
        }

        /**
         * Engine loop: questions an answer loop handed over, answered as one burst (written as
         * they come, flushed once) through this socket, which has the same address and port.
         */
        final void answerHanded(List<Handed> batch) {
            // the flags belong to the socket's loop: only there may the batch use them (with a
            // virtual scheduler in tests the engine loop is another thread and sends flush at once)
            boolean own = onOwnThread();
            if (own) {
                reading = true;
            }
            try {
                for (Handed h : batch) {
                    if (h.q() != null) {
                        onDecoded(h.q(), h.sender(), r -> send(r, h.sender(), h.via()));
                    } else {
                        onQuery(h.bytes(), h.sender(), false, r -> send(r, h.sender(), h.via()));
                    }
                }
            } finally {
                if (own) {
                    reading = false;
                    endBurst();
                }
            }
        }
    }

    /**
     * A socket read by Netty: its channel's handler. The first socket of an address takes the fast
     * path only where its loop is the engine loop (production; with a virtual clock in tests the
     * engine loop is another thread, and every question goes there).
     */
    private class UdpHandler extends UdpSocket {
        final Channel channel;
        private int unflushed;
        /** What the channel's pipeline holds: reads and the end of each read burst come here. */
        final ChannelInboundHandlerAdapter handler = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                read(msg);
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext c) {
                endBurst();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
                // a send error to one client must not close the listener
                LOG.log(Level.DEBUG, "resolver UDP listener: " + cause);
            }
        };

        UdpHandler(Channel channel, DynamicRecords draws) {
            super(draws);
            this.channel = channel;
        }

        @Override
        boolean fastPath() {
            return scheduler.inLoop();
        }

        @Override
        boolean onOwnThread() {
            return channel.eventLoop().inEventLoop();
        }

        /**
         * Answers answered inside the read batch (cache hits, local zones) are written and flushed
         * {@link #FLUSH_EVERY} at a time and at the end of the batch; later ones (upstream
         * replies) are flushed at once.
         */
        @Override
        final void send(byte[] r, InetSocketAddress to) {
            // straight into a pooled direct buffer: the native transport sends only direct memory
            // and would otherwise wrap, copy and release a heap buffer per answer itself
            write(channel.alloc().directBuffer(r.length).writeBytes(r), to);
        }

        @Override
        final void sendReply(int length, InetSocketAddress to) {
            // one copy, one bounds check
            write(channel.alloc().directBuffer(length).writeBytes(reply, 0, length), to);
        }

        private void write(ByteBuf out, InetSocketAddress to) {
            DatagramPacket p = new DatagramPacket(out, to);
            if (reading && channel.eventLoop().inEventLoop()) {
                channel.write(p, channel.voidPromise());
                if (++unflushed == FLUSH_EVERY) {
                    unflushed = 0;
                    channel.flush();
                }
            } else {
                channel.writeAndFlush(p, channel.voidPromise());
            }
        }

        @Override
        void endBurst() {
            reading = false;
            if (unflushed > 0) {
                unflushed = 0;
                channel.flush();
            }
        }

        private void read(Object msg) {
            try {
                if (!(msg instanceof DatagramPacket p)) {
                    return;
                }
                ByteBuf b = p.content();
                int len = b.readableBytes();
                byte[] large = null;
                if (len <= PlainQuery.MAX_LENGTH) {
                    // one bulk copy into the socket's scratch: reading a direct buffer byte by byte
                    // checks bounds and liveness on every byte
                    b.getBytes(b.readerIndex(), query.raw, 0, len);
                } else {
                    large = new byte[len];
                    b.getBytes(b.readerIndex(), large);
                }
                received(large, len, p.sender());
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /**
     * A question an answer loop leaves to the engine loop ({@code q}: already decoded, or null;
     * {@code via}: what makes its answer leave from the address it was sent to, or null).
     */
    private record Handed(byte[] bytes, InetSocketAddress sender, ClientQuery q, byte[] via) {
    }

    /** A question's plan in a socket's memo, with the name it was asked by (lower case). */
    private record Remembered(LocalZones.Plan plan, String qname) {
    }

    /**
     * A local answer given on a socket's fast path, kept for the recent traces: the query decoded
     * or only its name and type, the answer or the draw it was written from (built when a
     * snapshot asks: traces are read far less often than answers are given).
     */
    private record LoopTrace(ClientQuery decoded, String qname, int qtype, Answer given, DynamicRecords.Answer drawn,
                             InetSocketAddress client, long startedAt, long endedAt) {
        ClientQuery q() {
            return decoded != null ? decoded : ClientQuery.local(qname, qtype);
        }

        Answer a() {
            if (given != null) {
                return given;
            }
            return Answer.addresses(qname, qtype, RrType.IN, drawn.ttl(), LocalZones.carried(drawn.addresses(), qtype));
        }
    }

    /**
     * Answers written in a read burst are sent (one sendmmsg) this many at a time, as gdnsd does:
     * the first answers of a long burst leave sooner. CPU per query is the same as with one
     * sendmmsg per burst of 64 within this machine's noise (bench/results/pools.md, fourth session).
     */
    static final int FLUSH_EVERY = 16;

    /** Traces each UDP socket keeps of its fast-path answers (a power of two). */
    static final int LOOP_TRACES = 256;

    /**
     * An extra UDP socket of a listen address, read on an answer loop: local questions are
     * answered here, with draws of its own ({@link DynamicRecords#forAnswerLoop}); every other
     * question is handed to the engine loop at the end of the read burst, in one task, and answered
     * there through the first socket.
     */
    private final class AnswerLoopHandler extends UdpHandler {
        private final UdpHandler primary;
        private List<Handed> handed = new ArrayList<>();

        AnswerLoopHandler(Channel channel, UdpHandler primary, DynamicRecords pools) {
            // draws of its own: forAnswerLoop may be called from any thread, before the pools start
            super(channel, pools == null ? null : pools.forAnswerLoop());
            this.primary = primary;
        }

        @Override
        boolean fastPath() {
            return true;
        }

        @Override
        void dispatch(byte[] bytes, InetSocketAddress sender) {
            handed.add(new Handed(bytes, sender, decoded, null));
        }

        @Override
        void endBurst() {
            // handed over before the burst's own answers leave (as NativeUdp.endBurst)
            if (!handed.isEmpty()) {
                List<Handed> batch = handed;
                handed = new ArrayList<>();
                scheduler.execute(() -> primary.answerHanded(batch));
            }
            super.endBurst();
        }
    }

    /**
     * A socket read natively ({@link NativeDatagram}), as gdnsd reads its own: a reader thread of
     * its own blocks in {@code recvmmsg}, answers local questions as an answer loop does (published
     * view, draws of its own) and sends a burst's answers with one {@code sendmmsg}; every other
     * question is handed to the engine loop at the end of the burst, in one task, and answered from
     * there with {@code sendto} (any thread may send on a UDP socket). No selector wake-ups, no
     * per-datagram objects: bench/results/pools.md, fifth session.
     */
    private final class NativeUdp extends UdpSocket implements Runnable {
        final NativeDatagram socket;
        private final Thread thread;
        private List<Handed> handed = new ArrayList<>();
        /** The reader thread's memory (made there: it is confined to it). */
        private NativeDatagram.Batch batch;
        /** The datagram being answered in the burst, and its sender (answers to it reuse its name). */
        private int current = -1;
        private InetSocketAddress currentSender;
        /** Answers the kernel would not send (a full buffer, an address it cannot reach). */
        final LongAdder sendErrors = new LongAdder();
        /**
         * Where answers to handed questions given in one engine-loop task go, sent in one
         * {@code sendmmsg} at its end (cache hits come in bursts too); guarded by itself.
         */
        private final NativeDatagram.Batch outbox;
        /** The engine-loop task answering handed questions is running (guarded by {@link #outbox}). */
        private boolean handing;
        private long receiveErrors;
        private long reportedSendErrors;

        NativeUdp(NativeDatagram socket, DynamicRecords pools, String name) {
            // draws of its own: forAnswerLoop may be called from any thread, before the pools start
            super(pools == null ? null : pools.forAnswerLoop());
            this.socket = socket;
            outbox = socket.new Batch(512, true);
            thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        /** Wakes the reader and waits for it (bounded); frees the socket once it has ended. */
        void close() {
            socket.shutdown();
            if (thread.isAlive()) {
                try {
                    thread.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (thread.isAlive()) {
                // never freed under a thread that may still touch it: the descriptor leaks instead
                LOG.log(Level.WARNING, "resolver: UDP reader " + thread.getName() + " did not end; its socket is left open");
            } else {
                synchronized (outbox) {
                    outbox.close();
                }
                socket.close();
            }
        }

        @Override
        boolean fastPath() {
            return true;
        }

        @Override
        boolean onOwnThread() {
            return Thread.currentThread() == thread;
        }

        @Override
        void dispatch(byte[] bytes, InetSocketAddress sender) {
            handed.add(new Handed(bytes, sender, decoded, current >= 0 && batch != null ? batch.via(current) : null));
        }

        @Override
        void send(byte[] r, InetSocketAddress to) {
            out(r, r.length, to, null);
        }

        @Override
        void send(byte[] r, InetSocketAddress to, byte[] via) {
            out(r, r.length, to, via);
        }

        @Override
        void sendReply(int length, InetSocketAddress to) {
            out(reply, length, to, null);
        }

        private void out(byte[] data, int length, InetSocketAddress to, byte[] via) {
            if (reading && onOwnThread()) {
                if (to == currentSender && current >= 0) {
                    batch.answer(current, data, length);
                } else {
                    batch.answer(to, via, data, length);
                }
                return;
            }
            synchronized (outbox) {
                if (handing) {
                    if (!socket.isShut()) { // closed with the socket (under this lock)
                        outbox.answer(to, via, data, length);
                    }
                    return;
                }
            }
            // an answer on its own (an upstream reply, a timeout's SERVFAIL): at once
            if (!socket.sendTo(data, length, to, via)) {
                sendErrors.increment();
            }
        }

        /** Engine loop: a burst handed over, its answers sent together at the end. */
        private void answerGiven(List<Handed> given) {
            synchronized (outbox) {
                handing = true;
            }
            try {
                answerHanded(given);
            } finally {
                synchronized (outbox) {
                    handing = false;
                    if (!socket.isShut()) {
                        long before = outbox.sendErrors();
                        outbox.flush();
                        sendErrors.add(outbox.sendErrors() - before);
                    }
                }
            }
        }

        @Override
        void endBurst() {
            reading = false;
            // handed over first: the engine loop starts on them while the kernel sends, and whatever
            // a client sees answered from this burst was read after everything the burst handed on
            if (!handed.isEmpty()) {
                List<Handed> given = handed;
                handed = new ArrayList<>();
                scheduler.execute(() -> answerGiven(given));
            }
            if (onOwnThread() && batch != null) {
                batch.flush();
                long lost = batch.sendErrors();
                if (lost != reportedSendErrors) {
                    sendErrors.add(lost - reportedSendErrors);
                    reportedSendErrors = lost;
                }
            }
        }

        @Override
        public void run() {
            try (NativeDatagram.Batch b = socket.new Batch(Transport.BATCHED_DATAGRAM_SIZE)) {
                batch = b;
                while (!socket.isShut()) {
                    int n = b.receive();
                    if (n < 0) {
                        if (socket.isShut()) {
                            break;
                        }
                        if (receiveErrors++ == 0) {
                            LOG.log(Level.WARNING, "resolver: UDP receive on " + socket.localAddress() + " failed: " + b.error());
                        }
                        // not a timer: a pause so that a socket in a lasting error state does not spin
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                        continue;
                    }
                    for (int i = 0; i < n; i++) {
                        one(b, i);
                    }
                    current = -1;
                    currentSender = null;
                    try {
                        endBurst();
                    } catch (RuntimeException e) {
                        fastErrors.increment();
                        LOG.log(Level.WARNING, "resolver: UDP burst end failed", e);
                    }
                }
            } catch (Throwable t) {
                // the socket stays bound but unread: said loudly (log and console), the engine goes on
                String why = "resolver: UDP reader " + thread.getName() + " on " + socket.localAddress() + " ended: " + t
                        + "; its share of the clients goes unanswered until the listeners are rebound (reload with other"
                        + " listen addresses or udp_threads, or restart)";
                LOG.log(Level.ERROR, why, t);
                scheduler.execute(() -> ctx.publish(new lookout.engine.api.EngineEvent.Notice(scheduler.now(),
                        lookout.engine.api.Subsystem.RESOLVER, lookout.engine.api.Severity.ERROR, why)));
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
                byte[] large = null;
                if (len <= PlainQuery.MAX_LENGTH) {
                    b.copy(i, query.raw, len);
                } else {
                    large = new byte[len];
                    b.copy(i, large, len);
                }
                received(large, len, sender);
            } catch (RuntimeException e) {
                fastErrors.increment();
                LOG.log(Level.WARNING, "resolver: UDP datagram failed", e);
            }
        }
    }

    /** Accepts TCP clients on the server channel's I/O thread and registers each one. */
    @ChannelHandler.Sharable
    private final class Acceptor extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            io.netty.channel.socket.SocketChannel child = (io.netty.channel.socket.SocketChannel) msg;
            InetSocketAddress remote = child.remoteAddress();
            TcpClient client = new TcpClient(child, remote);
            child.pipeline().addLast(new LengthFieldBasedFrameDecoder(65535 + 2, 0, 2, 0, 2), client);
            ctx.io().register(child);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            LOG.log(Level.DEBUG, "resolver TCP accept: " + cause);
        }
    }

    /** One TCP client connection: length-prefixed queries in, answers out, closed after 30 s idle. */
    private final class TcpClient extends ChannelInboundHandlerAdapter {
        private final Channel channel;
        private final InetSocketAddress remote;
        private Scheduler.Cancellable idle = Scheduler.Cancellable.NONE; // engine loop
        private boolean counted; // engine loop: counted in tcpClients
        // engine loop: questions asked and not yet answered, queries read beyond MAX_TCP_PIPELINE
        // (at most one read's worth: reading stops until they are asked)
        private int outstanding;
        private final java.util.ArrayDeque<byte[]> waiting = new java.util.ArrayDeque<>();
        private boolean paused;
        private boolean draining;

        TcpClient(Channel channel, InetSocketAddress remote) {
            this.channel = channel;
            this.remote = remote;
        }

        @Override
        public void channelActive(ChannelHandlerContext c) {
            scheduler.run(() -> {
                if (remote == null || !allowed(remote.getAddress())) {
                    denied++;
                    channel.close();
                    return;
                }
                if (tcpClients >= MAX_TCP_CLIENTS) {
                    tcpRejected++;
                    channel.close();
                    return;
                }
                tcpClients++;
                counted = true;
                touch();
            });
        }

        private void touch() {
            idle.cancel();
            idle = scheduler.schedule(() -> channel.close(), TCP_IDLE_NANOS, TimeUnit.NANOSECONDS);
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                scheduler.run(() -> {
                    touch();
                    waiting.add(bytes);
                    drain();
                });
            } finally {
                b.release();
            }
        }

        /** Engine loop: asks waiting queries while the pipeline has room; reading follows the backlog. */
        private void drain() {
            if (draining) {
                return; // an answer given inside ask(): the loop below goes on
            }
            draining = true;
            try {
                while (outstanding < MAX_TCP_PIPELINE && !waiting.isEmpty()) {
                    ask(waiting.poll());
                }
            } finally {
                draining = false;
            }
            boolean full = !waiting.isEmpty();
            if (full != paused && channel.isActive()) {
                paused = full;
                channel.config().setAutoRead(!full);
            }
        }

        private void ask(byte[] bytes) {
            outstanding++;
            boolean[] answered = {false};
            boolean pending = onQuery(bytes, remote, true, r -> {
                ByteBuf out = Unpooled.buffer(2 + r.length);
                out.writeShort(r.length).writeBytes(r);
                channel.writeAndFlush(out, channel.voidPromise());
                if (!answered[0]) {
                    answered[0] = true;
                    answeredOne();
                }
            });
            if (!pending && !answered[0]) {
                answered[0] = true; // dropped without an answer (not a query at all)
                answeredOne();
            }
        }

        private void answeredOne() {
            outstanding--;
            touch();
            drain();
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
            scheduler.run(() -> {
                idle.cancel();
                waiting.clear();
                if (counted) {
                    counted = false;
                    tcpClients--;
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            // a broken frame (TooLongFrameException) or a reset: count and close this client only
            scheduler.run(() -> malformed++);
            c.close();
        }
    }

    /** A client, shown in traces as {@code ip:port/udp}; the string is only built for a trace. */
    private record ClientId(InetSocketAddress address, boolean tcp) {
        @Override
        public String toString() {
            return Resolver.address(address) + (tcp ? "/tcp" : "/udp");
        }
    }

    /**
     * Engine loop: a UDP question a listener's fast path decoded and checked (opcode, EDNS version,
     * meta type) but did not answer. The access list is checked again: it may have changed since.
     */
    private void onDecoded(ClientQuery q, InetSocketAddress sender, Reply reply) {
        try {
            if (!allowed(sender.getAddress())) {
                denied++;
                reply.send(Responses.error(q, RrType.REFUSED, -1, null));
                return;
            }
            resolver.question(q, reply, new ClientId(sender, false), null);
        } catch (RuntimeException e) {
            internalErrors++;
            LOG.log(Level.WARNING, "resolver: question failed", e);
        }
    }

    /**
     * Engine loop: one client message. Never throws: a bad packet is a counted drop or FORMERR.
     * Returns true when the question went to the resolver, which answers it exactly once (maybe
     * later); false when it was settled here, answered or dropped.
     */
    private boolean onQuery(byte[] bytes, InetSocketAddress sender, boolean tcp, Reply reply) {
        try {
            if (sender == null || !allowed(sender.getAddress())) {
                denied++;
                if (bytes.length >= 12 && (bytes[2] & 0x80) == 0) {
                    try {
                        ClientQuery q = ClientQuery.decode(bytes, bytes.length, tcp);
                        if (q != null) {
                            reply.send(Responses.error(q, RrType.REFUSED, -1, null));
                        }
                    } catch (WireException e) {
                        // not even a query: nothing to refuse
                    }
                }
                return false;
            }
            ClientQuery q;
            try {
                q = ClientQuery.decode(bytes, bytes.length, tcp);
            } catch (WireException e) {
                malformed++;
                if (bytes.length > 2 && (bytes[2] & 0x80) == 0) {
                    reply.send(Responses.formerrHeaderOnly(bytes, bytes.length));
                }
                return false;
            }
            if (q == null) {
                malformed++;
                return false;
            }
            if (q.opcode() != 0) {
                reply.send(Responses.error(q, RrType.NOTIMP, -1, null));
                return false;
            }
            if (q.edns && q.ednsVersion > 0) {
                reply.send(Responses.error(q, RrType.BADVERS, -1, null)); // RFC 6891 §6.1.3
                return false;
            }
            if (q.qtype == RrType.OPT || (q.qtype >= 128 && q.qtype <= 255 && q.qtype != RrType.ANY)) {
                // meta types (OPT, AXFR, IXFR, TKEY, ...) are not forwarded
                reply.send(Responses.error(q, RrType.NOTIMP, -1, null));
                return false;
            }
            resolver.question(q, reply, new ClientId(sender, tcp), null);
            return true;
        } catch (RuntimeException e) {
            // a bug, not bad input: counted apart so that tests and operators can tell
            internalErrors++;
            LOG.log(Level.WARNING, "resolver: question failed", e);
            return false;
        }
    }

    // ------------------------------------------------------------------ commands

    @Override
    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        String n = Names.normalize(name == null ? null : name.trim());
        int t = RrType.parse(type == null || type.isBlank() ? "A" : type.trim());
        if (n == null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("'" + name + "' is not a domain name"));
        }
        if (t < 0) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("'" + type + "' is not a record type"));
        }
        CompletableFuture<ResolveTrace> f = new CompletableFuture<>();
        resolver.question(ClientQuery.local(n, t), r -> { }, "console", f::complete);
        return f;
    }

    // ------------------------------------------------------------------ snapshot

    @Override
    public void contribute(SnapshotBuilder b) {
        Resolver r = resolver;
        long now = scheduler.nanoTime();
        java.time.Instant wall = scheduler.now();
        List<ResolverSnapshot.Scope> scopes = new ArrayList<>();
        for (ResolverConfig.Scope s : r.config.scopes()) {
            List<ResolverSnapshot.Server> servers = new ArrayList<>();
            for (InetSocketAddress a : s.servers()) {
                long left = r.marks.remaining(a, now);
                servers.add(new ResolverSnapshot.Server(Resolver.address(a), left > 0,
                        left > 0 ? wall.plusNanos(left) : null, Duration.ofNanos(left)));
            }
            scopes.add(new ResolverSnapshot.Scope(s.name(), s.domains(), s.defaultScope(), false, servers));
        }
        if (!r.config.fallbackServers().isEmpty()) {
            // seed 000 §4.6.3: demotion of the fallback servers is not reported
            List<ResolverSnapshot.Server> servers = new ArrayList<>();
            for (InetSocketAddress a : r.config.fallbackServers()) {
                servers.add(new ResolverSnapshot.Server(Resolver.address(a), false, null, Duration.ZERO));
            }
            scopes.add(new ResolverSnapshot.Scope("fallback", List.of(), false, true, servers));
        }
        List<ResolverSnapshot.Upstream> ups = new ArrayList<>();
        for (Map.Entry<InetSocketAddress, Resolver.UpstreamStats> e : r.upstreams.entrySet()) {
            Resolver.UpstreamStats st = e.getValue();
            ups.add(new ResolverSnapshot.Upstream(Resolver.address(e.getKey()), st.sent, st.failed, st.replies,
                    st.percentile(0.50), st.percentile(0.99),
                    st.succeeded ? wall.minusNanos(now - st.lastSuccessNanos) : null,
                    st.failedOnce ? wall.minusNanos(now - st.lastFailureNanos) : null));
        }
        List<String> listen = bound.stream().map(Resolver::address).toList();
        long elsewhere = fastAnswers();
        List<Resolver.PendingTrace> loopTraces = new ArrayList<>();
        for (UdpSocket h : udpHandlers) {
            for (int i = 0; i < LOOP_TRACES; i++) {
                LoopTrace t = h.recent.getAcquire(i);
                if (t != null) {
                    loopTraces.add(r.answeredElsewhere(t.q(), t.a(), new ClientId(t.client(), false), t.startedAt(), t.endedAt()));
                }
            }
        }
        b.resolver(new ResolverSnapshot(listen, r.queries + elsewhere, r.cacheHits, r.cache.size(), r.cache.capacity(),
                r.localAnswers + elsewhere, r.sentUdp, r.sentTcp, new LinkedHashMap<>(r.upstreamFailed), r.refused, r.unavailable,
                r.demotions, malformed, denied, r.inFlight, r.inFlightCeiling, queriesPerSecond, scopes, ups,
                r.recentTraces(loopTraces)));
        b.metric(Metric.counter("lookout_resolver_queries_total", "Client questions received", r.queries + elsewhere));
        b.metric(Metric.counter("lookout_resolver_cache_hits_total", "Questions answered from the cache", r.cacheHits));
        b.metric(Metric.gauge("lookout_resolver_cache_entries", "Entries in the cache", r.cache.size()));
        b.metric(Metric.counter("lookout_resolver_local_answers_total", "Questions answered from local zones or synthetic names", r.localAnswers + elsewhere));
        b.metric(Metric.counter("lookout_resolver_fast_path_answers_total", "Local questions answered by a UDP listener on its own loop (all sockets)", elsewhere));
        b.metric(Metric.counter("lookout_resolver_answer_loop_answers_total",
                "Local questions answered off the engine loop (answer loops, natively read sockets)", loopAnswers()));
        b.metric(Metric.gauge("lookout_resolver_udp_threads", "UDP sockets per listen address, each on its own loop", udpThreads));
        b.metric(Metric.gauge("lookout_resolver_udp_native", "1 when the UDP listeners are read natively (recvmmsg per socket thread), 0 through Netty",
                nativeUdp ? 1 : 0));
        b.metric(Metric.counter("lookout_resolver_udp_send_errors_total", "UDP answers the kernel would not send (natively read listeners)",
                udpSendErrors()));
        b.metric(new Metric("lookout_resolver_upstream_sent_total", "Upstream transactions sent", "counter", Map.of("transport", "udp"), r.sentUdp));
        b.metric(new Metric("lookout_resolver_upstream_sent_total", "Upstream transactions sent", "counter", Map.of("transport", "tcp"), r.sentTcp));
        for (Map.Entry<String, Long> e : r.upstreamFailed.entrySet()) {
            b.metric(new Metric("lookout_resolver_upstream_failed_total", "Upstream attempts failed (seed 000 §4.6.2)",
                    "counter", Map.of("reason", e.getKey()), e.getValue()));
        }
        b.metric(Metric.counter("lookout_resolver_refused_total", "Questions refused at the in-flight ceiling", r.refused));
        b.metric(Metric.counter("lookout_resolver_unavailable_total", "Questions answered unavailable (SERVFAIL)", r.unavailable));
        b.metric(Metric.counter("lookout_resolver_demotions_total", "Upstream demotions", r.demotions));
        b.metric(Metric.counter("lookout_resolver_malformed_total", "Client packets dropped or answered FORMERR", malformed));
        b.metric(Metric.counter("lookout_resolver_internal_errors_total", "Client packets whose handling failed (a bug)", internalErrors + fastErrors.sum()));
        b.metric(Metric.gauge("lookout_resolver_tcp_clients", "Client TCP connections open", tcpClients));
        b.metric(Metric.counter("lookout_resolver_tcp_rejected_total", "Client TCP connections closed at the limit", tcpRejected));
        b.metric(Metric.counter("lookout_resolver_denied_total", "Clients outside resolver.allow", denied));
        b.metric(Metric.gauge("lookout_resolver_in_flight", "Upstream transactions outstanding", r.inFlight));
        b.metric(Metric.gauge("lookout_resolver_queries_per_second", "Client questions in the last second", queriesPerSecond));
        for (ResolverSnapshot.Upstream u : ups) {
            b.metric(new Metric("lookout_resolver_upstream_latency_seconds", "Upstream reply latency", "gauge",
                    Map.of("upstream", u.address(), "quantile", "0.5"), u.latencyP50().toNanos() / 1e9));
            b.metric(new Metric("lookout_resolver_upstream_latency_seconds", "Upstream reply latency", "gauge",
                    Map.of("upstream", u.address(), "quantile", "0.99"), u.latencyP99().toNanos() / 1e9));
        }
        for (ResolverSnapshot.Scope s : scopes) {
            if (s.fallback()) {
                continue;
            }
            for (ResolverSnapshot.Server sv : s.servers()) {
                b.metric(new Metric("lookout_resolver_upstream_demoted", "1 while the server's demotion mark runs",
                        "gauge", Map.of("scope", s.name(), "upstream", sv.address()), sv.demoted() ? 1 : 0));
            }
        }
    }
}
