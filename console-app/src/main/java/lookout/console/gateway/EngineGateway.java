package lookout.console.gateway;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import lookout.console.remote.RemoteEngine;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ResolveTrace;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigResult;

/**
 * The one class of the console that talks to the engine (STYLE: one gateway).
 *
 * <p>Concurrency: a daemon "poller" thread calls {@link Engine#snapshot()} every
 * {@link #POLL_MILLIS} ms and parks the result in {@code latest}; the UI executor (the FX thread
 * in the app, a direct executor in view-model tests) takes only the newest value — if the UI falls
 * behind, intermediate snapshots are dropped, never queued. At most one hand-off is pending at a
 * time, so the UI thread sees at most 1000/{@link #POLL_MILLIS} = 4 snapshots per second.
 * Events arrive on the engine loop and are queued the same way (a queue, since every event
 * matters). Commands — including the blocking {@code apply} — run on a separate daemon
 * "commands" thread; their results come back on the UI executor. Nothing here blocks the UI thread.
 */
public final class EngineGateway implements AutoCloseable {

    /** Poll period: SPEC asks for at least 4 snapshots a second, STYLE for at most 4 on the UI thread. */
    public static final long POLL_MILLIS = 250;

    private static final Logger LOG = System.getLogger("lookout.console");

    private final Engine engine;
    private final Executor ui;
    private final ScheduledExecutorService poller;
    private final ExecutorService commands;
    private final AtomicReference<EngineSnapshot> latest = new AtomicReference<>();
    private final ConcurrentLinkedQueue<EngineEvent> pendingEvents = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean eventsScheduled = new AtomicBoolean();
    private final List<Consumer<EngineSnapshot>> snapshotListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<List<EngineEvent>>> eventListeners = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> lastPollFailure = new AtomicReference<>();
    private final List<Consumer<Connection>> connectionListeners = new CopyOnWriteArrayList<>();
    private final AtomicReference<Connection> latestConnection = new AtomicReference<>();
    /** The last connection state handed to the UI (poller thread only). */
    private Connection connection = Connection.UP;
    private volatile AutoCloseable subscription;
    private volatile ScheduledFuture<?> pollTask;
    private volatile long lastSnapshotNanos;
    /** The newest snapshot the poller got (also after the UI took it). */
    private volatile EngineSnapshot latestSeen;

