package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Metric;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.PvaConfig;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.api.FailureFold;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.Guid;
import lookout.engine.seams.HostedPvs;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.LocalAddress;
import lookout.engine.seams.ResolvedNames;

/**
 * The engine's own PVA server (seed 002 §4–§7, SPEC §PVA): UDP search responder with unicast
 * forwarding, beacon sender, and TCP name server, all answering from the registered
 * {@link Source}s — today the {@link NameServerSource}, which vouches only for names the engine's
 * PVA client has resolved to a live server.
 *
 * <p>Active when {@code pva.server.enable}; the TCP name server when {@code pva.server.name_server}
 * as well. Listens on loopback only when nothing in the configuration points at a real interface
 * (auto lists off, every search and beacon destination a loopback address — SPEC: "nothing is sent
 * to a real interface until the operator points it at a subnet"); otherwise on every address of
 * every interface that is up. {@link lookout.engine.api.EngineOptions#pvaForwarding()} false turns
 * unicast forwarding off (it joins a multicast group on loopback; tests outside a network namespace
 * use it). Its UDP sockets are held through the engine's port owner ({@link PvaPorts}), which
 * shares {@code broadcast_port} with the PVA client; this service knows nothing of the client but
 * the {@link ResolvedNames} it vouches from.
 *
 * <p>Concurrency: every field is confined to the engine loop, except what the listeners document.
 */
public final class PvaServerService implements Service {

    private static final Logger LOG = System.getLogger("lookout.pva.server");
    private static final Logger LOG_UDP = System.getLogger("lookout.pva.server.udp");
    private static final InetAddress LOOPBACK = HostPort.literal("127.0.0.1");
    private static final int TOP_NAMES = 4096;
    /** How often on-demand names nobody asks for any more are let go. */
    static final long SWEEP_INTERVAL_S = 10;
    /** How often refusals of on-demand names are told (at most). */
    static final long REFUSAL_REPORT_S = 1;
    /** The most active clients in the status. */
    static final int TOP_CLIENTS = 10;

    private ServiceContext ctx;
    private Guid guid;
    private final ServerCounters counters = new ServerCounters();
    private final SourceRegistry registry = new SourceRegistry();
    private ResolvedNames resolved;
    private HostedPvs hosted;
    private NameServerSource nameServerSource;
    private OnDemandNames onDemand;
    private RefusalLog refusals;
    private final List<Scheduler.Cancellable> periodic = new ArrayList<>();
    private SearchResponder responder;
    private UdpListener udp;
    private volatile NameServerListener tcp;
    private BeaconSender beacons;
    private volatile PvaConfig running;

    @Override
    public String name() {
        return "pva-server";
    }

    @Override
    public void start(ServiceContext context, Config config) throws Exception {
        this.ctx = context;
        byte[] g = new byte[12];
        context.random().nextBytes(g); // seed 002 §2: a new identity per start
        this.guid = Guid.of(g);
        hosted = context.seam(HostedPvs.class);
        if (hosted != null) {
            registry.add(new HostedSource(hosted, () -> tcp != null)); // first: the engine's own PVs
        }
        Scheduler scheduler = context.scheduler();
        onDemand = new OnDemandNames(limits(config.pva().server()), scheduler.nanoTime());
        refusals = new RefusalLog(refusalSink());
        resolved = context.seam(ResolvedNames.class);
        if (resolved != null) {
            nameServerSource = new NameServerSource(resolved, onDemand, scheduler);
            nameServerSource.start();
            registry.add(nameServerSource);
            periodic.add(scheduler.scheduleAtFixedRate(() -> nameServerSource.sweep(scheduler.nanoTime()),
                    SWEEP_INTERVAL_S, SWEEP_INTERVAL_S, TimeUnit.SECONDS));
            periodic.add(scheduler.scheduleAtFixedRate(this::reportRefusals, REFUSAL_REPORT_S, REFUSAL_REPORT_S,
                    TimeUnit.SECONDS));
        } else {
            LOG.log(Level.WARNING, "PVA server: no PVA client in this engine, nothing can be vouched for");
        }
        openOrReport(config.pva());
    }

    static OnDemandNames.Limits limits(PvaConfig.PvaServerConfig s) {
        return new OnDemandNames.Limits(s.onDemandLimit(), s.onDemandRate(), s.onDemandPerClient(),
                TimeUnit.SECONDS.toNanos(s.onDemandHold()));
    }

