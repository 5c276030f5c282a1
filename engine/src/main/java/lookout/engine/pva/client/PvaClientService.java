package lookout.engine.pva.client;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.PvaConfig;
import lookout.engine.core.Commands;
import lookout.engine.api.FailureFold;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.pva.beacon.ServerTable;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.ResolvedNames;

/**
 * The PVA client of seed 002 §3, §6, §7: channels for watched and operator-searched names (and
 * for names a client of the engine's own server asks about), the search ring, UDP and TCP
 * name-server transport, reply processing, beacon tracking and discovery. Resolution ends at
 * Resolved (SPEC §PVA): GUID and endpoint, no channel creation.
 *
 * <p>This class is the lifecycle and the commands; the work is done by its parts: the
 * {@link ChannelRegistry} (names, CIDs, why each channel exists, the §3.1 sweep), the
 * {@link SearchDriver} (the ring's timers and packing) with the {@link SearchFanOut} (every
 * datagram to every destination and name server), the {@link ReplyProcessor} (§3.5 and the server
 * table), {@link ClientSockets} (from the engine's port owner), {@link NameServers} and
 * {@link ClientStatus}.
 *
 * <p>Concurrency: all protocol state is confined to the engine loop; the port owner and the
 * name-server connections decode on their I/O thread and hop in.
 */
public final class PvaClientService implements Service, Commands.PvaClient, ResolvedNames {

    private static final Logger LOG = System.getLogger("lookout.pva.client");
    private static final Logger LOG_SEARCH = System.getLogger("lookout.pva.client.search");

    /** seed 002 §3.1: the channel cache sweep. */
    static final long SWEEP_INTERVAL = TimeUnit.SECONDS.toNanos(10);
    /** seed 002 §6 / §9: name-server reconnect check. */
    static final long NAME_SERVER_CHECK = TimeUnit.SECONDS.toNanos(10);

    private ServiceContext ctx;
    private Scheduler scheduler;
    private PvaConfig config;
    private boolean running;
    private final List<Scheduler.Cancellable> periodic = new ArrayList<>();

    private ClientCounters counters;
    private volatile NameServers nameServers;
    private SearchFanOut fanOut;
    private SearchDriver driver;
    private ChannelRegistry registry;
    private ReplyProcessor replies;
    private ClientSockets sockets;
    private ClientStatus status;
    private ClaimChecks checks;
    /** The search socket's port, for {@link #isOwnSearcher} on any thread. */
    private volatile int ownSearchPort;
    /** This host's addresses (own searches to a broadcast leave from one), read again every sweep. */
    private volatile Set<InetAddress> localAddresses = Set.of();

    @Override
    public String name() {
        return "pva-client";
    }

    // ================================================================ lifecycle

    @Override
    public void start(ServiceContext context, Config cfg) throws Exception {
        this.ctx = context;
        this.scheduler = context.scheduler();
        this.config = cfg.pva();
        PvaPorts ports = context.seam(PvaPorts.class);
        if (ports == null) {
            throw new IllegalStateException("no UDP port owner for PVA in this engine");
        }
        build(ports);
        try {
            replies.ignoreGuids(parseGuids(config.ignoreGuids()));
            driver.replyPort(sockets.openSearchSocket());
            ownSearchPort = sockets.searchPort();
            listenForBeacons(config.broadcastPort(), "; searching continues, beacons are not tracked");
            fanOut.destinations(computeDestinations(config));
            nameServers.reconcile(config);
            registry.watch(config.watch());
        } catch (IOException | RuntimeException e) {
            // a service that failed to start is not stopped: let go of what it opened
            driver.stop();
            nameServers.close();
            sockets.close();
            throw e;
        }
        running = true;
        replies.running(true);
        driver.start();
        checks.configure(config.server().checkInterval(), config.server().checkAfter());
        localAddresses = readLocalAddresses();
        periodic.add(scheduler.scheduleAtFixedRate(() -> {
            registry.sweep();
            localAddresses = readLocalAddresses();
        }, SWEEP_INTERVAL, SWEEP_INTERVAL, TimeUnit.NANOSECONDS));
        periodic.add(scheduler.scheduleAtFixedRate(replies::expireServers, ServerTable.CHECK_INTERVAL,
                ServerTable.CHECK_INTERVAL, TimeUnit.NANOSECONDS));
        periodic.add(scheduler.scheduleAtFixedRate(nameServers::check, NAME_SERVER_CHECK, NAME_SERVER_CHECK,
                TimeUnit.NANOSECONDS));
        if (config.discoveryAtStart()) {
            discoveryPing();
        }
        LOG.log(Level.INFO, "PVA client searching from UDP port " + sockets.searchPort() + ", beacons on "
                + (sockets.beaconPort() == 0 ? "(none)" : String.valueOf(sockets.beaconPort())) + ", destinations "
                + fanOut.destinations() + ", name servers " + nameServers.labels());
    }

