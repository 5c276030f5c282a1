package lookout.console.main;

import java.time.Duration;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolverSnapshot;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.Indicator.Level;

/**
 * The main window without a toolkit: the summary strip across the top and the status bar.
 *
 * <p>Concurrency: UI thread only.
 */
public final class MainViewModel {

    /** Data older than this is flagged (the gateway polls every 250 ms). */
    static final Duration STALE_AFTER = Duration.ofSeconds(2);

    // status bar
    private final Indicator engineState = new Indicator();
    private final Indicator configVersion = new Indicator();
    private final Indicator lastReload = new Indicator();
    private final Indicator dataAge = new Indicator();
    private final Indicator connection = new Indicator();

    // summary strip
    private final Indicator resolverSummary = new Indicator();
    private final Indicator poolsSummary = new Indicator();
    private final Indicator pvaSummary = new Indicator();
    private final Indicator configSummary = new Indicator();

    private long lastSnapshotNanos;
    /** Why the engine is not running (start failed, invalid configuration), until it runs. */
    private String notRunningReason;

    public MainViewModel() {
        engineState.set("Engine: starting…", Level.INACTIVE);
        configVersion.set("Configuration: —", Level.NORMAL);
        lastReload.set("Last reload: none", Level.NORMAL);
        dataAge.set("Data: none yet", Level.INACTIVE);
        connection.set("Embedded engine", Level.NORMAL);
        resolverSummary.set("Resolver: —", Level.INACTIVE);
        poolsSummary.set("Pools: —", Level.INACTIVE);
        pvaSummary.set("PVA: —", Level.INACTIVE);
        configSummary.set("Config: —", Level.INACTIVE);
    }

    public Indicator engineState() {
        return engineState;
    }

    public Indicator configVersion() {
        return configVersion;
    }

    public Indicator lastReload() {
        return lastReload;
    }

    public Indicator dataAge() {
        return dataAge;
    }

    /** Embedded, or attached to which engine; a lost connection; a read-only console. */
    public Indicator connection() {
        return connection;
    }

    /** Which engine, for an attached console: its name. */
    private String attachedTo;

    /** The console is attached to the engine named {@code label}. */
    public void attachedTo(String label) {
        attachedTo = label;
        connection.set("Attached to " + label, Level.NORMAL);
    }

    /**
     * The gateway's connection state: {@code problem} non-null while snapshots do not come through
     * (the data age goes STALE on its own), {@code readOnly} the reason this console may not write.
     */
    public void onConnection(String problem, String readOnly) {
        if (attachedTo == null) {
            if (problem != null) {
                connection.set("Engine not answering: " + problem, Level.ALARM);
            } else {
                connection.set("Embedded engine", Level.NORMAL);
            }
            return;
        }
        if (problem != null) {
            connection.set("Connection LOST to " + attachedTo + ": " + problem, Level.ALARM);
            engineState.set("Engine: UNREACHABLE", Level.ALARM);
        } else if (readOnly != null) {
            connection.set("Attached to " + attachedTo + " · READ-ONLY", Level.ADVISORY);
        } else {
            connection.set("Attached to " + attachedTo, Level.NORMAL);
        }
    }

    public Indicator resolverSummary() {
        return resolverSummary;
    }

    public Indicator poolsSummary() {
        return poolsSummary;
    }

    public Indicator pvaSummary() {
        return pvaSummary;
    }

    public Indicator configSummary() {
        return configSummary;
    }

    /** The engine could not start (or was never started because the configuration is invalid). */
    public void engineNotRunning(String why) {
        notRunningReason = why;
        engineState.set("Engine: NOT RUNNING — " + why, Level.ALARM);
        configSummary.set("Config: NOT APPLIED — " + why, Level.ALARM);
    }

    /** A snapshot reached the UI at {@code receivedNanos} (System.nanoTime). */
    public void onSnapshot(EngineSnapshot s, long receivedNanos) {
        lastSnapshotNanos = receivedNanos;
        EngineState st = s.state();
        if (st == EngineState.RUNNING) {
            notRunningReason = null;
        }
        if (notRunningReason != null) {
            tick(receivedNanos);
            return; // keep saying why; there is nothing else in a snapshot of an engine that never started
        }
        engineState.set("Engine: " + st, switch (st) {
            case RUNNING -> Level.NORMAL;
            case NEW, STARTING, STOPPING, STOPPED -> Level.INACTIVE;
            case FAILED -> Level.ALARM;
        });
        ConfigStatus c = s.config();
        if (c != null) {
            String shortHash = c.sha256() == null ? "" : c.sha256().substring(0, Math.min(12, c.sha256().length()));
            configVersion.set("Configuration: version " + c.version() + " (" + shortHash + ")", Level.NORMAL);
            ReloadResult r = c.lastReload();
            if (r == null) {
                lastReload.set("Last reload: none", Level.NORMAL);
                configSummary.set("Config v" + c.version(), Level.NORMAL);
            } else if (r.applied()) {
                lastReload.set("Last reload: version " + r.version() + " applied", Level.NORMAL);
                configSummary.set("Config v" + c.version() + " · reload OK", Level.NORMAL);
            } else {
                String first = r.problems().isEmpty() ? "" : ": " + r.problems().get(0);
                lastReload.set("Last reload: REJECTED (" + r.problems().size() + " error"
                        + (r.problems().size() == 1 ? "" : "s") + ")" + first, Level.ADVISORY);
                configSummary.set("Config v" + c.version() + " · last reload rejected", Level.ADVISORY);
            }
        }
        summarizeResolver(s);
        summarizePools(s);
        summarizePva(s);
        tick(receivedNanos);
    }

