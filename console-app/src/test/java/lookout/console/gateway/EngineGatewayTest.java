package lookout.console.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EngineGatewayTest {

    /** A UI thread stand-in: runs what was handed over only when the test says so. */
    private final BlockingQueue<Runnable> uiQueue = new LinkedBlockingQueue<>();
    private final FakeEngine engine = new FakeEngine();
    private final EngineGateway gateway = new EngineGateway(engine, uiQueue::add);

    @AfterEach
    void close() {
        gateway.close();
        engine.scheduler.close();
    }

    private int runUi() {
        int n = 0;
        for (Runnable r = uiQueue.poll(); r != null; r = uiQueue.poll()) {
            r.run();
            n++;
        }
        return n;
    }

    /**
     * Runs UI hand-offs as they arrive until {@code f} is done: each wait is a blocking take with
     * a timeout (woken by the hand-off itself, no sleeping), the whole bounded by {@code limit}.
     */
    private void runUiUntil(CompletableFuture<?> f, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!f.isDone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the UI executor got no completion within " + limit);
            }
            Runnable r = uiQueue.poll(left, TimeUnit.NANOSECONDS);
            if (r != null) {
                r.run();
            }
        }
    }

    @Test
    void aSlowUiGetsOnlyTheNewestSnapshotAndOneHandOffAtATime() {
        List<Long> seen = new ArrayList<>();
        gateway.onSnapshot(s -> seen.add(s.config().version()));
        for (int i = 0; i < 50; i++) {
            gateway.pollOnce(); // the UI is busy: nothing runs
        }
        assertThat(uiQueue).as("one pending hand-off, not 50").hasSize(1);
        runUi();
        assertThat(seen).containsExactly(50L);

        gateway.pollOnce();
        runUi();
        assertThat(seen).containsExactly(50L, 51L);
    }

    @Test
    void eventsArriveInOrderInBatches() {
        List<String> seen = new ArrayList<>();
        gateway.onEvents(batch -> batch.forEach(e -> seen.add(e.message())));
        gateway.open();
        for (int i = 0; i < 5; i++) {
            engine.publish("e" + i);
        }
        assertThat(uiQueue.size()).as("one hand-off for the burst, plus polls").isLessThanOrEqualTo(2);
        runUi();
        assertThat(seen).containsExactly("e0", "e1", "e2", "e3", "e4");
    }

    @Test
    void commandsCompleteOnTheUiExecutor() throws Exception {
        CompletableFuture<Boolean> f = gateway.searchNow();
        assertThat(f).as("nothing completes before the UI executor runs it").isNotDone();
        runUiUntil(f, Duration.ofSeconds(10));
        assertThat(f.get()).isTrue();
        assertThat(engine.searchNowCalls).isEqualTo(1);
    }

    @Test
    void candidateOddsReachTheEngineAndCompleteOnTheUiExecutor() throws Exception {
        Config candidate = new Config(null, null, java.util.Map.of(), java.util.Map.of(), null, null, null, null);
        var f = gateway.candidateOdds(candidate);
        runUiUntil(f, Duration.ofSeconds(10));
        assertThat(f.get()).isEmpty();
        assertThat(engine.candidates).containsExactly(candidate);
    }

    /** Just enough engine for the gateway. */
    static final class FakeEngine implements Engine {
        final VirtualScheduler scheduler = new VirtualScheduler();
        final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
        long version;
        volatile int searchNowCalls;
        final List<Config> candidates = new CopyOnWriteArrayList<>();

        void publish(String msg) {
            EngineEvent e = new EngineEvent.Notice(Instant.EPOCH, Subsystem.ENGINE, Severity.INFO, msg);
            listeners.forEach(l -> l.accept(e));
        }

        @Override
        public synchronized EngineSnapshot snapshot() {
            version++;
            return new EngineSnapshot(EngineState.RUNNING, Instant.EPOCH, Instant.EPOCH,
                    new ConfigStatus(version, "", "", Instant.EPOCH, "", null), null, null, null, null, List.of(), List.of());
        }

        @Override
        public AutoCloseable subscribe(Consumer<EngineEvent> l) {
            listeners.add(l);
            return () -> listeners.remove(l);
        }

        @Override
        public CompletableFuture<ResolveTrace> resolve(String name, String type) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        @Override public void start(Config config) { }
        @Override public ReloadResult apply(Config candidate) { throw new UnsupportedOperationException(); }
        @Override public ReloadResult apply(ConfigResult candidate) { throw new UnsupportedOperationException(); }
        @Override public ReloadResult reload(String text, String sourceName, Path baseDir) { throw new UnsupportedOperationException(); }
        @Override public void stop() { }
        @Override public EngineState state() { return EngineState.RUNNING; }
        @Override public Scheduler scheduler() { return scheduler; }
        @Override public CompletableFuture<Void> force(String key, String state, Duration ttl) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> release(String key) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<java.util.List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(java.util.Map<String, String> h) { return CompletableFuture.completedFuture(java.util.List.of()); }
        @Override public CompletableFuture<java.util.List<lookout.engine.api.PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
            candidates.add(candidate);
            return CompletableFuture.completedFuture(java.util.List.of());
        }
        @Override public CompletableFuture<Void> searchPv(String name) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> dropPv(String name) { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Void> discoveryPing() { return CompletableFuture.completedFuture(null); }
        @Override public CompletableFuture<Boolean> searchNow() {
            searchNowCalls++;
            return CompletableFuture.completedFuture(true);
        }
    }
}