    /** The parts, each given what it works with (no part knows the one that uses it). */
    private void build(PvaPorts ports) {
        counters = new ClientCounters();
        nameServers = new NameServers(scheduler, ctx.io(), new NameServers.Inbound() {
            @Override
            public void reply(SearchResponse reply, int version, InetSocketAddress from) {
                replies.onSearchResponse(reply, version, from, true);
            }

            @Override
            public void malformed(String from, String reason) {
                replies.malformed(from, reason);
            }
        });
        fanOut = new SearchFanOut(scheduler, nameServers, counters, FailureFold.Sink.of(LOG_SEARCH));
        driver = new SearchDriver(scheduler, counters, fanOut);
        registry = new ChannelRegistry(driver, (name, bytes) -> notice(Severity.ERROR, "PV name of " + bytes
                + " bytes exceeds the 64 KiB search buffer; not searched"), counters);
        replies = new ReplyProcessor(scheduler, ctx::publish, registry, counters, driver::hurryUp,
                (entry, now) -> status.offline(entry, now));
        sockets = new ClientSockets(ports, replies, fanOut);
        checks = new ClaimChecks(scheduler, registry, replies.servers(), nameServers::check, ctx::publish);
        status = new ClientStatus(scheduler, registry, driver, replies, nameServers, fanOut, sockets, counters, checks);
    }

    @Override
    public void apply(Config before, Config after) throws Exception {
        PvaConfig old = config;
        PvaConfig neu = after.pva();
        config = neu;
        replies.ignoreGuids(parseGuids(neu.ignoreGuids()));
        if (old.broadcastPort() != neu.broadcastPort()) {
            listenForBeacons(neu.broadcastPort(), "");
        }
        fanOut.destinations(computeDestinations(neu));
        nameServers.reconcile(neu);
        registry.watch(neu.watch());
        checks.configure(neu.server().checkInterval(), neu.server().checkAfter());
    }

    /** Beacons on {@code port}; when it cannot be had, searching still works and the operator is told. */
    private void listenForBeacons(int port, String consequence) {
        try {
            sockets.listen(port);
        } catch (IOException e) {
            // another process may hold the port without SO_REUSEADDR
            notice(Severity.WARNING, "cannot listen for PVA beacons on UDP port " + port + ": " + e.getMessage()
                    + consequence);
        }
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        replies.running(false);
        driver.stop();
        checks.stop();
        ownSearchPort = 0;
        periodic.forEach(Scheduler.Cancellable::cancel);
        periodic.clear();
        nameServers.close();
        sockets.close();
    }

    private List<Destination> computeDestinations(PvaConfig cfg) {
        List<String> problems = new ArrayList<>();
        List<Destination> d = Destination.of(cfg, cfg.autoAddrList() ? Destination.interfaceBroadcasts() : List.of(),
                NameServers::resolve, problems);
        problems.forEach(p -> notice(Severity.WARNING, p));
        return d;
    }

    private static Set<Guid> parseGuids(List<String> hex) {
        Set<Guid> out = new HashSet<>();
        for (String h : hex) {
            try {
                out.add(Guid.parse(h));
            } catch (IllegalArgumentException e) {
                LOG.log(Level.WARNING, "ignoring pva.ignore_guids entry {0}: not 24 hex digits", h);
            }
        }
        return Set.copyOf(out);
    }

