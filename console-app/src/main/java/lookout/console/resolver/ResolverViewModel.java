package lookout.console.resolver;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.collections.ObservableList;
import lookout.console.widgets.Indicator;
import lookout.console.widgets.KeyedRows;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;

/**
 * The Resolver pane without a toolkit: scopes and servers with their demotion marks counting
 * down (seed 000 §4.6.3: 30 s), the in-flight gauge against the ceiling (§4.6.5) with its
 * high-water mark, the counters, and the resolve box with its trace.
 *
 * <p>Concurrency: UI thread only.
 */
public final class ResolverViewModel {

    /** seed 000 §4.6.3: a demotion mark lasts 30 s. */
    public static final Duration MARK = Duration.ofSeconds(30);

    /** The resolver commands this pane sends (the gateway in the console). */
    @FunctionalInterface
    public interface Commands {
        CompletableFuture<ResolveTrace> resolve(String name, String type);
    }

    private final Commands commands;
    private final Indicator status = new Indicator();
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper counters = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper inFlightText = new ReadOnlyStringWrapper("");
    private final DoubleProperty inFlightFraction = new SimpleDoubleProperty();
    private final IntegerProperty inFlightHighWater = new SimpleIntegerProperty();
    private final BooleanProperty running = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper trace = new ReadOnlyStringWrapper("");
    private final Map<String, String> lastReason = new HashMap<>();
    private final Map<String, long[]> lastSent = new HashMap<>();
    private Instant lastTakenAt;
    private final RateHistory queryRate = new RateHistory();
    private final RateHistory failureRate = new RateHistory();
    private final RateHistory refusedRate = new RateHistory();
    private final KeyedRows<String, Entry, UpstreamRow> rows =
            new KeyedRows<>(Entry::key, e -> new UpstreamRow(e.scope, e.server.address()), (r, e) -> { });

    private record Entry(String scope, ResolverSnapshot.Server server) {
        String key() {
            return scope + "|" + server.address();
        }
    }

    public ResolverViewModel(Commands commands) {
        this.commands = commands;
        status.set("Waiting for the first snapshot…", Indicator.Level.INACTIVE);
    }

