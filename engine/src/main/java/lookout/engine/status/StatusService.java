package lookout.engine.status;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.StatusConfig;
import lookout.engine.control.ApiHandler;
import lookout.engine.control.Authorizer;
import lookout.engine.control.ControlAggregator;
import lookout.engine.control.ControlApi;
import lookout.engine.control.ControlCounters;
import lookout.engine.control.ControlToken;
import lookout.engine.control.EventStream;
import lookout.engine.control.Router;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.HostPort;

/**
 * The engine's HTTP listener on {@code status.listen} (SPEC §Layout and delivery, §Operations):
 * {@code GET /status} is the engine snapshot as JSON, {@code GET /metrics} its metrics in
 * Prometheus text format, and {@code /api/v1/...} the control API of docs/design/control.md, with
 * bearer tokens ({@code STATE_DIR/control.token}, {@code status.tokens}) and, where configured,
 * TLS ({@code status.tls}; required beyond loopback, which the configuration checks).
 *
 * <p>Concurrency: the HTTP server runs on its own one-thread event loop, and the routes on two
 * worker threads, never on the engine loop. A request needs the snapshot (or an apply), which is
 * built on the engine loop and waited for; serving from the engine loop would deadlock, and an
 * engine loop busy in {@code apply} must never wait for the HTTP thread either — so binds and
 * closes issued from {@link #apply} are asynchronous. {@code channel}, {@code listen},
 * {@code group}, {@code generation} and {@code status} are engine-loop confined; the
 * {@code authorizer} and {@code ssl} the connections read are volatile and replaced whole; the
 * request counters are written by the HTTP threads and read by the engine loop.
 */
public final class StatusService implements Service {

    private static final Logger LOG = System.getLogger("lookout.status");

    /** Request line and headers: a client needs far less; anything larger is refused. */
    static final int MAX_INITIAL_LINE = 4096;
    static final int MAX_HEADER_SIZE = 8192;
    /** Connections open at once; more are closed as they come (counted). */
    static final int MAX_CONNECTIONS = 256;
    /** A connection that sends nothing for this long is closed (event streams excepted). */
    static final int IDLE_SECONDS = 60;
    /** Route workers, and the requests that may wait for one. */
    static final int WORKERS = 2;
    static final int QUEUED = 64;

    private final StatusCounters counters = new StatusCounters();
    private final Router router;
    private final ControlCounters control;
    private final EventStream streams;

    private ServiceContext ctx;
    private EventLoopGroup group;
    private ThreadPoolExecutor worker;
    /** Accepted connections, so that moving or closing the endpoint also drops kept-alive ones. */
    private ChannelGroup connections;
    private Channel channel;
    private InetSocketAddress listen;
    private StatusConfig status;
    private String ownToken;
    private volatile Authorizer authorizer = new Authorizer(null, java.util.Map.of(), false);
    private volatile SslContext ssl;
    private volatile String engineName;
    private volatile InetSocketAddress bound;
    private long generation;
    /** A bind issued by {@link #apply} has not completed yet. */
    private boolean binding;

    public StatusService() {
        router = ControlApi.routes(this::engineName);
        new SnapshotRoutes(counters, () -> ctx.engineSnapshot()).register(router);
        control = new ControlCounters(new HashSet<>(router.paths()));
        streams = new EventStream(control);
    }

    @Override
    public String name() {
        return "status";
    }

    @Override
    public void start(ServiceContext context, Config config) throws Exception {
        this.ctx = context;
        this.status = statusOf(config);
        this.listen = status.listen();
        if (listen != null) {
            prepare(null, status);
            // At start no request can be waiting on the engine loop yet, so a synchronous bind
            // is safe here, and a failure aborts the start as the facade promises.
            ChannelFuture f = bootstrap().bind(listen).awaitUninterruptibly();
            if (!f.isSuccess()) {
                throw new IllegalStateException("status.listen " + HostPort.format(listen) + ": cannot bind: "
                        + f.cause().getMessage(), f.cause());
            }
            channel = f.channel();
            bound = (InetSocketAddress) channel.localAddress();
            LOG.log(Level.INFO, "status endpoint on " + url(bound) + "/status, /metrics and /api/v1/");
        }
    }

    /**
     * Everything a listener on {@code next} needs that can fail, done before anything changes (so
     * that a failing reload leaves the running listener as it was): the operator token, the TLS
     * context, the authoriser.
     */
    private void prepare(StatusConfig before, StatusConfig next) {
        if (ownToken == null) {
            try {
                ownToken = ControlToken.loadOrCreate(ctx.stateDir());
            } catch (IOException e) {
                throw new IllegalStateException("cannot make the operator token " + ctx.stateDir().resolve(
                        ControlToken.FILE) + ": " + e.getMessage(), e);
            }
        }
        SslContext nextSsl = ssl;
        if (before == null || !Objects.equals(before.tls(), next.tls())) {
            nextSsl = next.tls() == null ? null : tls(next.tls());
        }
        Authorizer nextAuth = new Authorizer(ownToken, next.tokens(), next.beyondLoopback());
        boolean tlsChanged = nextSsl != ssl;
        ssl = nextSsl;
        authorizer = nextAuth;
        engineName = next.name();
        if (tlsChanged && connections != null) {
            // A connection accepted under the old setting must not outlive it (plain HTTP after TLS
            // was asked for); the listening channel is not in this group.
            connections.close();
        }
    }

