package lookout.console.fleet;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import lookout.console.gateway.FleetGateway.Sample;
import lookout.console.widgets.Indicator.Level;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolverSnapshot;

/**
 * The fleet view without a toolkit: one row per engine (name, state, resolver health, in-flight,
 * pools in failover, PVA servers online, configuration version, last reload), in the order given,
 * updated in place from each engine's samples, and a one-line summary of the whole fleet.
 *
 * <p>Concurrency: UI thread only.
 */
public final class FleetViewModel {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final ObservableList<FleetRow> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");

    /** @param urls the engines, in the order the operator gave them */
    public FleetViewModel(List<String> urls) {
        List<FleetRow> list = new ArrayList<>();
        for (String u : urls) {
            list.add(new FleetRow(u));
        }
        rows.setAll(list);
        summarize();
    }

    public ObservableList<FleetRow> rows() {
        return rows;
    }

    /** "3 engines: 2 running, 1 UNREACHABLE · 1 pool in FAILOVER". */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** The newest sample of engine {@code i}. */
    public void onSample(int i, Sample s) {
        FleetRow r = rows.get(i);
        if (s.identity() != null) {
            r.name.set(s.identity().engine().isEmpty() ? r.url() : s.identity().engine());
        }
        if (s.problem() != null) {
            boolean notLookout = s.problem().contains("is not a Lookout engine");
            r.state.set(notLookout ? "NOT LOOKOUT" : "UNREACHABLE");
            r.problem.set(s.problem());
            r.level.set(Level.ALARM);
            r.stateLevel.set(Level.ALARM);
            summarize();
            return; // the other columns keep the last values seen (the state says they are old)
        }
        r.problem.set("");
        EngineSnapshot snap = s.snapshot();
        EngineState st = snap.state();
        r.state.set(st.name());
        Level level = st == EngineState.RUNNING ? Level.NORMAL : st == EngineState.FAILED ? Level.ALARM : Level.INACTIVE;
        r.stateLevel.set(level);

        ResolverSnapshot res = snap.resolver();
        if (res == null) {
            r.resolver.set("not running");
            r.inFlight.set("");
            r.resolverLevel.set(Level.INACTIVE);
        } else {
            int total = 0;
            int healthy = 0;
            for (ResolverSnapshot.Scope sc : res.scopes()) {
                if (sc.fallback()) {
                    continue; // seed 000 §4.6.3: fallback marks are not reported
                }
                for (ResolverSnapshot.Server sv : sc.servers()) {
                    total++;
                    healthy += sv.demoted() ? 0 : 1;
                }
            }
            r.resolver.set(total == 0 ? "no upstreams" : healthy + "/" + total + " healthy");
            r.resolverLevel.set(healthy < total ? Level.ADVISORY : Level.NORMAL);
            r.inFlight.set(res.inFlight() + "/" + res.inFlightCeiling());
            if (healthy < total && level == Level.NORMAL) {
                level = Level.ADVISORY;
            }
        }

        PoolsSnapshot p = snap.pools();
        if (p == null || !p.running()) {
            r.failover.set("not running");
            r.failoverLevel.set(Level.INACTIVE);
        } else {
            List<String> names = new ArrayList<>();
            for (PoolsSnapshot.PoolResource pr : p.resources()) {
                if (pr.families().stream().anyMatch(PoolsSnapshot.PoolFamily::failover)) {
                    names.add(pr.name());
                }
            }
            r.failover.set(names.isEmpty() ? "0 of " + p.resources().size() : names.size() + " of " + p.resources().size()
                    + " (" + String.join(", ", names) + ")");
            r.failoverLevel.set(names.isEmpty() ? Level.NORMAL : Level.ADVISORY);
            if (!names.isEmpty() && level == Level.NORMAL) {
                level = Level.ADVISORY;
            }
        }

        if (snap.pva() == null || !snap.pva().running()) {
            r.pvaServers.set("client off");
        } else {
            long online = snap.pva().servers().stream().filter(d -> d.status() == PvaDiscoveredServer.Status.ONLINE).count();
            long stale = snap.pva().servers().stream().filter(d -> d.status() == PvaDiscoveredServer.Status.STALE).count();
            r.pvaServers.set(online + " online" + (stale > 0 ? ", " + stale + " stale" : ""));
        }

        ConfigStatus c = snap.config();
        if (c == null) {
            r.configVersion.set("");
            r.lastReload.set("");
            r.reloadLevel.set(Level.INACTIVE);
        } else {
            r.configVersion.set("v" + c.version());
            ReloadResult lr = c.lastReload();
            if (lr == null) {
                r.lastReload.set("none since " + time(c.appliedAt()));
                r.reloadLevel.set(Level.NORMAL);
            } else if (lr.applied()) {
                r.lastReload.set("v" + lr.version() + " applied " + time(lr.at()));
                r.reloadLevel.set(Level.NORMAL);
            } else {
                r.lastReload.set("REJECTED " + time(lr.at()) + (lr.reasons().isEmpty() ? "" : ": " + lr.reasons().get(0)));
                r.reloadLevel.set(Level.ADVISORY);
                if (level == Level.NORMAL) {
                    level = Level.ADVISORY;
                }
            }
        }
        r.level.set(level);
        summarize();
    }

    private static String time(Instant t) {
        return t == null ? "-" : TIME.format(t);
    }

    private void summarize() {
        int running = 0;
        int down = 0;
        int waiting = 0;
        int failover = 0;
        for (FleetRow r : rows) {
            switch (r.state()) {
                case "RUNNING" -> running++;
                case "UNREACHABLE", "NOT LOOKOUT", "FAILED" -> down++;
                default -> waiting++;
            }
            if (r.failoverLevel.get() == Level.ADVISORY) {
                failover++;
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(rows.size()).append(rows.size() == 1 ? " engine: " : " engines: ").append(running).append(" running");
        if (down > 0) {
            b.append(", ").append(down).append(" DOWN or unreachable");
        }
        if (waiting > 0) {
            b.append(", ").append(waiting).append(" other");
        }
        if (failover > 0) {
            b.append(" · ").append(failover).append(failover == 1 ? " engine" : " engines").append(" with pools in FAILOVER");
        }
        summary.set(b.toString());
    }
}