    private void notice(Severity severity, String message) {
        ctx.publish(new EngineEvent.Notice(scheduler.now(), Subsystem.PVA_CLIENT, severity, message));
    }

    // ================================================================ commands

    @Override
    public void searchPv(String name) {
        registry.operator(validName(name));
    }

    @Override
    public void dropPv(String name) {
        registry.drop(name == null ? "" : name.strip());
    }

    private static String validName(String name) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            throw new IllegalArgumentException("empty PV name");
        }
        return n;
    }

    @Override
    public void discoveryPing() {
        if (running) {
            driver.discoveryPing();
        }
    }

    @Override
    public boolean searchNow() {
        return running && driver.hurryUp();
    }

    @Override
    public lookout.engine.api.PvaChannelDiagnosis diagnose(String name) {
        return status.diagnose(name == null ? "" : name.strip());
    }

    // ================================================================ ResolvedNames

    @Override
    public Resolution lookup(String name) {
        return registry == null ? null : registry.lookup(name);
    }

    @Override
    public List<Resolution> resolutions() {
        return registry == null ? List.of() : registry.resolutions();
    }

    @Override
    public Want want(String name) {
        if (!running || name == null || name.isEmpty()) {
            return Want.REFUSED;
        }
        return registry.want(name);
    }

    @Override
    public void release(String name) {
        if (registry != null && name != null) {
            registry.release(name);
        }
    }

    @Override
    public boolean isOwnSearcher(InetSocketAddress endpoint) {
        if (endpoint == null || endpoint.getAddress() == null) {
            return false;
        }
        int port = ownSearchPort;
        if (port != 0 && endpoint.getPort() == port && isLocal(endpoint.getAddress())) {
            return true;
        }
        NameServers ns = nameServers;
        return ns != null && ns.isLocalEnd(endpoint);
    }

    /** Whether {@code a} is one of this host's addresses (the search socket is bound to the wildcard). */
    private boolean isLocal(InetAddress a) {
        InetAddress u = WireAddress.unmap(a);
        return u.isLoopbackAddress() || u.isAnyLocalAddress() || localAddresses.contains(u);
    }

    private static Set<InetAddress> readLocalAddresses() {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface ni : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (java.util.Enumeration<InetAddress> e = ni.getInetAddresses(); e.hasMoreElements(); ) {
                    out.add(WireAddress.unmap(e.nextElement()));
                }
            }
        } catch (SocketException e) {
            LOG.log(Level.DEBUG, "cannot list the network interfaces: " + e.getMessage());
        }
        return Set.copyOf(out);
    }

    @Override
    public void addListener(Listener listener) {
        registry.addListener(listener);
    }

    @Override
    public void removeListener(Listener listener) {
        registry.removeListener(listener);
    }

    // ================================================================ status

    @Override
    public void contribute(SnapshotBuilder b) {
        if (!running) {
            b.pva(PvaSnapshot.stopped());
            return;
        }
        status.contribute(b, config.watch());
    }

    /** The client's section, built on the engine loop. */
    public PvaSnapshot snapshot() {
        return running ? status.snapshot(config.watch()) : PvaSnapshot.stopped();
    }

    PvaCounters counters() {
        return status.counters();
    }

    // ---- for tests in this package

    /** A beacon heard elsewhere, as if a socket of the client had read it. */
    void beaconHeard(Beacon b, int version, InetSocketAddress source) {
        replies.onBeacon(b, version, source);
    }

    SearchRing ring() {
        return driver.ring();
    }

    int searchPort() {
        return sockets.searchPort();
    }

    int beaconPort() {
        return sockets.beaconPort();
    }

    ServerTable serverTable() {
        return replies.servers();
    }

    PvChannel channel(String name) {
        return registry.byName(name);
    }

    ClaimChecks checks() {
        return checks;
    }

    Map<String, NameServerConnection> nameServers() {
        return nameServers.connections();
    }

    ReplyProcessor replies() {
        return replies;
    }

    SearchFanOut fanOut() {
        return fanOut;
    }
}