    /** Refused counter samples (snapshot time, count) over the last minute, oldest first. */
    private final java.util.ArrayDeque<long[]> refusedSamples = new java.util.ArrayDeque<>();

    private void summarizeResolver(EngineSnapshot s) {
        ResolverSnapshot r = s.resolver();
        if (r == null) {
            resolverSummary.set("Resolver: not running", Level.INACTIVE);
            refusedSamples.clear();
            return;
        }
        int total = 0;
        int healthy = 0;
        for (ResolverSnapshot.Scope sc : r.scopes()) {
            if (sc.fallback()) {
                continue; // seed 000 §4.6.3: fallback marks are not reported
            }
            for (ResolverSnapshot.Server sv : sc.servers()) {
                total++;
                if (!sv.demoted()) {
                    healthy++;
                }
            }
        }
        long now = s.takenAt().toEpochMilli();
        refusedSamples.addLast(new long[] {now, r.refused()});
        while (refusedSamples.size() > 1 && refusedSamples.peekFirst()[0] < now - 60_000) {
            refusedSamples.removeFirst();
        }
        long[] first = refusedSamples.peekFirst();
        long refusedPerMinute = Math.max(0, r.refused() - first[1]);
        String text = (total == 0 ? "Resolver: no upstream servers" : "Resolver: servers " + healthy + "/" + total + " healthy")
                + " · in flight " + r.inFlight() + "/"
                + r.inFlightCeiling() + " · refused " + refusedPerMinute + "/min";
        resolverSummary.set(text, healthy < total || refusedPerMinute > 0 ? Level.ADVISORY : Level.NORMAL);
    }

    private void summarizePools(EngineSnapshot s) {
        PoolsSnapshot p = s.pools();
        if (p == null || !p.running()) {
            poolsSummary.set("Pools: not running", Level.INACTIVE);
            return;
        }
        int ok = 0;
        int failover = 0;
        for (PoolsSnapshot.PoolResource r : p.resources()) {
            boolean fo = r.families().stream().anyMatch(PoolsSnapshot.PoolFamily::failover);
            if (fo) {
                failover++;
            } else {
                ok++;
            }
        }
        poolsSummary.set("Pools: " + ok + " OK / " + failover + " in FAILOVER",
                failover > 0 ? Level.ADVISORY : Level.NORMAL);
    }

    /** When each PVA server restart was seen (event time), for "restarts in the last hour". */
    private final java.util.ArrayDeque<java.time.Instant> restarts = new java.util.ArrayDeque<>();

    /** Events from the gateway: only PVA server restarts matter to the strip. */
    public void onEvents(java.util.List<EngineEvent> batch) {
        for (EngineEvent e : batch) {
            if (e instanceof EngineEvent.PvaServerRestarted r) {
                restarts.addLast(r.at());
            }
        }
    }

    private void summarizePva(EngineSnapshot s) {
        PvaSnapshot client = s.pva();
        PvaServerSnapshot own = s.pvaServer();
        boolean ownRunning = own != null && own.running();
        if ((client == null || !client.running()) && !ownRunning) {
            pvaSummary.set("PVA: not running", Level.INACTIVE);
            return;
        }
        java.time.Instant hourAgo = s.takenAt().minus(Duration.ofHours(1));
        while (!restarts.isEmpty() && restarts.peekFirst().isBefore(hourAgo)) {
            restarts.removeFirst();
        }
        StringBuilder sb = new StringBuilder("PVA:");
        Level level = Level.NORMAL;
        if (client != null && client.running()) {
            int online = 0;
            int stale = 0;
            for (PvaDiscoveredServer d : client.servers()) {
                if (d.status() == PvaDiscoveredServer.Status.ONLINE) {
                    online++;
                } else if (d.status() == PvaDiscoveredServer.Status.STALE) {
                    stale++;
                }
            }
            sb.append(" servers ").append(online).append(" online / ").append(stale).append(" stale · restarts 1 h: ")
                    .append(restarts.size()).append(" · searching ").append(client.searching());
            if (stale > 0 || !restarts.isEmpty()) {
                level = Level.ADVISORY;
            }
        } else {
            sb.append(" client not running");
        }
        if (!ownRunning) {
            sb.append(" · own server off");
        }
        pvaSummary.set(sb.toString(), level);
    }

    /** Called about once a second (and after each snapshot) to age the data indicator. */
    public void tick(long nowNanos) {
        if (lastSnapshotNanos == 0) {
            return;
        }
        long ms = Math.max(0, (nowNanos - lastSnapshotNanos) / 1_000_000);
        if (ms >= STALE_AFTER.toMillis()) {
            dataAge.set("Data: STALE, " + formatAge(ms) + " old", Level.ADVISORY);
        } else {
            dataAge.set("Data: " + formatAge(ms) + " old", Level.NORMAL);
        }
    }

    static String formatAge(long ms) {
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 120_000) {
            return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        return (ms / 60_000) + " min";
    }
}
