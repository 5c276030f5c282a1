package lookout.console.pools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.Props;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;

/**
 * The Pools pane without a toolkit: resource → family → group → address with weight, monitored,
 * forced and effective state, live weight and exact odds (computed by the engine, seed 001), the
 * FAILOVER badge, and force UP / DOWN / release.
 *
 * <p>Concurrency: UI thread only. The tree's rows are created once per key and updated in place;
 * a row's children list changes only when membership or order does. No toolkit class here: the
 * view mirrors the rows into its tree.
 */
public final class PoolsViewModel {

    /** The pools commands this pane sends (the gateway in the console). */
    public interface Commands {
        CompletableFuture<Void> force(String key, String state, Duration ttl);

        CompletableFuture<Void> release(String key);

        /** The engine's odds under hypothetical monitor states (glob → UP/DOWN); nothing applied. */
        CompletableFuture<List<PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical);
    }

    private final Commands commands;
    private final Indicator status = new Indicator();
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final lookout.console.widgets.Note actionMessage = new lookout.console.widgets.Note();
    private final StringProperty readOnly = new SimpleStringProperty("");
    private final BooleanProperty running = new SimpleBooleanProperty();
    private final PoolRow root = new PoolRow(PoolRow.Kind.RESOURCE, "");
    private final Map<String, PoolRow> items = new HashMap<>();
    private final BooleanProperty whatIf = new SimpleBooleanProperty();
    private final Map<String, String> hypothetical = new java.util.LinkedHashMap<>();
    private final ReadOnlyStringWrapper whatIfText = new ReadOnlyStringWrapper("");
    private int familiesOk;
    private int familiesFailover;

    public PoolsViewModel(Commands commands) {
        this.commands = commands;
        status.set("Waiting for the first snapshot…", Indicator.Level.INACTIVE);
        whatIf.addListener((o, was, on) -> {
            if (on) {
                recomputeWhatIf();
            } else {
                clearWhatIf();
            }
        });
    }

    public Indicator status() {
        return status;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty actionMessageProperty() {
        return actionMessage.textProperty();
    }

    /** The last action's message; it clears itself after a while (the view's timer). */
    public lookout.console.widgets.Note actionNote() {
        return actionMessage;
    }

    public BooleanProperty runningProperty() {
        return running;
    }

    /**
     * Why this console may not change the engine ("read-only: this console's token is a viewer's"),
     * or empty when it may. Force and Release refuse then (What-if still works: nothing is applied).
     */
    public StringProperty readOnlyProperty() {
        return readOnly;
    }

    /** What-if mode: Force and Release change hypothetical states only, and the odds are recomputed. */
    public BooleanProperty whatIfProperty() {
        return whatIf;
    }

    public ReadOnlyStringProperty whatIfTextProperty() {
        return whatIfText.getReadOnlyProperty();
    }

    /** The invisible top line; its children are the resources. */
    public PoolRow root() {
        return root;
    }

    /** Families answering normally, for the summary strip. */
    public int familiesOk() {
        return familiesOk;
    }

    /** Families in failover, for the summary strip. */
    public int familiesFailover() {
        return familiesFailover;
    }

    /** The row with this key ({@code resource}, {@code resource/family}, {@code …/group}, {@code …/label}), or null. */
    public PoolRow row(String key) {
        return items.get(key);
    }

    /** The item row of {@code label} in {@code resource}/{@code family}, or null. */
    public PoolRow item(String resource, String family, String label) {
        return row("ITEM:" + resource + "/" + family + "/" + label);
    }

    /** The last pools section seen, for "why these odds?". */
    private PoolsSnapshot last;

    public void onSnapshot(EngineSnapshot s) {
        PoolsSnapshot p = s.pools();
        last = p;
        if (p == null || !p.running()) {
            running.set(false);
            status.set("Not running: the engine has no weighted pools running.", Indicator.Level.INACTIVE);
            detail.set("No resources to show: nothing here is invented.");
            sync(root, List.of());
            familiesOk = 0;
            familiesFailover = 0;
            return;
        }
        running.set(true);
        Map<String, PoolsSnapshot.PoolMonitor> forcedByTarget = new HashMap<>();
        Map<String, List<PoolsSnapshot.PoolMonitor>> monitorsByTarget = new HashMap<>();
        for (PoolsSnapshot.PoolMonitor m : p.monitors()) {
            monitorsByTarget.computeIfAbsent(m.target(), k -> new ArrayList<>()).add(m);
            if (m.forcedState() != null) {
                forcedByTarget.put(m.target(), m);
            }
        }
        int ok = 0;
        int fo = 0;
        List<PoolRow> resources = new ArrayList<>();
        for (PoolsSnapshot.PoolResource r : p.resources()) {
            PoolRow rr = item(PoolRow.Kind.RESOURCE, r.name());
            rr.name.set(r.name());
            rr.target.set(r.kind());
            rr.note.set(r.answers() + " answers drawn");
            rr.forced.set(r.forcedState() == null ? "" : r.forcedState());
            List<PoolRow> fams = new ArrayList<>();
            long total = 0;
            long live = 0;
            boolean anyFailover = false;
            for (PoolsSnapshot.PoolFamily f : r.families()) {
                String fk = r.name() + "/" + f.family();
                PoolRow fr = item(PoolRow.Kind.FAMILY, fk);
                fr.name.set(f.family());
                fr.target.set(f.mode());
                fr.weight.set(f.totalWeight());
                fr.liveWeight.set(f.liveWeight());
                fr.failover.set(f.failover());
                fr.single.set(f.mode().endsWith("single") || f.mode().equals("cname"));
                fr.note.set((f.failover() ? "FAILOVER: " : "") + "live " + f.liveWeight() + " / up_weight " + f.upWeight()
                        + String.format(Locale.ROOT, " (up_thresh %.2f)", f.upThresh()));
                fr.effective.set(f.failover() ? "FAILOVER" : "");
                total += f.totalWeight();
                live += f.liveWeight();
                anyFailover |= f.failover();
                if (f.failover()) {
                    fo++;
                } else {
                    ok++;
                }
                boolean grouped = f.mode().startsWith("grouped");
                List<PoolRow> groupItems = new ArrayList<>();
                for (PoolsSnapshot.PoolGroup g : f.groups()) {
                    List<PoolRow> leafs = new ArrayList<>();
                    for (PoolsSnapshot.PoolItem it : g.items()) {
                        PoolRow lr = item(PoolRow.Kind.ITEM, fk + "/" + it.label());
                        lr.name.set(it.label());
                        lr.target.set(it.target());
                        lr.weight.set(it.weight());
                        lr.liveWeight.set(it.dynamicWeight());
                        lr.odds.set(it.probability());
                        Props.set(lr.oddsShown, new PoolRow.Odds(it.probability(), List.of()));
                        lr.monitored.set(monitoredState(it, monitorsByTarget.get(it.target())));
                        PoolsSnapshot.PoolMonitor forced = forcedByTarget.get(it.target());
                        lr.forced.set(forced == null ? "" : forced.forcedState());
                        lr.effective.set(it.down() ? "DOWN" : "UP");
                        leafs.add(lr);
                    }
                    if (grouped) {
                        PoolRow gr = item(PoolRow.Kind.GROUP, fk + "/" + g.name());
                        gr.name.set(g.name());
                        gr.weight.set(g.weight());
                        gr.liveWeight.set(g.liveWeight());
                        gr.odds.set(g.probability());
                        Props.set(gr.oddsShown, new PoolRow.Odds(g.probability(), List.of()));
                        sync(gr, leafs);
                        groupItems.add(gr);
                    } else {
                        groupItems.addAll(leafs);
                    }
                }
                sync(fr, groupItems);
                List<PoolRow.Share> shares = new ArrayList<>();
                if (fr.single.get()) {
                    for (PoolRow g : groupItems) {
                        for (PoolRow leaf : g.kind == PoolRow.Kind.GROUP ? g.children : List.of(g)) {
                            shares.add(new PoolRow.Share(leaf.name(), leaf.odds()));
                        }
                    }
                }
                Props.set(fr.oddsShown, new PoolRow.Odds(-1, shares));
                fams.add(fr);
            }
            rr.weight.set(total);
            rr.liveWeight.set(live);
            rr.effective.set(anyFailover ? "FAILOVER" : "");
            sync(rr, fams);
            resources.add(rr);
        }
        sync(root, resources);
        familiesOk = ok;
        familiesFailover = fo;
        if (fo > 0) {
            status.set(fo + " famil" + (fo == 1 ? "y" : "ies") + " in FAILOVER, " + ok + " OK", Indicator.Level.ADVISORY);
        } else {
            status.set("Running: " + ok + " famil" + (ok == 1 ? "y" : "ies") + " OK.", Indicator.Level.NORMAL);
        }
        detail.set(p.resources().size() + " resources · " + p.monitors().size() + " monitors · " + p.forced().size()
                + " forced entries" + (p.adminStateError() == null ? "" : " · admin_state ERROR: " + p.adminStateError()));
    }

    private static String monitoredState(PoolsSnapshot.PoolItem it, List<PoolsSnapshot.PoolMonitor> monitors) {
        if (monitors == null || monitors.isEmpty()) {
            return it.monitoredDown() ? "DOWN" : "UP";
        }
        StringBuilder sb = new StringBuilder();
        for (PoolsSnapshot.PoolMonitor m : monitors) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(m.serviceType()).append(' ').append(m.monitoredState());
        }
        return sb.toString();
    }

    private PoolRow item(PoolRow.Kind kind, String key) {
        return items.computeIfAbsent(kind + ":" + key, k -> new PoolRow(kind, key));
    }

    /** Children in order, touching the list only when membership or order changed. */
    private void sync(PoolRow parent, List<PoolRow> children) {
        if (!parent.children.equals(children)) {
            for (PoolRow gone : parent.children) {
                if (!children.contains(gone)) {
                    forget(gone);
                }
            }
            parent.children.setAll(children);
        }
    }

    private void forget(PoolRow r) {
        items.remove(r.kind() + ":" + r.key());
        r.children.forEach(this::forget);
    }

    // ------------------------------------------------------------------ why these odds?

    /**
     * Why a line has the odds it has (issue 17 item 12), from the engine's last pools section: the
     * address's weight and states (each monitor's, forced), its family's rule, live weight and
     * up_weight, failover — and the number the engine computed, worked out in the rule's words.
     */
    public lookout.console.widgets.Why why(PoolRow row) {
        return OddsWhy.of(last, row.kind(), row.key());
    }

    // ------------------------------------------------------------------ actions

    /**
     * The admin_state key a force on {@code row} sets: every monitor of an address
     * ({@code 192.0.2.1/*}) or a whole resource ({@code weighted!NAME}: every item UP, or DOWN and
     * so in failover, monitors ignored); null for family and group lines, which cannot be forced.
     */
    public static String forceKey(PoolRow row) {
        return switch (row.kind()) {
            case ITEM -> row.target() + "/*";
            case RESOURCE -> "weighted!" + row.name();
            default -> null;
        };
    }

    /** Forces an address or a resource UP or DOWN until released; in what-if mode, only hypothetically. */
    public CompletableFuture<Void> force(PoolRow row, String state) {
        String key = forceKey(row);
        if (key == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (whatIf.get()) {
            hypothetical.put(key, state);
            return recomputeWhatIf();
        }
        if (!readOnly.get().isEmpty()) {
            actionMessage.say("Not forced: " + readOnly.get());
            return CompletableFuture.completedFuture(null);
        }
        return commands.force(key, state, null).whenComplete((v, e) -> actionMessage.say(e == null
                ? "Forced " + key + " " + state + "." : "Force " + key + " FAILED: " + cause(e)));
    }

    public CompletableFuture<Void> release(PoolRow row) {
        String key = forceKey(row);
        if (key == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (whatIf.get()) {
            hypothetical.remove(key);
            return recomputeWhatIf();
        }
        if (!readOnly.get().isEmpty()) {
            actionMessage.say("Not released: " + readOnly.get());
            return CompletableFuture.completedFuture(null);
        }
        return commands.release(key).whenComplete((v, e) -> actionMessage.say(e == null
                ? "Released " + key + "." : "Release " + key + " FAILED: " + cause(e)));
    }

    /** Leaves what-if mode: hypothetical states and odds are cleared. */
    private void clearWhatIf() {
        hypothetical.clear();
        whatIfText.set("");
        for (PoolRow r : items.values()) {
            r.whatIfOdds.set(-1);
            r.whatIfState.set("");
        }
    }

    /** Asks the engine for the odds under the hypothetical states and shows them beside the live ones. */
    public CompletableFuture<Void> recomputeWhatIf() {
        Map<String, String> h = new java.util.LinkedHashMap<>(hypothetical);
        whatIfText.set(h.isEmpty() ? "WHAT-IF: no hypothetical state yet — use Force / Release; nothing is applied"
                : "WHAT-IF (nothing applied): " + String.join(", ", h.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).toList()));
        return commands.whatIf(h).handle((list, e) -> {
            if (e != null) {
                actionMessage.say("What-if FAILED: " + cause(e));
                return null;
            }
            if (!whatIf.get()) {
                return null; // left what-if mode while the engine was computing
            }
            for (PoolsSnapshot.PoolResource r : list) {
                PoolRow rr = row("RESOURCE:" + r.name());
                if (rr != null) {
                    rr.whatIfState.set(r.forcedState() == null ? "" : "forced " + r.forcedState());
                }
                for (PoolsSnapshot.PoolFamily f : r.families()) {
                    String fk = r.name() + "/" + f.family();
                    PoolRow fr = row("FAMILY:" + fk);
                    if (fr != null) {
                        fr.whatIfState.set(f.failover() ? "FAILOVER" : "");
                    }
                    for (PoolsSnapshot.PoolGroup g : f.groups()) {
                        PoolRow gr = row("GROUP:" + fk + "/" + g.name());
                        if (gr != null) {
                            gr.whatIfOdds.set(g.probability());
                        }
                        for (PoolsSnapshot.PoolItem it : g.items()) {
                            PoolRow ir = row("ITEM:" + fk + "/" + it.label());
                            if (ir != null) {
                                ir.whatIfOdds.set(it.probability());
                                ir.whatIfState.set(it.down() ? "DOWN" : "UP");
                            }
                        }
                    }
                }
            }
            return null;
        });
    }

    private static String cause(Throwable e) {
        return lookout.console.widgets.PlainWords.of(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
    }
}
