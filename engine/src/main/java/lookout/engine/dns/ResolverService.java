package lookout.engine.dns;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ResolverConfig;
import lookout.engine.core.Commands;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.listen.Intake;
import lookout.engine.dns.listen.Listeners;
import lookout.engine.dns.listen.LoopView;
import lookout.engine.dns.upstream.NativeUpstreamSockets;
import lookout.engine.dns.upstream.NettyUpstreamSockets;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.RrType;
import lookout.engine.seams.DynamicRecords;

/**
 * The DNS forwarding resolver as an engine service: it puts together the {@link Resolver} (seed
 * 000's state machine, with its {@link ResolverAccounting}), the {@link Listeners} on
 * {@code resolver.listen} and the {@link Intake} between them, applies reloads to each, answers the
 * console's resolve command and contributes {@link ResolverStatus} to the engine's snapshot. The
 * pieces and their threads are described in {@code docs/design/dns.md}.
 */
public final class ResolverService implements Service, Commands.Resolver {

    private static final Logger LOG = System.getLogger("lookout.engine.dns");

    /* Concurrency: every field is the engine loop's — start, apply, stop, resolve's hop and
     * contribute all run there. What runs elsewhere (the listeners' reader threads, upstream
     * sockets' I/O threads) lives in the listen and upstream packages and hops onto the engine loop
     * with Scheduler.execute/run; the listeners read the LoopView published here through a volatile. */

    private ServiceContext ctx;
    private Scheduler scheduler;
    private Resolver resolver;
    private ResolverAccounting books;
    private Intake intake;
    private Listeners listeners;
    private ResolverStatus status;
    private UpstreamSockets sockets;
    private Scheduler.Cancellable rateTimer = Scheduler.Cancellable.NONE;

    @Override
    public String name() {
        return "resolver";
    }

    @Override
    public void start(ServiceContext context, Config config) throws Exception {
        this.ctx = context;
        this.scheduler = context.scheduler();
        ResolverConfig rc = config.resolver();
        books = new ResolverAccounting(scheduler, context::publish);
        sockets = upstreamSockets(context);
        Resolver r = new Resolver(scheduler, context.random(), books, sockets,
                () -> ctx.seam(DynamicRecords.class), rc, config.zones());
        resolver = r;
        intake = new Intake(new Intake.Questions() {
            @Override
            public void ask(ClientQuery q, Reply reply, Object client) {
                r.question(q, reply, client, null);
            }

            @Override
            public int answerCached(PlainQuery q, DnsCache.Key key, byte[] out) {
                return r.answerCached(q, key, out);
            }
        }, rc.allow());
        listeners = new Listeners(scheduler, context.io(), context.transport(), context.options().udpReads(), context::publish,
                intake, () -> ctx.seam(DynamicRecords.class));
        listeners.publish(view(rc));
        listeners.tcpLimits(rc.tcpClients(), rc.tcpPipeline(), rc.tcpIdleTimeout());
        status = new ResolverStatus(scheduler, r, books, listeners);
        listeners.open(rc.listen(), rc.udpThreads(), rc.udpReceiveBuffer());
        rateTimer = scheduler.scheduleAtFixedRate(status::tick, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * The upstream transactions' sockets: opened natively where the engine loop is on epoll and
     * the engine's native library loads (docs/adr/0005-upstream-sockets.md), through Netty
     * elsewhere and when every UDP socket is to go through Netty ({@code --udp-reads netty}).
     */
    private static UpstreamSockets upstreamSockets(ServiceContext context) {
        String why = context.options().udpReads() == EngineOptions.UdpReads.NETTY ? "--udp-reads netty"
                : NativeUpstreamSockets.unavailable(context.io());
        UpstreamSockets s = null;
        if (why == null) {
            try {
                s = NativeUpstreamSockets.open(context.io());
            } catch (IOException e) {
                why = e.getMessage();
            }
        }
        if (s == null) {
            s = new NettyUpstreamSockets(context.io());
        }
        LOG.log(Level.INFO, "resolver upstream UDP " + s.describe() + (why == null ? "" : " (native: " + why + ")"));
        return s;
    }

    /** What the UDP listeners answer local questions from: the resolver's parsed zones, shared. */
    private LoopView view(ResolverConfig rc) {
        return new LoopView(resolver.zones, rc.allow(), !rc.search().isEmpty());
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        ResolverConfig rc = after.resolver();
        resolver.reconfigure(rc, after.zones());
        intake.allow(rc.allow());
        listeners.publish(view(rc));
        listeners.tcpLimits(rc.tcpClients(), rc.tcpPipeline(), rc.tcpIdleTimeout());
        ResolverConfig was = before.resolver();
        if (!was.listen().equals(rc.listen()) || was.udpThreads() != rc.udpThreads()
                || was.udpReceiveBuffer() != rc.udpReceiveBuffer()) {
            // listeners are closed and bound again only when what they are changes
            listeners.close();
            listeners.open(rc.listen(), rc.udpThreads(), rc.udpReceiveBuffer());
        }
    }

    @Override
    public void stop() {
        rateTimer.cancel();
        if (listeners != null) {
            listeners.stop();
        }
        if (sockets != null) {
            sockets.close();
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
        status.contribute(b);
    }

    // ------------------------------------------------------------------ for tests (engine loop)

    /** Tests: replaces the upstream socket opener (e.g. one that throws EMFILE). */
    void useSockets(UpstreamSockets sockets) {
        resolver.sockets(sockets);
    }

    /** Tests: the addresses actually bound (port 0 resolved). */
    public List<InetSocketAddress> boundAddresses() {
        return listeners.boundAddresses();
    }

    Resolver resolver() {
        return resolver;
    }

    /** Client packets dropped or answered FORMERR. */
    long malformed() {
        return intake.malformed();
    }

    /** Exceptions caught while handling a client packet: always 0 unless there is a bug. */
    long internalErrors() {
        return listeners.status().internalErrors();
    }
}