    /** Refusal lines: logged, and WARNING and INFO ones published as events. */
    private FailureFold.Sink refusalSink() {
        return (level, message) -> {
            if (LOG.isLoggable(level)) {
                LOG.log(level, message);
            }
            if (level == Level.WARNING || level == Level.INFO) {
                ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), Subsystem.PVA_SERVER,
                        level == Level.WARNING ? Severity.WARNING : Severity.INFO, message));
            }
        };
    }

    private void reportRefusals() {
        OnDemandNames.Pending p = onDemand.takePending();
        if (!p.refusals().isEmpty() || p.admitted() > 0) {
            refusals.report(p, onDemand.limits(), ctx.scheduler().nanoTime());
        }
    }

    /**
     * Opens the sockets; a bind failure (the port held by a process without SO_REUSEADDR, an
     * address gone) leaves the server stopped with an error event instead of aborting the engine:
     * DNS and the PVA client keep working.
     */
    private void openOrReport(PvaConfig pva) {
        try {
            open(pva);
        } catch (IOException | RuntimeException e) {
            running = pva;
            notice(Severity.ERROR, "PVA server not started: " + NetError.of(e).message());
        }
    }

    private void notice(Severity severity, String message) {
        ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), Subsystem.PVA_SERVER, severity, message));
    }

    /** The sources, in search order; tests and future sources register here. */
    SourceRegistry registry() {
        return registry;
    }

    private void open(PvaConfig pva) throws IOException {
        running = pva;
        if (!pva.server().enable()) {
            return;
        }
        boolean loopbackOnly = loopbackOnly(pva);
        boolean forward = ctx.options().pvaForwarding();
        ResolvedNames r = resolved;
        responder = new SearchResponder(registry, counters, TOP_NAMES, ctx.scheduler(), guid, this::tcpPort,
                IgnoreList.of(pva.ignoreAddrList()), e -> r != null && r.isOwnSearcher(e));
        PvaPorts ports = ctx.seam(PvaPorts.class);
        if (ports == null) {
            throw new IOException("no UDP port owner for PVA in this engine");
        }
        udp = new UdpListener(ctx.scheduler(), responder, FailureFold.Sink.of(LOG_UDP));
        try {
            List<LocalAddress> locals = loopbackOnly ? loopbackAddresses() : interfaceAddresses(ctx.options().ipv6());
            // limited broadcasts (255.255.255.255) only when listening beyond loopback: they are
            // read from the port's wildcard socket
            int udpPort = udp.open(ports, locals, pva.broadcastPort(), forward, !loopbackOnly,
                    pva.server().responderThreads());
            responder.transmit(udp, udp.forwarding());
            if (pva.server().nameServer()) {
                tcp = new NameServerListener(ctx.scheduler(), responder, counters, NameServerListener.MAX_CONNECTIONS);
                tcp.hosted(hosted);
                InetAddress bindTo = loopbackOnly ? LOOPBACK : null;
                int got = tcp.open(ctx.io(), bindTo, pva.serverPort());
                if (pva.serverPort() != 0 && got != pva.serverPort()) {
                    notice(Severity.WARNING, "PVA name server: TCP port " + pva.serverPort()
                            + " in use, listening on " + got);
                }
            }
            List<InetSocketAddress> to = beaconDestinations(pva, udpPort, ctx.options().ipv6());
            udp.beaconDestinations(to);
            if (tcp != null) {
                // A beacon announces this server's TCP endpoint (seed 002 §2); without a listener
                // there is none, and naming server_port would announce whoever holds that port
                // (5075, every PVA server's default) under our GUID: peers would take each beacon
                // for that server's restart, and the claims resting on it could not be checked.
                beacons = new BeaconSender(ctx.scheduler(), guid, registry, this::tcpPort, counters, beaconOut(), to);
                beacons.start();
            }
            LOG.log(Level.INFO, "PVA server " + guid + " on UDP " + udp.bound() + ", TCP " + tcpPort());
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * The TCP port of this server's listener, or 0 when it has none (name server off): a negative
     * answer to a MustReply search then names no endpoint rather than {@code server_port}, which
     * another server may hold. Any thread (the responders name it in their replies).
     */
    private int tcpPort() {
        NameServerListener t = tcp;
        return t != null ? t.port() : 0;
    }

    private BeaconSender.Out beaconOut() {
        UdpListener u = udp;
        return new BeaconSender.Out() {
            @Override
            public boolean send(ByteBuf beacon, InetSocketAddress to) {
                return u.beacon(beacon, to);
            }

            @Override
            public ByteBufAllocator alloc() {
                return u.alloc();
            }
        };
    }

    private void close() {
        if (beacons != null) {
            beacons.stop();
            beacons = null;
        }
        if (tcp != null) {
            tcp.close();
            tcp = null;
        }
        if (udp != null) {
            udp.close();
            udp = null;
        }
        responder = null;
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        PvaConfig b = running;
        PvaConfig a = after.pva();
        if (Objects.equals(b, a)) {
            return;
        }
        onDemand.limits(limits(a.server()));
        boolean rebind = b == null || b.server().enable() != a.server().enable()
                || b.server().nameServer() != a.server().nameServer()
                || b.server().udpThreads() != a.server().udpThreads() || b.broadcastPort() != a.broadcastPort()
                || b.serverPort() != a.serverPort() || loopbackOnly(b) != loopbackOnly(a);
        if (rebind || responder == null) {
            // Same GUID: a reload is not a restart for the clients tracking our beacons.
            close();
            openOrReport(a);
            return;
        }
        running = a;
        responder.ignore(IgnoreList.of(a.ignoreAddrList()));
        List<InetSocketAddress> to = beaconDestinations(a, udp.port(), ctx.options().ipv6());
        udp.beaconDestinations(to);
        if (beacons != null) {
            beacons.destinations(to);
        }
    }

    @Override
    public void stop() {
        periodic.forEach(Scheduler.Cancellable::cancel);
        periodic.clear();
        close();
        if (nameServerSource != null) {
            nameServerSource.stop(); // every on-demand name let go
            registry.remove(nameServerSource);
            nameServerSource = null;
        }
    }

    @Override
    public void contribute(SnapshotBuilder snapshot) {
        snapshot.pvaServer(snapshot());
        snapshot.metrics(metrics());
    }

    List<Metric> metrics() {
        List<Metric> m = new ArrayList<>();
        m.add(Metric.counter("lookout_pva_server_searches_total", "PVA search messages received", counters.searchesReceived.sum()));
        m.add(Metric.counter("lookout_pva_server_names_searched_total", "PV names in searches answered", counters.namesSearched.sum()));
        m.add(Metric.counter("lookout_pva_server_names_claimed_total", "PV names claimed", counters.namesClaimed.sum()));
        m.add(Metric.counter("lookout_pva_server_replies_total", "SEARCH_RESPONSE messages sent", counters.repliesSent.sum()));
        m.add(Metric.counter("lookout_pva_server_forwarded_total", "unicast searches forwarded over loopback", counters.forwarded.sum()));
        m.add(Metric.counter("lookout_pva_server_not_reforwarded_total",
                "forwarded searches asking to be forwarded again: answered, not forwarded", counters.notReforwarded.sum()));
        m.add(Metric.counter("lookout_pva_server_beacons_total", "beacons sent", counters.beaconsSent.sum()));
        long filtered = udp == null ? -1 : udp.ownCopiesFiltered();
        if (filtered >= 0) {
            m.add(Metric.counter("lookout_pva_server_group_kernel_drops_total",
                    "datagrams the kernel dropped on the forwarding groups' sockets: own forwarded copies filtered, and any overflow",
                    filtered));
        }
        counters.dropMap().forEach((reason, v) -> m.add(new Metric("lookout_pva_server_dropped_total",
                "search datagrams dropped, by reason", "counter", Map.of("reason", reason), v)));
        m.add(Metric.gauge("lookout_pva_server_name_server_connections", "name-server TCP connections open",
                tcp == null ? 0 : tcp.open.get()));
        m.add(Metric.gauge("lookout_pva_server_on_demand_unresolved", "names searched for clients, unresolved",
                onDemand.unresolved()));
        m.add(Metric.counter("lookout_pva_server_on_demand_admitted_total", "names searched for clients, admitted",
                onDemand.admitted()));
        onDemand.refusals().forEach((why, v) -> m.add(new Metric("lookout_pva_server_on_demand_refused_total",
                "names asked by clients and not searched, by reason", "counter", Map.of("reason", why.label()), v)));
        return m;
    }

    PvaServerSnapshot snapshot() {
        if (responder == null) {
            return PvaServerSnapshot.stopped();
        }
        List<String> sources = new ArrayList<>();
        registry.sources().forEach(s -> sources.add(s.name()));
        long refused = tcp == null ? 0 : tcp.refused.get();
        Scheduler sch = ctx.scheduler();
        return new PvaServerSnapshot(true, guid.toString(), udp.bound(), udp.port(), tcp == null ? 0 : tcp.port(),
                udp.forwarding(), sources, counters.searchesReceived.sum(), counters.namesSearched.sum(),
                counters.namesClaimed.sum(), counters.repliesSent.sum(), counters.discoveryReplies.sum(),
                counters.forwarded.sum(), counters.dropMap(), counters.beaconsSent.sum(), registry.changeCount(),
                tcp == null ? 0 : tcp.open.get(), tcp == null ? 0 : tcp.accepted.get(), refused,
                responder.topNames(20, sch.nanoTime(), sch.now()), udp.readers(), udp.sharing(),
                counters.notReforwarded.sum(), counters.ownSearches.sum(), onDemandSnapshot(), udp.ownCopies(),
                udp.ownCopiesFiltered());
    }

    private PvaServerSnapshot.OnDemand onDemandSnapshot() {
        OnDemandNames.Limits l = onDemand.limits();
        Map<String, Long> refused = new java.util.LinkedHashMap<>();
        List<String> refusing = new ArrayList<>();
        onDemand.refusals().forEach((why, v) -> {
            refused.put(why.label(), v);
            if (refusals.failing(why)) {
                refusing.add(why.label());
            }
        });
        Scheduler sch = ctx.scheduler();
        long nowNanos = sch.nanoTime();
        List<PvaServerSnapshot.Client> top = new ArrayList<>();
        for (OnDemandNames.AskerReport a : onDemand.topAskers(TOP_CLIENTS)) {
            top.add(new PvaServerSnapshot.Client(a.asker().label(), a.unresolved(), a.admitted(), a.refused(),
                    a.refused() == 0 ? null : sch.now().minusNanos(nowNanos - a.lastRefused())));
        }
        return new PvaServerSnapshot.OnDemand(l.unresolved(), l.perSecond(), l.perAsker(),
                (int) TimeUnit.NANOSECONDS.toSeconds(l.holdNanos()), onDemand.unresolved(),
                onDemand.count(OnDemandNames.State.RESOLVED), onDemand.count(OnDemandNames.State.ELSEWHERE),
                onDemand.admitted(), onDemand.released(), refused, refusing, top);
    }

    /** The on-demand names (tests of this package). */
    OnDemandNames onDemand() {
        return onDemand;
    }

    // ------------------------------------------------------------------ addresses

    /** SPEC: loopback only until the operator points the configuration at a subnet. */
    static boolean loopbackOnly(PvaConfig pva) {
        if (pva.autoAddrList() || pva.autoBeaconAddrList()) {
            return false;
        }
        for (PvaAddress a : concat(pva.addrList(), pva.beaconAddrList())) {
            InetAddress ip = HostPort.literal(a.host());
            if (ip == null || !ip.isLoopbackAddress()) {
                return false;
            }
        }
        return true;
    }

    private static List<PvaAddress> concat(List<PvaAddress> x, List<PvaAddress> y) {
        List<PvaAddress> l = new ArrayList<>(x);
        l.addAll(y);
        return l;
    }

    private static List<LocalAddress> loopbackAddresses() {
        return List.of(new LocalAddress(LOOPBACK, null));
    }

    /**
     * Every address of every interface that is up (IPv6 link-local left out: it needs a scope; IPv6
     * left out altogether when {@code ipv6} is false, the JVM running IPv4-only).
     */
    static List<LocalAddress> interfaceAddresses(boolean ipv6) throws SocketException {
        List<LocalAddress> out = new ArrayList<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!ni.isUp()) {
                continue;
            }
            for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                InetAddress a = ia.getAddress();
                if (a instanceof Inet6Address && (a.isLinkLocalAddress() || !ipv6)) {
                    continue;
                }
                out.add(new LocalAddress(a, a instanceof Inet4Address ? ia.getBroadcast() : null,
                        ia.getNetworkPrefixLength()));
            }
        }
        return out;
    }

    static List<InetSocketAddress> beaconDestinations(PvaConfig pva, int udpPort, boolean ipv6) throws SocketException {
        Set<InetSocketAddress> out = new LinkedHashSet<>();
        int defaultPort = pva.broadcastPort() == 0 ? udpPort : pva.broadcastPort();
        for (PvaAddress a : pva.beaconAddrList()) {
            InetAddress ip = HostPort.literal(a.host());
            if (ip != null) {
                out.add(new InetSocketAddress(ip, a.port() == 0 ? defaultPort : a.port()));
            }
        }
        if (pva.autoBeaconAddrList()) {
            for (LocalAddress la : interfaceAddresses(ipv6)) {
                if (la.broadcast() != null) {
                    out.add(new InetSocketAddress(la.broadcast(), defaultPort));
                }
            }
        }
        return List.copyOf(out);
    }
}
