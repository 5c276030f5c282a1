package lookout.console.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.stage.Stage;
import lookout.console.ConsoleWindow;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.PvaTickSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;

/**
 * UI benchmark (issue 7), not a unit test: the real console window on an engine stand-in whose
 * snapshots carry 20 000 discovered servers and 100 000 channels (the snapshot lists
 * {@link PvaSnapshot#MAX_CHANNELS} of them, the counts cover all), every server's last-seen time
 * and a rotating slice of channel states changing each snapshot. Measures, per snapshot, the time
 * from the snapshot's creation to
 * <ul>
 *   <li>"laid out": the end of CSS and layout of the first pulse after the view models applied it
 *       (the frame that shows it is rendered right after), and</li>
 *   <li>"next pulse": the start of the following pulse, by which the render of that frame is done
 *       (an upper bound).</li>
 * </ul>
 * Usage: {@code bench/console-ui.sh [seconds]}.
 */
public final class ConsoleUiBench {

    static final int SERVERS = 20_000;
    static final int CHANNELS = 100_000;

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        SyntheticEngine engine = new SyntheticEngine();
        CountDownLatch started = new CountDownLatch(1);
        Platform.startup(started::countDown);
        started.await();

        List<Long> laidOut = Collections.synchronizedList(new ArrayList<>());
        List<Long> nextPulse = Collections.synchronizedList(new ArrayList<>());
        List<Long> applyTime = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch shown = new CountDownLatch(1);
        ConsoleWindow[] w = new ConsoleWindow[1];
        Platform.runLater(() -> {
            ConsoleWindow window = new ConsoleWindow(engine, new ConfigLoader(Map.of()));
            w[0] = window;
            long[] pendingCreated = {0};
            boolean[] waitingNext = {false};
            long[] layoutCreated = {0};
            // Registered after the console's own listener: runs once every pane has applied the snapshot.
            window.gateway().onSnapshot(s -> {
                Long created = engine.createdAt(s);
                if (created != null) {
                    pendingCreated[0] = created;
                    applyTime.add(System.nanoTime() - engine.deliveredAt(s));
                }
            });
            window.scene().addPostLayoutPulseListener(() -> {
                long now = System.nanoTime();
                if (waitingNext[0]) {
                    nextPulse.add(now - layoutCreated[0]);
                    waitingNext[0] = false;
                }
                if (pendingCreated[0] != 0) {
                    laidOut.add(now - pendingCreated[0]);
                    layoutCreated[0] = pendingCreated[0];
                    waitingNext[0] = true;
                    pendingCreated[0] = 0;
                    Platform.requestNextPulse();
                }
            });
            window.open(new ConfigResult(null, List.of(new lookout.engine.config.ConfigProblem("bench", 1, 1, "",
                    "benchmark: no configuration"))), "bench", "");
            Stage stage = new Stage();
            window.show(stage);
            window.mainView().select(ConsoleWindow.PVA);
            shown.countDown();
        });
        shown.await();
        engine.running = true;
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        Platform.runLater(() -> w[0].close());

