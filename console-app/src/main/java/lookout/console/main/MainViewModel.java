package lookout.console.main;

import java.time.Duration;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ReloadResult;
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
        resolverSummary.set(s.resolver() == null ? "Resolver: not running" : "Resolver: running",
                s.resolver() == null ? Level.INACTIVE : Level.NORMAL);
        poolsSummary.set(s.pools() == null ? "Pools: not running" : "Pools: running",
                s.pools() == null ? Level.INACTIVE : Level.NORMAL);
        boolean pva = s.pva() != null || s.pvaServer() != null;
        pvaSummary.set(pva ? "PVA: running" : "PVA: not running", pva ? Level.NORMAL : Level.INACTIVE);
        tick(receivedNanos);
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
