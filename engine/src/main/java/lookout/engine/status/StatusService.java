package lookout.engine.status;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.StatusConfig;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;

/**
 * The HTTP status endpoint (SPEC §Layout and delivery): {@code GET /status} is the engine
 * snapshot as JSON, {@code GET /metrics} its metrics in Prometheus text format, on
 * {@code status.listen} when it is set.
 *
 * <p>Concurrency: the HTTP server runs on its own one-thread event loop, not on the engine loop.
 * A request needs the whole snapshot, and {@code snapshot()} is built on the engine loop and
 * waited for; serving from the engine loop would deadlock (the loop would wait for itself), and
 * an engine loop busy in {@code apply} must never wait for the HTTP thread either — so binds and
 * closes issued from {@link #apply} are asynchronous. {@code channel}, {@code listen},
 * {@code group} and {@code generation} are engine-loop confined; the request counters are
 * written by the HTTP thread and read by the engine loop ({@link StatusCounters}).
 */
public final class StatusService implements Service {

    private static final Logger LOG = System.getLogger("lookout.status");

    /** Request line and headers: a status client needs far less; anything larger is refused. */
    static final int MAX_INITIAL_LINE = 4096;
    static final int MAX_HEADER_SIZE = 8192;
    /** GET carries no body; a body larger than this is answered 413 and the connection closed. */
    static final int MAX_CONTENT = 8192;

    private final StatusCounters counters = new StatusCounters();

    private ServiceContext ctx;
    private EventLoopGroup group;
    /** Accepted connections, so that moving or closing the endpoint also drops kept-alive ones. */
    private ChannelGroup connections;
    private Channel channel;
    private InetSocketAddress listen;
    private volatile InetSocketAddress bound;
    private long generation;
    /** A bind issued by {@link #apply} has not completed yet. */
    private boolean binding;

    @Override
    public String name() {
        return "status";
    }

    @Override
    public void start(ServiceContext context, Config config) throws Exception {
        this.ctx = context;
        this.listen = listenOf(config);
        if (listen != null) {
            // At start no request can be waiting on the engine loop yet, so a synchronous bind
            // is safe here, and a failure aborts the start as the facade promises.
            ChannelFuture f = bootstrap().bind(listen).awaitUninterruptibly();
            if (!f.isSuccess()) {
                throw new IllegalStateException("status.listen " + format(listen) + ": cannot bind: "
                        + f.cause().getMessage(), f.cause());
            }
            channel = f.channel();
            bound = (InetSocketAddress) channel.localAddress();
            LOG.log(Level.INFO, "status endpoint on http://" + format(bound) + "/status and /metrics");
        }
    }

    @Override
    public void apply(Config before, Config after) {
        InetSocketAddress next = listenOf(after);
        if (Objects.equals(next, listen) && (next == null || channel != null || binding)) {
            return;
        }
        // Otherwise the address changed, or the same address failed to bind last time: (re)bind.
        listen = next;
        long gen = ++generation;
        if (channel != null) {
            channel.close();
            connections.close();
            channel = null;
            bound = null;
            LOG.log(Level.INFO, "status endpoint closed (status.listen changed)");
        }
        if (next == null) {
            binding = false;
            return;
        }
        binding = true;
        bootstrap().bind(next).addListener((ChannelFuture f) -> ctx.scheduler().run(() -> {
            if (gen != generation) {
                // A later reload moved the endpoint again while this bind was in flight.
                f.channel().close();
                return;
            }
            binding = false;
            if (f.isSuccess()) {
                channel = f.channel();
                bound = (InetSocketAddress) channel.localAddress();
                LOG.log(Level.INFO, "status endpoint moved to http://" + format(bound) + "/status");
            } else {
                String msg = "status.listen " + format(next) + ": cannot bind: " + f.cause().getMessage();
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
    }

    @Override
    public void contribute(SnapshotBuilder snapshot) {
        counters.contribute(snapshot);
        snapshot.metric(Metric.gauge("lookout_status_listening", "1 when the HTTP status endpoint is bound",
                bound != null ? 1 : 0));
    }

    /** The address the endpoint is bound to (port resolved when 0 was asked), or null. Any thread. */
    public InetSocketAddress boundAddress() {
        return bound;
    }

    private ServerBootstrap bootstrap() {
        if (group == null) {
            group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lookout-status", true),
                    NioIoHandler.newFactory());
            connections = new DefaultChannelGroup("lookout-status", group.next());
        }
        ChannelGroup accepted = connections;
        StatusHttpHandler handler = new StatusHttpHandler(ctx::engineSnapshot, counters);
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted.add(ch);
                        ch.pipeline()
                                .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_SIZE, MAX_CONTENT))
                                .addLast(new HttpObjectAggregator(MAX_CONTENT))
                                .addLast(handler);
                    }
                });
    }

    private static InetSocketAddress listenOf(Config config) {
        StatusConfig s = config == null ? null : config.status();
        return s == null ? null : s.listen();
    }

    static String format(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + a.getPort() : host + ":" + a.getPort();
    }
}