        int warmup = Math.min(10, laidOut.size() / 5);
        report("snapshot → laid out", laidOut, warmup);
        report("snapshot → next pulse (render done)", nextPulse, warmup);
        report("FX thread: hand-off wait + apply", applyTime, warmup);
        System.out.printf("snapshots built: %d, servers %d, channels %d (listed %d)%n", engine.built, SERVERS, CHANNELS,
                PvaSnapshot.MAX_CHANNELS);
        Platform.exit();
        System.exit(0);
    }

    static void report(String what, List<Long> samples, int warmup) {
        long[] v;
        synchronized (samples) {
            v = samples.stream().skip(warmup).mapToLong(Long::longValue).toArray();
        }
        if (v.length == 0) {
            System.out.println(what + ": no samples");
            return;
        }
        Arrays.sort(v);
        System.out.printf("%-40s n=%d p50=%.1f ms p95=%.1f ms p99=%.1f ms max=%.1f ms%n", what, v.length,
                v[v.length / 2] / 1e6, v[(int) Math.ceil(v.length * 0.95) - 1] / 1e6,
                v[(int) Math.ceil(v.length * 0.99) - 1] / 1e6, v[v.length - 1] / 1e6);
    }

    /** An engine stand-in whose snapshot() builds a big, changing PVA section. */
    static final class SyntheticEngine implements Engine {
        final VirtualScheduler scheduler = new VirtualScheduler();
        final Map<EngineSnapshot, long[]> stamps = Collections.synchronizedMap(new IdentityHashMap<>());
        final List<PvaDiscoveredServer> servers = new ArrayList<>(SERVERS);
        final List<PvaChannelSnapshot> channels = new ArrayList<>(PvaSnapshot.MAX_CHANNELS);
        volatile boolean running;
        int tick;
        long built;
        final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

        SyntheticEngine() {
            for (int i = 0; i < SERVERS; i++) {
                servers.add(server(i, t0));
            }
            for (int i = 0; i < PvaSnapshot.MAX_CHANNELS; i++) {
                channels.add(channel(i, "SEARCHING", i % 30, t0));
            }
        }

        PvaDiscoveredServer server(int i, Instant lastSeen) {
            String guid = String.format("%024x", 0xABC000000L + i);
            String ep = "10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + ":5075";
            return new PvaDiscoveredServer(guid, ep, "tcp", ep, 2, t0, lastSeen, 1 + tick, 0, Duration.ofSeconds(15),
                    i % 97 == 0 ? 1 : 0, lastSeen.plusSeconds(360),
                    i % 50 == 0 ? PvaDiscoveredServer.Status.STALE : PvaDiscoveredServer.Status.ONLINE);
        }

        PvaChannelSnapshot channel(int i, String state, int bucket, Instant now) {
            boolean resolved = state.equals("RESOLVED");
            return new PvaChannelSnapshot("bench:pv:" + i, i, state, resolved ? 0 : 1 + (i + tick) % 30, 1 + tick,
                    resolved ? -1 : bucket, resolved ? null : now.plusMillis(1000L * (1 + (i + tick) % 30)),
                    resolved ? String.format("%024x", 0xABC000000L + i % SERVERS) : null,
                    resolved ? "10.0.0.1:5075" : null, i < 100, false);
        }

        Long createdAt(EngineSnapshot s) {
            long[] t = stamps.get(s);
            return t == null ? null : t[0];
        }

        long deliveredAt(EngineSnapshot s) {
            long[] t = stamps.remove(s);
            return t == null ? System.nanoTime() : t[0];
        }

        @Override
        public synchronized EngineSnapshot snapshot() {
            tick++;
            Instant now = t0.plusMillis(250L * tick);
            // every server heard again (last seen moves), a rotating tenth of the channels change state
            for (int i = 0; i < SERVERS; i++) {
                servers.set(i, server(i, now));
            }
            int from = (tick * 1000) % PvaSnapshot.MAX_CHANNELS;
            for (int i = from; i < from + 1000; i++) {
                channels.set(i, channel(i, (i + tick) % 3 == 0 ? "RESOLVED" : "SEARCHING", (i + tick) % 30, now));
            }
            List<Integer> buckets = new ArrayList<>();
            for (int b = 0; b < 30; b++) {
                buckets.add(CHANNELS / 30 + ((b * 7 + tick) % 13) * 10);
            }
            long searching = buckets.stream().mapToLong(Integer::longValue).sum();
            PvaSnapshot p = new PvaSnapshot(running, 40000, 5076, tick % 30, buckets, 0, false, 0, null,
                    now.plusSeconds(1), CHANNELS, searching, CHANNELS - searching,
                    new PvaTickSnapshot(now, tick % 30, 3333, 40, 56_000, 1440, false), List.copyOf(channels), true,
                    List.copyOf(servers), 20_000, List.of("10.0.0.255:5076 (broadcast)"), List.of(), PvaCounters.ZERO);
            EngineSnapshot s = new EngineSnapshot(EngineState.RUNNING, now, t0,
                    new ConfigStatus(1, "0".repeat(64), "bench", t0, "", null), null, null, p, null, List.of(), List.of());
            built++;
            stamps.put(s, new long[] {System.nanoTime()});
            return s;
        }

        @Override public void start(Config config) { }
        @Override public ReloadResult apply(Config candidate) { throw new UnsupportedOperationException(); }
        @Override public ReloadResult apply(ConfigResult candidate) { throw new UnsupportedOperationException(); }
        @Override public ReloadResult reload(String text, String sourceName, Path baseDir) { throw new UnsupportedOperationException(); }
        @Override public void stop() { }
        @Override public EngineState state() { return EngineState.RUNNING; }
        @Override public AutoCloseable subscribe(Consumer<EngineEvent> listener) { return () -> { }; }
        @Override public Scheduler scheduler() { return scheduler; }
        @Override public CompletableFuture<ResolveTrace> resolve(String name, String type) { return CompletableFuture.failedFuture(new UnsupportedOperationException()); }
        @Override public CompletableFuture<Void> force(String key, String state, Duration ttl) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> release(String key) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(Map<String, String> h) {
            return CompletableFuture.completedFuture(List.of());
        }
        @Override public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> candidateOdds(lookout.engine.config.Config c) {
            return CompletableFuture.completedFuture(List.of());
        }
        @Override public CompletableFuture<Void> searchPv(String name) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> dropPv(String name) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> discoveryPing() { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Boolean> searchNow() { return CompletableFuture.completedFuture(true); }
    }
}