    public Indicator status() {
        return status;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty countersProperty() {
        return counters.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty inFlightTextProperty() {
        return inFlightText.getReadOnlyProperty();
    }

    public DoubleProperty inFlightFractionProperty() {
        return inFlightFraction;
    }

    public IntegerProperty inFlightHighWaterProperty() {
        return inFlightHighWater;
    }

    public BooleanProperty runningProperty() {
        return running;
    }

    public ReadOnlyStringProperty traceProperty() {
        return trace.getReadOnlyProperty();
    }

    /** Client questions per second, last 10 minutes. */
    public RateHistory queryRate() {
        return queryRate;
    }

    /** Failed upstream transactions per second (every reason of seed 000 §4.6.2). */
    public RateHistory failureRate() {
        return failureRate;
    }

    /** Questions refused at the in-flight ceiling per second (seed 000 §4.6.5). */
    public RateHistory refusedRate() {
        return refusedRate;
    }

    /** A local zone as the pane lists it (immutable: replaced only when the zone list changes, on reload). */
    public record ZoneRow(String name, String records, String serial) {
    }

    private final ObservableList<ZoneRow> zones = javafx.collections.FXCollections.observableArrayList();

    /** The zones answered locally: name, records, SOA serial. */
    public ObservableList<ZoneRow> zones() {
        return zones;
    }

    public ObservableList<UpstreamRow> servers() {
        return rows.rows();
    }

    public void onEvents(List<EngineEvent> batch) {
        for (EngineEvent e : batch) {
            if (e instanceof EngineEvent.UpstreamDemoted d) {
                lastReason.put(d.address(), d.reason());
            }
        }
    }

    /**
     * How the UDP listeners are read: with {@code resolver.udp_threads} above 1 or natively read
     * sockets, how many per address, how (natively, a reader thread each, or through Netty), what
     * was answered off the engine loop, and answers the kernel would not send, when there were any.
     */
    static String answerLoops(EngineSnapshot s) {
        double threads = 1;
        double onLoops = 0;
        double nativeReads = 0;
        double sendErrors = 0;
        for (lookout.engine.api.Metric m : s.metrics()) {
            switch (m.name()) {
                case "lookout_resolver_udp_threads" -> threads = m.value();
                case "lookout_resolver_answer_loop_answers_total" -> onLoops = m.value();
                case "lookout_resolver_udp_native" -> nativeReads = m.value();
                case "lookout_resolver_udp_send_errors_total" -> sendErrors = m.value();
                default -> {
                }
            }
        }
        if (threads <= 1 && nativeReads == 0) {
            return "";
        }
        String how = nativeReads == 1 ? "read natively" : "through Netty";
        String where = nativeReads == 1 ? "by the readers" : "on answer loops";
        return String.format(Locale.ROOT, " · %d UDP socket%s per address, %s, %d local answers %s%s", (long) threads,
                threads == 1 ? "" : "s", how, (long) onLoops, where,
                sendErrors > 0 ? String.format(Locale.ROOT, ", %d answers the kernel would not send", (long) sendErrors) : "");
    }

    public void onSnapshot(EngineSnapshot s) {
        ResolverSnapshot r = s.resolver();
        lastResolver = r;
        if (r == null) {
            running.set(false);
            status.set("Not running: the engine has no resolver running.", Indicator.Level.INACTIVE);
            detail.set("No scopes, servers or counters to show: nothing here is invented.");
            rows.sync(List.of());
            zones.clear();
            return;
        }
        running.set(true);
        status.set("Running.", Indicator.Level.NORMAL);
        List<ZoneRow> z = new ArrayList<>();
        for (ResolverSnapshot.Zone zone : r.zones()) {
            z.add(new ZoneRow(zone.name(), zone.records() + (zone.dynamic() > 0 ? " (" + zone.dynamic() + " pools)" : ""),
                    zone.serial() < 0 ? "no SOA" : Long.toString(zone.serial())));
        }
        if (!zones.equals(z)) {
            zones.setAll(z); // only when the zones changed (a reload): never per tick
        }
        detail.set("Listening on " + (r.listen().isEmpty() ? "nothing" : String.join(", ", r.listen()))
                + String.format(Locale.ROOT, " · %.1f queries/s", r.queriesPerSecond()) + answerLoops(s));
        List<Entry> entries = new ArrayList<>();
        for (ResolverSnapshot.Scope sc : r.scopes()) {
            String name = sc.fallback() ? "fallback" : sc.name() + (sc.defaultScope() ? " (default)" : "");
            for (ResolverSnapshot.Server sv : sc.servers()) {
                entries.add(new Entry(name, sv));
            }
        }
        rows.sync(entries);
        Map<String, ResolverSnapshot.Upstream> ups = new HashMap<>();
        for (ResolverSnapshot.Upstream u : r.upstreams()) {
            ups.put(u.address(), u);
        }
        double dt = lastTakenAt == null ? 0 : Duration.between(lastTakenAt, s.takenAt()).toMillis() / 1000.0;
        for (Entry e : entries) {
            UpstreamRow row = rows.get(e.key());
            ResolverSnapshot.Server sv = e.server();
            row.demoted.set(sv.demoted());
            row.markLeft.set(sv.demoted() && sv.markLeft() != null ? sv.markLeft().toMillis() / 1000.0 : 0);
            String reason = lastReason.getOrDefault(sv.address(), "");
            if (!reason.equals(row.reason.get())) {
                row.reason.set(reason);
            }
            ResolverSnapshot.Upstream u = ups.get(sv.address());
            if (u == null) {
                row.answered.set(false);
            } else {
                row.answered.set(u.lastSuccess() != null || u.replies() > 0);
                row.failures.set(u.failed());
                long[] prev = lastSent.get(sv.address());
                if (prev != null && dt > 0) {
                    row.perSecond.set(Math.max(0, (u.sent() - prev[0]) / dt));
                }
                lastSent.put(sv.address(), new long[] {u.sent()});
                row.sent.set(u.sent());
                String lat = u.replies() == 0 || u.latencyP50() == null ? "—" : ms(u.latencyP50()) + " / " + ms(u.latencyP99());
                if (!lat.equals(row.latency.get())) {
                    row.latency.set(lat);
                }
                String ok = ago(s.takenAt(), u.lastSuccess());
                if (!ok.equals(row.lastSuccess.get())) {
                    row.lastSuccess.set(ok);
                }
                String bad = ago(s.takenAt(), u.lastFailure());
                if (!bad.equals(row.lastFailure.get())) {
                    row.lastFailure.set(bad);
                }
            }
        }
        lastTakenAt = s.takenAt();
        queryRate.sample(s.takenAt(), r.queries());
        failureRate.sample(s.takenAt(), r.upstreamFailed().values().stream().mapToLong(Long::longValue).sum());
        refusedRate.sample(s.takenAt(), r.refused());
        int ceiling = Math.max(1, r.inFlightCeiling());
        inFlightHighWater.set(Math.max(inFlightHighWater.get(), r.inFlight()));
        inFlightFraction.set(r.inFlight() / (double) ceiling);
        inFlightText.set("In flight " + r.inFlight() + " / " + r.inFlightCeiling() + " · high-water "
                + inFlightHighWater.get() + " · refused " + r.refused());
        StringBuilder c = new StringBuilder();
        c.append("queries ").append(r.queries()).append(" · cache hits ").append(r.cacheHits())
                .append(" (").append(r.cacheEntries()).append(" / ").append(r.cacheCapacity()).append(" entries)")
                .append(" · local ").append(r.localAnswers())
                .append(" · upstream UDP ").append(r.upstreamSentUdp()).append(" TCP ").append(r.upstreamSentTcp())
                .append(" · unavailable ").append(r.unavailable()).append(" · demotions ").append(r.demotions());
        if (!r.upstreamFailed().isEmpty()) {
            c.append(" · upstream_failed ");
            r.upstreamFailed().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(en -> c.append(en.getKey()).append('=').append(en.getValue()).append(' '));
        }
        counters.set(c.toString().strip());
    }

    /** "4 s ago", "3 min ago", "2 h ago" before {@code now} (both engine time); "—" for never. */
    static String ago(Instant now, Instant at) {
        if (at == null) {
            return "—";
        }
        long sec = Math.max(0, Duration.between(at, now).getSeconds());
        if (sec < 120) {
            return sec + " s ago";
        }
        if (sec < 7200) {
            return sec / 60 + " min ago";
        }
        return sec / 3600 + " h ago";
    }

    static String ms(Duration d) {
        return d == null ? "—" : String.format(Locale.ROOT, "%.1f ms", d.toNanos() / 1e6);
    }

    private ResolveTrace lastTrace;
    private ResolverSnapshot lastResolver;

    /** "Why?" of the last name traced (issue 17 item 12), or null before any trace. */
    public lookout.console.widgets.Why why() {
        return lastTrace == null ? null : NameWhy.of(lastTrace, lastResolver);
    }

    /** The resolve box: asks the resolver as a client would and shows the whole trace. */
    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        String n = name == null ? "" : name.strip();
        if (n.isEmpty()) {
            trace.set("Type a name first.");
            return CompletableFuture.completedFuture(null);
        }
        trace.set("Resolving " + n + " " + type + "…");
        return commands.resolve(n, type).whenComplete((t, e) -> {
            if (e != null) {
                trace.set("Resolve FAILED: " + lookout.console.widgets.PlainWords.of(
                        e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
                return;
            }
            lastTrace = t;
            trace.set(format(t) + "Diagnosis: " + NameWhy.of(t, lastResolver).diagnosis() + "\n");
        });
    }

    /** A trace as text: candidates, each attempt, the answer. */
    public static String format(ResolveTrace t) {
        StringBuilder sb = new StringBuilder();
        sb.append(t.name()).append(' ').append(t.type()).append(" → ").append(t.rcode()).append(" (").append(t.outcome())
                .append(", from ").append(t.source()).append(", ").append(ms(t.elapsed())).append(")\n");
        if (t.candidates().size() > 1) {
            sb.append("candidates: ").append(String.join(", ", t.candidates())).append('\n');
        }
        int i = 1;
        for (ResolveTrace.Attempt a : t.attempts()) {
            sb.append(String.format(Locale.ROOT, "  %d. %s via %s/%s at +%s: %s (%s)%s%s%n", i++, a.candidate(), a.server(),
                    a.transport(), ms(a.sentAt()), lookout.console.widgets.PlainWords.of(a.result()), ms(a.elapsed()),
                    a.spent() ? "" : " [not counted]",
                    a.demoted() ? " [demoted]" : ""));
        }
        if (t.answer().isEmpty()) {
            sb.append("no answer records\n");
        } else {
            t.answer().forEach(rr -> sb.append("  ").append(rr).append('\n'));
        }
        return sb.toString();
    }
}
