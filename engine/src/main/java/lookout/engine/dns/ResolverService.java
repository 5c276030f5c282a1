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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
import lookout.engine.core.DynamicRecords;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.core.Transport;
import lookout.engine.dns.upstream.NettyUpstreamSockets;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;

/**
 * The DNS forwarding resolver as an engine service: UDP and TCP listeners on {@code resolver.listen},
 * the client access list, and the {@link Resolver} that does the work.
 *
 * <p>Concurrency: every field is confined to the engine loop. Listener handlers run on I/O threads
 * and hop in with {@code scheduler().run(...)}; sockets are bound synchronously here (on the engine
 * loop Netty binds inline; {@link Transport#sync}) so a bind error aborts start and port 0 is known
 * at once.
 */
public final class ResolverService implements Service, Commands.Resolver {

    private static final Logger LOG = System.getLogger("lookout.engine.dns");
    private static final long TCP_IDLE_NANOS = 30_000_000_000L;
    /** Client TCP connections held at once; more are closed at once (a slow-loris guard). */
    static final int MAX_TCP_CLIENTS = 1024;

    private ServiceContext ctx;
    private Scheduler scheduler;
    private Resolver resolver;
    private Function<EventLoopGroup, UpstreamSockets> socketFactory = NettyUpstreamSockets::new;
    private final List<Channel> listeners = new ArrayList<>();
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
                () -> ctx.service(DynamicRecords.class), rc, config.zones());
        allow = rc.allow();
        bind(rc.listen());
        rateTimer = scheduler.scheduleAtFixedRate(() -> {
            queriesPerSecond = resolver.queries - lastQueries;
            lastQueries = resolver.queries;
        }, 1, 1, TimeUnit.SECONDS);
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
        return internalErrors;
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        ResolverConfig rc = after.resolver();
        resolver.reconfigure(rc, after.zones());
        allow = rc.allow();
        if (!before.resolver().listen().equals(rc.listen())) {
            closeListeners();
            bind(rc.listen());
        }
    }

    @Override
    public void stop() {
        rateTimer.cancel();
        closeListeners();
    }

    private void closeListeners() {
        for (Channel c : listeners) {
            c.close();
        }
        listeners.clear();
        bound.clear();
    }

    // ------------------------------------------------------------------ listeners

    private void bind(List<InetSocketAddress> addresses) throws IOException {
        Transport transport = ctx.transport();
        try {
            for (InetSocketAddress a : addresses) {
                Channel udp = null;
                Channel tcp = null;
                InetSocketAddress actual = null;
                // port 0: UDP picks the port and TCP must get the same one; another process may
                // hold it for TCP, so try a few ports (bounded)
                for (int attempt = 0; attempt < 20 && tcp == null; attempt++) {
                    // a burst of queries is read in one go (recvmmsg on epoll) and its answers
                    // leave in one go at the end of the burst (UdpHandler.channelReadComplete)
                    io.netty.channel.socket.DatagramChannel u;
                    try {
                        u = Transport.bind(ctx.io(), transport.batchedDatagram(a.getAddress(), 16), a,
                                ch -> ch.pipeline().addLast(new UdpHandler(ch)));
                    } catch (IOException e) {
                        throw new IOException("resolver cannot listen on " + a + " (UDP): " + e.getMessage(), e);
                    }
                    udp = u;
                    actual = u.localAddress();
                    try {
                        tcp = Transport.bind(ctx.io(), transport.serverSocket(a.getAddress()),
                                new InetSocketAddress(actual.getAddress(), actual.getPort()), ch -> {
                                    ch.config().setReuseAddress(true);
                                    ch.config().setBacklog(128);
                                    ch.pipeline().addLast(new Acceptor());
                                });
                    } catch (IOException e) {
                        u.close();
                        if (a.getPort() != 0 || attempt == 19) {
                            throw new IOException("resolver cannot listen on " + actual + " (TCP): " + e.getMessage(), e);
                        }
                    }
                }
                listeners.add(udp);
                listeners.add(tcp);
                bound.add(actual);
            }
        } catch (IOException e) {
            closeListeners();
            throw e;
        }
    }

    private boolean allowed(InetAddress a) {
        for (Cidr c : allow) {
            if (c.contains(a)) {
                return true;
            }
            // an IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d; Java maps it already
        }
        return false;
    }

    /** One UDP listener; stateless apart from its channel. Runs on an I/O thread. */
    private final class UdpHandler extends ChannelInboundHandlerAdapter {
        private final Channel channel;
        // I/O thread only: true between the first channelRead of a read batch and channelReadComplete
        private boolean reading;
        private boolean unflushed;

        UdpHandler(Channel channel) {
            this.channel = channel;
        }

        /**
         * Answers answered inside the read batch (cache hits, local zones) are written and flushed
         * once at the end of the batch; later ones (upstream replies) are flushed at once.
         */
        private void send(byte[] r, InetSocketAddress to) {
            // straight into a pooled direct buffer: the native transport sends only direct memory
            // and would otherwise wrap, copy and release a heap buffer per answer itself
            ByteBuf out = channel.alloc().directBuffer(r.length).writeBytes(r);
            DatagramPacket p = new DatagramPacket(out, to);
            if (reading && channel.eventLoop().inEventLoop()) {
                channel.write(p, channel.voidPromise());
                unflushed = true;
            } else {
                channel.writeAndFlush(p, channel.voidPromise());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext c) {
            reading = false;
            if (unflushed) {
                unflushed = false;
                channel.flush();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext c, Object msg) {
            try {
                if (!(msg instanceof DatagramPacket p)) {
                    return;
                }
                ByteBuf b = p.content();
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                InetSocketAddress sender = p.sender();
                reading = true;
                scheduler.run(() -> onQuery(bytes, sender, false, r -> send(r, sender)));
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
            // a send error to one client must not close the listener
            LOG.log(Level.DEBUG, "resolver UDP listener: " + cause);
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
                    onQuery(bytes, remote, true, r -> {
                        ByteBuf out = Unpooled.buffer(2 + r.length);
                        out.writeShort(r.length).writeBytes(r);
                        channel.writeAndFlush(out, channel.voidPromise());
                    });
                });
            } finally {
                b.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext c) {
            scheduler.run(() -> {
                idle.cancel();
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

    /** Engine loop: one client message. Never throws: a bad packet is a counted drop or FORMERR. */
    private void onQuery(byte[] bytes, InetSocketAddress sender, boolean tcp, Resolver.Reply reply) {
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
                return;
            }
            ClientQuery q;
            try {
                q = ClientQuery.decode(bytes, bytes.length, tcp);
            } catch (WireException e) {
                malformed++;
                if ((bytes[2] & 0x80) == 0) {
                    reply.send(Responses.formerrHeaderOnly(bytes, bytes.length));
                }
                return;
            }
            if (q == null) {
                malformed++;
                return;
            }
            if (q.opcode() != 0) {
                reply.send(Responses.error(q, RrType.NOTIMP, -1, null));
                return;
            }
            if (q.edns && q.ednsVersion > 0) {
                reply.send(Responses.error(q, RrType.BADVERS, -1, null)); // RFC 6891 §6.1.3
                return;
            }
            if (q.qtype == RrType.OPT || (q.qtype >= 128 && q.qtype <= 255 && q.qtype != RrType.ANY)) {
                // meta types (OPT, AXFR, IXFR, TKEY, ...) are not forwarded
                reply.send(Responses.error(q, RrType.NOTIMP, -1, null));
                return;
            }
            resolver.question(q, reply, new ClientId(sender, tcp), null);
        } catch (RuntimeException e) {
            // a bug, not bad input: counted apart so that tests and operators can tell
            internalErrors++;
            LOG.log(Level.WARNING, "resolver: question failed", e);
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
        b.resolver(new ResolverSnapshot(listen, r.queries, r.cacheHits, r.cache.size(), r.cache.capacity(),
                r.localAnswers, r.sentUdp, r.sentTcp, new LinkedHashMap<>(r.upstreamFailed), r.refused, r.unavailable,
                r.demotions, malformed, denied, r.inFlight, r.inFlightCeiling, queriesPerSecond, scopes, ups,
                r.recentTraces()));
        b.metric(Metric.counter("lookout_resolver_queries_total", "Client questions received", r.queries));
        b.metric(Metric.counter("lookout_resolver_cache_hits_total", "Questions answered from the cache", r.cacheHits));
        b.metric(Metric.gauge("lookout_resolver_cache_entries", "Entries in the cache", r.cache.size()));
        b.metric(Metric.counter("lookout_resolver_local_answers_total", "Questions answered from local zones or synthetic names", r.localAnswers));
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
        b.metric(Metric.counter("lookout_resolver_internal_errors_total", "Client packets whose handling failed (a bug)", internalErrors));
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