    /**
     * @param engine the engine (started or not; {@link #start} starts it when given a config)
     * @param ui     where listeners run: {@code Platform::runLater} in the app
     */
    public EngineGateway(Engine engine, Executor ui) {
        this.engine = Objects.requireNonNull(engine);
        this.ui = Objects.requireNonNull(ui);
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "lookout-console-poller"));
        this.commands = Executors.newSingleThreadExecutor(r -> daemon(r, "lookout-console-commands"));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Whether snapshots come through, and what this console may do: a problem (the engine cannot be
     * reached, in words) or null, and the read-only reason or null.
     */
    public record Connection(String problem, String readOnly) {
        public static final Connection UP = new Connection(null, null);

        public boolean up() {
            return problem == null;
        }
    }

    /** True when the engine runs elsewhere and this console only watches and steers it. */
    public boolean attached() {
        return engine instanceof RemoteEngine;
    }

    /** The attached engine, or null for an embedded one. */
    public RemoteEngine remote() {
        return engine instanceof RemoteEngine r ? r : null;
    }

    /** What this console may do now: writable, or read-only with the reason shown by every action. */
    public RemoteEngine.Access access() {
        return engine instanceof RemoteEngine r ? r.access() : RemoteEngine.Access.WRITABLE;
    }

    /**
     * Listener for changes of the connection (lost, retrying, back, the token's role); runs on the
     * UI executor, latest value only.
     */
    public void onConnection(Consumer<Connection> listener) {
        connectionListeners.add(listener);
    }

    /** The engine itself, for the few callers that need its scheduler (tests, the benchmark). */
    public Engine engine() {
        return engine;
    }

    /** The sequence number of the first event this console received live, or 0 before one (or without a journal). */
    private final java.util.concurrent.atomic.AtomicLong firstLiveSeq = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Subscribes to engine events and starts polling. Call once. An engine with a journal is
     * followed by sequence number, so that {@link #earlierEvents} can tell the events of earlier
     * runs from this one's.
     */
    public void open() {
        AutoCloseable sub;
        try {
            sub = engine.subscribeSequenced(se -> {
                firstLiveSeq.compareAndSet(0, se.seq());
                onEvent(se.event());
            });
        } catch (UnsupportedOperationException e) {
            sub = engine.subscribe(this::onEvent); // no journal (an attached engine replays its own)
        }
        subscription = sub;
        pollTask = poller.scheduleWithFixedDelay(this::pollOnce, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Listener for each snapshot the UI takes; runs on the UI executor. */
    public void onSnapshot(Consumer<EngineSnapshot> listener) {
        snapshotListeners.add(listener);
    }

    /** Listener for batches of events in arrival order; runs on the UI executor. */
    public void onEvents(Consumer<List<EngineEvent>> listener) {
        eventListeners.add(listener);
    }

    /** Asks for a snapshot now (after a command), still through the same hand-off. */
    public void refreshSoon() {
        if (!poller.isShutdown()) {
            poller.execute(this::pollOnce);
        }
    }

    /** Nanos (System.nanoTime) when the newest snapshot reached the console; 0 before the first. */
    public long lastSnapshotNanos() {
        return lastSnapshotNanos;
    }

    /** One poll (package-private so the hand-off can be tested without real time). */
    void pollOnce() {
        EngineSnapshot s;
        try {
            s = engine.snapshot();
            lastPollFailure.set(null);
        } catch (RuntimeException e) {
            // The engine loop may be busy or stopping (or an attached engine cannot be reached); the
            // UI keeps the previous snapshot and the status bar's data age shows that it is getting old.
            if (lastPollFailure.getAndSet(e) == null) {
                LOG.log(Level.WARNING, "snapshot failed: " + e.getMessage());
            }
            connection(new Connection(e.getMessage() == null ? "no snapshot" : e.getMessage(), access().reason()));
            return;
        }
        connection(new Connection(null, access().reason()));
        lastSnapshotNanos = System.nanoTime();
        latestSeen = s;
        if (latest.getAndSet(s) == null) {
            ui.execute(this::deliverSnapshot);
        }
    }

    /** Hands a changed connection state to the UI (latest value only). Poller thread. */
    private void connection(Connection c) {
        if (c.equals(connection)) {
            return;
        }
        connection = c;
        if (latestConnection.getAndSet(c) == null) {
            ui.execute(() -> {
                Connection now = latestConnection.getAndSet(null);
                if (now == null) {
                    return;
                }
                for (Consumer<Connection> l : connectionListeners) {
                    try {
                        l.accept(now);
                    } catch (RuntimeException e) {
                        LOG.log(Level.ERROR, "connection listener failed", e);
                    }
                }
            });
        }
    }

    private void deliverSnapshot() {
        EngineSnapshot s = latest.getAndSet(null);
        if (s == null) {
            return;
        }
        for (Consumer<EngineSnapshot> l : snapshotListeners) {
            try {
                l.accept(s);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "snapshot listener failed", e);
            }
        }
    }

    private void onEvent(EngineEvent e) {
        // Called on the engine loop: queue and return at once (listeners must not block).
        pendingEvents.add(e);
        if (eventsScheduled.compareAndSet(false, true)) {
            ui.execute(this::deliverEvents);
        }
    }

    private void deliverEvents() {
        eventsScheduled.set(false);
        List<EngineEvent> batch = new java.util.ArrayList<>();
        EngineEvent e;
        while ((e = pendingEvents.poll()) != null) {
            batch.add(e);
        }
        if (batch.isEmpty()) {
            return;
        }
        for (Consumer<List<EngineEvent>> l : eventListeners) {
            try {
                l.accept(batch);
            } catch (RuntimeException ex) {
                LOG.log(Level.ERROR, "event listener failed", ex);
            }
        }
    }

    // ------------------------------------------------------------------ commands

    /** What the engine's PVA client knows about one PV name (a read, for "why?"). */
    public CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
        return async(() -> engine.diagnosePv(name));
    }

    /**
     * The events the engine's journal keeps from before this console received its first one
     * (earlier runs: the journal survives restarts in STATE_DIR), oldest first; empty when the
     * engine keeps none. Completes on the UI executor.
     */
    public CompletableFuture<List<EngineEvent>> earlierEvents() {
        return call(() -> {
            lookout.engine.api.EventsSince kept;
            try {
                kept = engine.eventsSince(0);
            } catch (UnsupportedOperationException e) {
                return List.<EngineEvent>of();
            }
            // a live event kept by the journal was handed to our listener under the journal's lock
            // before eventsSince could see it: what is below the first live number is older
            long first = firstLiveSeq.get();
            List<EngineEvent> out = new java.util.ArrayList<>();
            for (lookout.engine.api.SequencedEvent e : kept.events()) {
                if (first == 0 || e.seq() < first) {
                    out.add(e.event());
                }
            }
            return out;
        });
    }

    /**
     * The console's Apply, the operator's apply path ({@link Engine#applyText}), embedded engine and
     * attached alike: the engine validates the text again, refuses what would remove every service
     * unless {@link ApplyRequest#confirmEmpty}, refuses to overwrite a hand-edited file unless
     * {@link ApplyRequest#force}, applies it atomically and saves it to its configuration file (the
     * embedded default has none: applied in memory only, {@link ApplyOutcome#saved()} null). When
     * the embedded engine is not running yet (the console was opened on an invalid file), a valid
     * text starts it instead. Completes on the UI executor; a refusal is an outcome, a request the
     * engine did not take (an attached engine unreachable, a token refused) fails the future.
     */
    public CompletableFuture<ApplyOutcome> apply(ConfigResult candidate, ApplyRequest request) {
        return call(() -> {
            EngineState st = engine.state();
            // an attached engine runs elsewhere: never started from here, every apply is a reload
            if (!attached() && candidate.ok() && (st == EngineState.NEW || st == EngineState.STOPPED)) {
                Config c = candidate.config();
                engine.start(c);
                long v = engine.snapshot().config().version();
                return new ApplyOutcome(ApplyOutcome.Status.APPLIED, v, null, List.of(), "engine started on "
                        + c.source().name() + " (version " + v + ")", null, null, null, null);
            }
            if (!candidate.ok()) {
                return new ApplyOutcome(ApplyOutcome.Status.INVALID, runningVersion(), null, candidate.problems(),
                        candidate.problems().size() + " problem(s); nothing applied", null, null, null, null);
            }
            return engine.applyText(candidate.config().source().text(), request);
        });
    }

    private long runningVersion() {
        EngineSnapshot s = latestSeen;
        return s != null && s.config() != null ? s.config().version() : 0;
    }

    /** The configuration file the engine runs on and saves to (on its own host when attached), or null. */
    public java.nio.file.Path configFile() {
        return engine.configFile();
    }

    /** Starts the engine on {@code config} off the UI thread. */
    public CompletableFuture<Void> start(Config config) {
        return call(() -> {
            engine.start(config);
            return null;
        });
    }

    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        return async(() -> engine.resolve(name, type));
    }

    public CompletableFuture<Void> force(String key, String state, java.time.Duration ttl) {
        return async(() -> engine.force(key, state, ttl));
    }

    public CompletableFuture<Void> release(String key) {
        return async(() -> engine.release(key));
    }

    /** Odds under hypothetical states (nothing applied). */
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(java.util.Map<String, String> hypothetical) {
        java.util.Map<String, String> copy = java.util.Map.copyOf(hypothetical);
        return async(() -> engine.whatIf(copy));
    }

    /** Odds a candidate configuration's pools would give under the current states (nothing applied). */
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
        return async(() -> engine.candidateOdds(candidate));
    }

    public CompletableFuture<Void> searchPv(String name) {
        return async(() -> engine.searchPv(name));
    }

    public CompletableFuture<Void> dropPv(String name) {
        return async(() -> engine.dropPv(name));
    }

    public CompletableFuture<Void> discoveryPing() {
        return async(() -> engine.discoveryPing());
    }

    public CompletableFuture<Boolean> searchNow() {
        return async(() -> engine.searchNow());
    }

    /** Runs a blocking engine call on the commands thread; completes on the UI executor. */
    private <T> CompletableFuture<T> call(Supplier<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        commands.execute(() -> {
            try {
                T v = body.get();
                refreshSoon();
                ui.execute(() -> result.complete(v));
            } catch (RuntimeException e) {
                ui.execute(() -> result.completeExceptionally(e));
            }
        });
        return result;
    }

    /** Runs an asynchronous engine command; completes on the UI executor. */
    private <T> CompletableFuture<T> async(Supplier<CompletableFuture<T>> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        commands.execute(() -> {
            CompletableFuture<T> f;
            try {
                f = body.get();
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, e) -> {
                refreshSoon();
                ui.execute(() -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(v);
                    }
                });
            });
        });
        return result;
    }

    /** Stops polling and unsubscribes; stopping the engine is the owner's job. */
    @Override
    public void close() {
        ScheduledFuture<?> t = pollTask;
        if (t != null) {
            t.cancel(false);
        }
        AutoCloseable sub = subscription;
        if (sub != null) {
            try {
                sub.close();
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "unsubscribe failed", e);
            }
        }
        poller.shutdownNow();
        commands.shutdown();
    }
}
