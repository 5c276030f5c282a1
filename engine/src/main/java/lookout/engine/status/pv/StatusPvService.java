package lookout.engine.status.pv;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.Metric;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.StatusPvsSnapshot;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.PvaConfig;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.pva.pvserve.PvHost;
import lookout.engine.pva.pvserve.PvServeCounters;
import lookout.engine.pva.pvserve.PvServeLimits;
import lookout.engine.seams.HostedPvs;

/**
 * The engine's status as EPICS PVs (issue 15; docs/design/status-pvs.md): with
 * {@code status.pv_prefix} set, NTScalars with alarms and NTTables under that prefix, served by the
 * engine's own PVA server — which claims the names in searches (UDP and its TCP name server) and
 * hands the channel side of its TCP connections here, through the {@link HostedPvs} seam.
 *
 * <p>A tick every 250 ms while anyone monitors a PV (once a second otherwise) reads the engine
 * snapshot and posts what changed: at most four updates a second per PV, a heartbeat at least
 * every 10 s. The PVs appear at the first tick after the engine started, and move at the first
 * tick after a reload that changes the prefix (the old names' channels are destroyed; their
 * clients search again).
 *
 * <p>Concurrency: every field is confined to the engine loop, except {@code host}, which the PVA
 * server's threads read (volatile; the PV server documents its own).
 */
public final class StatusPvService implements Service, HostedPvs {

    private static final Logger LOG = System.getLogger("lookout.status.pvs");
    static final long TICK_MS = 250;
    /** Ticks without a monitor that are skipped: one read a second keeps GETs and the windows fresh. */
    static final int IDLE_EVERY = 4;

    private ServiceContext ctx;
    private volatile PvHost host;
    private final StatusModel model = new StatusModel();
    private StatusPublisher publisher;
    private String prefix;
    private String notServed;
    private Scheduler.Cancellable tick = Scheduler.Cancellable.NONE;
    private long ticks;

    @Override
    public String name() {
        return "status-pvs";
    }

    @Override
    public void start(ServiceContext context, Config config) {
        this.ctx = context;
        this.host = new PvHost(context.scheduler(), PvServeLimits.DEFAULT);
        configure(config);
        tick = context.scheduler().scheduleAtFixedRate(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void configure(Config config) {
        String p = config.status() == null ? null : config.status().pvPrefix();
        if (!Objects.equals(p, prefix) && publisher != null) {
            publisher.withdraw();
            publisher = null;
        }
        prefix = p;
        notServed = p == null ? null : notServed(config.pva());
        if (notServed != null) {
            ctx.publish(new EngineEvent.Notice(ctx.scheduler().now(), Subsystem.STATUS, Severity.WARNING,
                    "status PVs under " + p + " are not served: " + notServed));
        }
    }

    /** Why the PVA server cannot serve the PVs, or null when it can. */
    static String notServed(PvaConfig pva) {
        if (pva == null || !pva.server().enable() || !pva.server().nameServer()) {
            return "the engine's PVA server and its TCP port are off "
                    + "(pva => { server => { enable => true, name_server => true } } serves them)";
        }
        return null;
    }

    private void tick() {
        if (prefix == null) {
            return;
        }
        ticks++;
        boolean watched = host.load().monitors() > 0;
        if (publisher != null && !watched && ticks % IDLE_EVERY != 0) {
            return;
        }
        EngineSnapshot s = ctx.loopSnapshot();
        if (s == null) {
            return; // the engine is starting or stopping
        }
        Runtime rt = Runtime.getRuntime();
        long now = ctx.scheduler().nanoTime();
        var readings = model.read(s, now, rt.totalMemory() - rt.freeMemory());
        if (publisher == null) {
            publisher = new StatusPublisher(host, prefix, readings, ctx.scheduler().now(), now,
                    Math.round(rt.maxMemory() / 1048576.0 * 10) / 10.0);
            LOG.log(Level.INFO, "status PVs published under " + prefix + " (" + host.published().size() + " PVs)");
            return;
        }
        publisher.update(readings, ctx.scheduler().now(), now);
    }

    @Override
    public void apply(Config before, Config after) {
        configure(after);
    }

    @Override
    public void stop() {
        tick.cancel();
        if (publisher != null) {
            publisher.withdraw();
            publisher = null;
        }
        PvHost h = host;
        if (h != null) {
            h.withdrawAll();
            h.flush();
        }
    }

    // ---------------------------------------------------------------- HostedPvs (the PVA server's side)

    @Override
    public boolean hosts(String name) {
        PvHost h = host;
        return h != null && h.hosts(name);
    }

    @Override
    public Session open(Peer peer) {
        PvHost h = host;
        if (h == null) {
            return new Session() {
                @Override
                public void message(io.netty.buffer.ByteBuf frame) {
                }

                @Override
                public void closed() {
                }
            };
        }
        return h.open(peer);
    }

    // ---------------------------------------------------------------- snapshot

    @Override
    public void contribute(SnapshotBuilder snapshot) {
        PvHost h = host;
        if (h == null) {
            return;
        }
        PvServeCounters c = h.counters();
        PvHost.Load load = h.load();
        if (prefix != null) {
            snapshot.statusPvs(new StatusPvsSnapshot(prefix, notServed == null, notServed, load.connections(),
                    load.channels(), load.monitors(), c.updatesSent, c.malformed, c.slowClients, refused(c),
                    publisher == null ? List.of() : publisher.describe()));
        }
        snapshot.metrics(metrics(load, c));
    }

    private static long refused(PvServeCounters c) {
        return c.connectionsRefused + c.channelsRefused + c.operationsRefused + c.writesRefused;
    }

    private List<Metric> metrics(PvHost.Load load, PvServeCounters c) {
        List<Metric> m = new ArrayList<>();
        m.add(Metric.gauge("lookout_status_pvs_published", "status PVs published", publisher == null ? 0
                : host.published().size()));
        m.add(Metric.gauge("lookout_status_pvs_connections", "PVA connections holding status-PV channels",
                load.connections()));
        m.add(Metric.gauge("lookout_status_pvs_channels", "status-PV channels open", load.channels()));
        m.add(Metric.gauge("lookout_status_pvs_monitors", "status-PV monitors alive", load.monitors()));
        m.add(Metric.counter("lookout_status_pvs_updates_total", "status-PV monitor updates sent", c.updatesSent));
        m.add(Metric.counter("lookout_status_pvs_gets_total", "status-PV GETs answered", c.gets));
        m.add(Metric.counter("lookout_status_pvs_refused_total",
                "status-PV channels, operations, connections and writes refused", refused(c)));
        m.add(new Metric("lookout_status_pvs_closed_total", "PVA connections closed by the status PVs, by reason",
                "counter", java.util.Map.of("reason", "malformed"), c.malformed));
        m.add(new Metric("lookout_status_pvs_closed_total", "PVA connections closed by the status PVs, by reason",
                "counter", java.util.Map.of("reason", "slow_client"), c.slowClients));
        return m;
    }
}