    private static SslContext tls(StatusConfig.Tls tls) {
        try {
            return SslContextBuilder.forServer(tls.certificate().toFile(), tls.key().toFile())
                    .sslProvider(SslProvider.JDK).build();
        } catch (IOException | IllegalArgumentException e) {
            String m = e.getMessage() == null ? "unreadable" : e.getMessage();
            throw new IllegalStateException("status.tls: cannot use " + tls.certificate() + " and " + tls.key() + ": "
                    + m, e);
        }
    }

    @Override
    public void apply(Config before, Config after) {
        StatusConfig next = statusOf(after);
        if (next.listen() != null) {
            prepare(status, next);
        } else {
            engineName = next.name();
        }
        status = next;
        InetSocketAddress target = next.listen();
        if (Objects.equals(target, listen) && (target == null || channel != null || binding)) {
            return;
        }
        // Otherwise the address changed, or the same address failed to bind last time: (re)bind.
        listen = target;
        long gen = ++generation;
        if (channel != null) {
            channel.close();
            connections.close();
            channel = null;
            bound = null;
            LOG.log(Level.INFO, "status endpoint closed (status.listen changed)");
        }
        if (target == null) {
            binding = false;
            return;
        }
        binding = true;
        bootstrap().bind(target).addListener((ChannelFuture f) -> ctx.scheduler().run(() -> {
            if (gen != generation) {
                // A later reload moved the endpoint again while this bind was in flight.
                f.channel().close();
                return;
            }
            binding = false;
            if (f.isSuccess()) {
                channel = f.channel();
                bound = (InetSocketAddress) channel.localAddress();
                LOG.log(Level.INFO, "status endpoint moved to " + url(bound) + "/status");
            } else {
                String msg = "status.listen " + HostPort.format(target) + ": cannot bind: " + f.cause().getMessage();
                LOG.log(Level.ERROR, msg);
                ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), Subsystem.STATUS, Severity.ERROR, msg));
            }
        }));
    }

    @Override
    public void stop() {
        generation++;
        binding = false;
        if (channel != null) {
            channel.close();
            connections.close();
            channel = null;
        }
        bound = null;
        if (group != null) {
            // Not awaited: stop() runs on the engine loop and an HTTP request may be waiting on it.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            group = null;
        }
        if (worker != null) {
            worker.shutdown();
            worker = null;
        }
    }

    @Override
    public void contribute(SnapshotBuilder snapshot) {
        counters.contribute(snapshot);
        control.contribute(snapshot::metric);
        snapshot.metric(Metric.gauge("lookout_status_listening", "1 when the HTTP status endpoint is bound",
                bound != null ? 1 : 0));
    }

    /** The address the endpoint is bound to (port resolved when 0 was asked), or null. Any thread. */
    public InetSocketAddress boundAddress() {
        return bound;
    }

    /** The request counters, for tests. */
    ControlCounters controlCounters() {
        return control;
    }

    /** {@code status.name}, else the host's name (looked up once, lazily: it may ask the resolver). */
    private String engineName() {
        String n = engineName;
        if (n != null) {
            return n;
        }
        try {
            n = InetAddress.getLocalHost().getHostName();
        } catch (IOException | SecurityException e) {
            n = "lookout";
        }
        engineName = n;
        return n;
    }

    private ServerBootstrap bootstrap() {
        if (group == null) {
            group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lookout-status", true),
                    NioIoHandler.newFactory());
            connections = new DefaultChannelGroup("lookout-status", group.next());
            worker = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
                    new DefaultThreadFactory("lookout-control", true));
            worker.allowCoreThreadTimeOut(true);
        }
        ChannelGroup accepted = connections;
        ApiHandler handler = new ApiHandler(router, () -> authorizer, ctx::engine, ctx::recordRefusal, worker, streams,
                this::counted);
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (accepted.size() >= MAX_CONNECTIONS) {
                            control.connectionRefused();
                            ch.close();
                            return;
                        }
                        accepted.add(ch);
                        SslContext tls = ssl;
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline()
                                .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_SIZE, MAX_HEADER_SIZE))
                                .addLast(ApiHandler.IDLE, new IdleStateHandler(IDLE_SECONDS, 0, 0))
                                .addLast(new ControlAggregator(StatusService.this::counted))
                                .addLast(handler);
                    }
                });
    }

    /** Every answer, in the control counters and in the status endpoint's own. */
    private void counted(String path, String result) {
        control.count(path, result);
        switch (result) {
            case "not_found" -> counters.notFound.increment();
            case "method_not_allowed" -> counters.badMethod.increment();
            case "bad_request" -> counters.badRequest.increment();
            case "unavailable" -> counters.unavailable.increment();
            default -> {
            }
        }
    }

    private String url(InetSocketAddress a) {
        return (ssl != null ? "https://" : "http://") + HostPort.format(a);
    }

    private static StatusConfig statusOf(Config config) {
        StatusConfig s = config == null ? null : config.status();
        return s == null ? new StatusConfig(null) : s;
    }

    static String format(InetSocketAddress a) {
        return HostPort.format(a);
    }

    /** The set of paths the listener answers, for tests. */
    Set<String> paths() {
        return Set.copyOf(router.paths());
    }
}
