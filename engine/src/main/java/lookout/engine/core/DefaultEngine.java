package lookout.engine.core;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import lookout.engine.api.Actor;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.EventsSince;
import lookout.engine.api.Metric;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.api.SequencedEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import lookout.engine.net.Transport;

/**
 * The engine facade: the engine loop, the services' lifecycle, live reload and the snapshot. Which
 * services run is the composition root's choice ({@code lookout.engine.boot.Engines}); this class
 * names none of them.
 *
 * <p>Reload is all or nothing ({@link Engine#apply}): every service applies the candidate in start
 * order; when one throws, it and every service already applied are given the running
 * configuration back (newest first), the version stays, and the result says which service failed
 * and why.
 *
 * <p>What outlives a run is kept in {@code STATE_DIR} (read at start): the version
 * ({@link ConfigStore}), the event journal ({@link EventJournal}) and the audit log
 * ({@link AuditLog}). The public write methods are the local console's: they are audited as
 * {@link Actor#CONSOLE} through an {@link ActingEngine}; {@link #actingAs} gives others theirs.
 * The operator's apply with write-back is {@link ConfigApplier}'s.
 *
 * <p>Concurrency: {@code services}, {@code running}, {@code version}, {@code lastReload} and
 * {@code appliedAt} are confined to the engine loop; {@code state} and {@code current} (the
 * running version, configuration and file, for other threads) are volatile; applies are
 * serialised by {@code applyLock}; the event history is guarded by its own lock. Blocking facade
 * calls hop onto the loop and wait.
 */
public final class DefaultEngine implements EngineCore, ServiceContext {

    private static final Logger LOG = System.getLogger("lookout.engine");
    private static final int RECENT_EVENTS = 500;
    private static final long CALL_TIMEOUT_SECONDS = 30;

    private final EngineOptions options;
    private final Supplier<List<Service>> serviceFactory;
    private final RandomGenerator random;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final ArrayDeque<EngineEvent> recent = new ArrayDeque<>();
    /** Events published, by type: {@code lookout_events_total} (alerts on lost servers, rejected reloads). */
    private final Map<String, java.util.concurrent.atomic.LongAdder> eventCounts =
            new java.util.concurrent.ConcurrentHashMap<>();

    private volatile EngineState state = EngineState.NEW;
    private EventLoopGroup group;
    private Scheduler scheduler;

    private final EventJournal journal = new EventJournal();
    private final Auditor auditor;
    private final ActingEngine local;
    private final ConfigApplier applier = new ConfigApplier(this);
    private final ReentrantLock applyLock = new ReentrantLock();
    private final EngineCommands commands = new EngineCommands(() -> state, () -> scheduler, this::implementer);
    private volatile ConfigStore store;
    private volatile AuditLog auditLog;
    private volatile Running current;

    // engine-loop confined
    private List<Service> services = List.of();
    private Config running;
    private long version;
    private Instant appliedAt;
    private Instant startedAt;
    private ReloadResult lastReload;

    /**
     * @param options  how the engine is built
     * @param services a fresh list of the engine's services, in start order, for each start
     */
    public DefaultEngine(EngineOptions options, Supplier<List<Service>> services) {
        this.options = options;
        this.serviceFactory = services;
        this.random = options.random() != null ? options.random() : new SecureRandom();
        if (options.scheduler() != null) {
            this.scheduler = options.scheduler();
        }
        this.auditor = new Auditor(() -> auditLog, () -> scheduler, this::publish);
        this.local = new ActingEngine(this, applier, Actor.CONSOLE, auditor);
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public synchronized void start(Config config) {
        if (state != EngineState.NEW && state != EngineState.STOPPED) {
            throw new IllegalStateException("engine is " + state);
        }
        state = EngineState.STARTING;
        Path dir = stateDirFor(config);
        ConfigStore kept = new ConfigStore(dir);
        kept.removeStaleTemporaries();
        journal.open(dir);
        store = kept;
        auditLog = new AuditLog(dir);
        long startVersion = kept.startVersion(config.source().sha256());
        Path file = ConfigStore.fileOf(config.source());
        if (file != null) {
            AtomicFiles.removeStaleTemporaries(file);
        }
        Transport.leakDetection(options.leakDetection() == EngineOptions.LeakDetection.OFF);
        Transport transport;
        try {
            transport = Transport.choose(switch (options.transport()) {
                case AUTO -> null;
                case EPOLL -> Transport.EPOLL;
                case NIO -> Transport.NIO;
            });
        } catch (RuntimeException | Error e) {
            state = EngineState.FAILED;
            throw new IllegalStateException("the epoll transport was asked for and is unavailable: " + e, e);
        }
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("lookout-engine", true),
                transport.ioHandlerFactory());
        String noEpoll = Transport.epollUnavailableReason(transport);
        LOG.log(Level.INFO, "engine loop on the " + transport.name().toLowerCase(java.util.Locale.ROOT)
                + " transport" + (noEpoll == null ? "" : " (epoll unavailable: " + noEpoll + ")"));
        if (options.scheduler() == null) {
            scheduler = new NettyScheduler(group.next());
        }
        try {
            onLoop(() -> {
                List<Service> created = List.copyOf(serviceFactory.get());
                List<Service> started = new ArrayList<>();
                // Seams are reachable (seam(Class)) while the services start: a later service may
                // look up an earlier one's in its start(), e.g. the PVA server finds resolved names.
                services = List.copyOf(created);
                running = config;
                try {
                    for (Service s : created) {
                        s.start(this, config);
                        started.add(s);
                    }
                } catch (Exception e) {
                    for (int i = started.size() - 1; i >= 0; i--) {
                        stopQuietly(started.get(i));
                    }
                    services = List.of();
                    running = null;
                    throw e;
                }
                version = startVersion;
                startedAt = scheduler.now();
                appliedAt = startedAt;
                return null;
            });
        } catch (RuntimeException e) {
            state = EngineState.FAILED;
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            journal.close(); // (opened again by the next start)
            throw e;
        }
        current = new Running(startVersion, config, file);
        state = EngineState.RUNNING;
        recordVersion(startVersion, config);
        publish(new EngineEvent.EngineStarted(scheduler.now(), startVersion));
        checkHeap(config);
    }

    private void checkHeap(Config config) { // the JVM's heap limit against what config keeps
        HeapBudget.of(config).shortfall(Runtime.getRuntime().maxMemory()).ifPresent(warn -> {
            LOG.log(Level.WARNING, warn);
            publish(new EngineEvent.Notice(scheduler.now(), Subsystem.ENGINE, Severity.WARNING, warn));
        });
    }

    /** {@code state_dir} of {@code config}, or the options' override; created when missing. */
    private Path stateDirFor(Config config) {
        Path dir = options.stateDirOverride() != null ? options.stateDirOverride() : config.stateDir();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot create state_dir " + dir + ": " + e.getMessage());
        }
        return dir;
    }

    private void recordVersion(long v, Config config) {
        try {
            store.recordVersion(v, config.source().sha256());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot record the configuration version in " + store.stateDir() + ": "
                    + e.getMessage() + " (the next start may number it again)");
        }
    }

    @Override
    public ReloadResult apply(Config candidate) {
        return local.apply(candidate);
    }

    /**
     * The in-memory apply behind every path ({@link Engine#apply}, {@link ConfigApplier}), not
     * audited: its callers are. Records the new version in {@code STATE_DIR}.
     */
    @Override
    public ReloadResult applyConfig(Config candidate) {
        requireRunning();
        applyLock.lock();
        try {
            ReloadResult r = applyOnLoop(candidate);
            if (r.applied()) {
                Running before = current;
                current = new Running(r.version(), candidate, before == null ? null : before.file());
                recordVersion(r.version(), candidate);
            }
            return r;
        } finally {
            applyLock.unlock();
        }
    }

    private ReloadResult applyOnLoop(Config candidate) {
        return onLoop(() -> {
            Config before = running;
            ConfigDiff diff = ConfigLoader.diff(before, candidate);
            List<Service> applied = new ArrayList<>(services.size());
            for (Service s : services) {
                try {
                    s.apply(before, candidate);
                    applied.add(s);
                } catch (Exception | LinkageError e) {
                    applied.add(s); // it may have taken part of the candidate: it is given the running one back too
                    return rollBack(before, candidate, diff, applied, s, e);
                }
            }
            running = candidate;
            version++;
            appliedAt = scheduler.now();
            lastReload = new ReloadResult(true, version, appliedAt, diff, List.of());
            publish(new EngineEvent.ConfigApplied(appliedAt, version, candidate.source().sha256(),
                    diff.changes().stream().map(Object::toString).toList()));
            checkHeap(candidate); // a reload may ask for more than the launcher gave
            return lastReload;
        });
    }

    /**
     * A service failed to apply {@code candidate}: every service in {@code applied} (the failed one
     * last) is given {@code before} back, newest first; the running configuration and version stay.
     */
    private ReloadResult rollBack(Config before, Config candidate, ConfigDiff diff, List<Service> applied,
                                  Service failed, Throwable cause) {
        String why = failed.name() + " could not apply the new configuration: " + describe(cause);
        LOG.log(Level.ERROR, why + "; going back to version " + version, cause);
        for (int i = applied.size() - 1; i >= 0; i--) {
            Service s = applied.get(i);
            try {
                s.apply(candidate, before);
            } catch (Exception | LinkageError e) {
                String again = s.name() + " could not go back to version " + version + ": " + describe(e);
                LOG.log(Level.ERROR, again, e);
                publish(new EngineEvent.Notice(scheduler.now(), Subsystem.ENGINE, Severity.ERROR, again));
            }
        }
        lastReload = ReloadResult.failed(version, scheduler.now(), diff, why);
        publish(new EngineEvent.ConfigRejected(lastReload.at(), List.of(why)));
        return lastReload;
    }

    /** A cause as an operator reads it: its message, or its kind when it has none. */
    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }

    @Override
    public ReloadResult apply(ConfigResult candidate) {
        return local.apply(candidate);
    }

    /** A candidate with problems: recorded as the last reload (and an event); nothing changes. */
    @Override
    public ReloadResult rejectProblems(ConfigResult candidate) {
        return recordRejected(candidate.problems());
    }

    /** Records a rejected reload for {@code problems}: the snapshot's last reload, and an event. */
    @Override
    public ReloadResult recordRejected(List<ConfigProblem> problems) {
        requireRunning();
        return onLoop(() -> {
            lastReload = ReloadResult.rejected(version, scheduler.now(), problems);
            publish(new EngineEvent.ConfigRejected(lastReload.at(), problems.stream().map(Object::toString).toList()));
            return lastReload;
        });
    }

    @Override
    public ReloadResult reload(String text, String sourceName, Path baseDir) {
        return local.reload(text, sourceName, baseDir);
    }

    @Override
    public ApplyOutcome applyText(String text, ApplyRequest request) {
        return local.applyText(text, request);
    }

    @Override
    public ApplyOutcome reloadFile(ApplyRequest request) {
        return local.reloadFile(request);
    }

    @Override
    public ConfigResult parse(String text) {
        Running r = current;
        if (r == null) {
            return loader().parse(text, "<text>", null);
        }
        Path base = r.file() != null ? r.file().getParent() : r.config().source().baseDir();
        return loader().parse(text, r.config().source().name(), base);
    }

    @Override
    public Path configFile() {
        Running r = current;
        return r == null ? null : r.file();
    }

    @Override
    public Engine actingAs(Actor actor) {
        return new ActingEngine(this, applier, actor, auditor);
    }

    @Override
    public List<AuditRecord> audit(int limit) {
        AuditLog l = auditLog;
        return l == null ? List.of() : l.last(limit);
    }

    @Override
    public EventsSince eventsSince(long seq) {
        return journal.since(seq);
    }

    @Override
    public AutoCloseable subscribeSequenced(Consumer<SequencedEvent> listener) {
        return journal.subscribe(listener);
    }

    /** The journal, for the event stream that subscribes and replays in one step. */
    EventJournal journal() {
        return journal;
    }

    @Override
    public void recordRefusal(Actor actor, String action, Map<String, Object> args, String reason) {
        auditor.record(actor, action, args, action, "refused: " + reason, null, null);
    }

    @Override
    public Running current() {
        return current;
    }

    @Override
    public long currentVersion() {
        Running r = current;
        return r == null ? 0 : r.version();
    }

    @Override
    public ConfigLoader loader() {
        return new ConfigLoader(options.environment());
    }

    @Override
    public ConfigStore store() {
        return store;
    }

    @Override
    public ReentrantLock applyLock() {
        return applyLock;
    }

    @Override
    public synchronized void stop() {
        if (state != EngineState.RUNNING && state != EngineState.FAILED) {
            return;
        }
        state = EngineState.STOPPING;
        try {
            onLoop(() -> {
                for (int i = services.size() - 1; i >= 0; i--) {
                    stopQuietly(services.get(i));
                }
                services = List.of();
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "engine stop did not complete cleanly", e);
        }
        state = EngineState.STOPPED;
        publish(new EngineEvent.EngineStopped(scheduler.now()));
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        journal.close();
        AuditLog l = auditLog;
        if (l != null) {
            l.close();
        }
    }

    private static void stopQuietly(Service s) {
        try {
            s.stop();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "service " + s.name() + " failed to stop cleanly", e);
        }
    }

    private void requireRunning() {
        if (state != EngineState.RUNNING) {
            throw new IllegalStateException("engine is " + state);
        }
    }

    @Override
    public EngineState state() {
        return state;
    }

    // ---------------------------------------------------------------- snapshot and events

    @Override
    public EngineSnapshot snapshot() {
        EngineState s = state;
        if (s != EngineState.RUNNING) {
            return new EngineSnapshot(s, scheduler == null ? Instant.now() : scheduler.now(), startedAt, null,
                    null, null, null, null, List.of(), recentEvents());
        }
        return onLoop(this::buildSnapshot);
    }

    @Override
    public EngineSnapshot loopSnapshot() {
        if (!scheduler.inLoop()) {
            throw new IllegalStateException("loopSnapshot() off the engine loop");
        }
        return state == EngineState.RUNNING ? buildSnapshot() : null;
    }

    /** Every running service's section and metrics; on the engine loop. */
    private EngineSnapshot buildSnapshot() {
        SnapshotBuilder b = new SnapshotBuilder();
        for (Service svc : services) {
            try {
                svc.contribute(b);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "service " + svc.name() + " failed to build its snapshot", e);
            }
        }
        b.metric(Metric.gauge("lookout_config_version", "Running configuration version", version));
        b.metric(Metric.gauge("lookout_config_last_reload_ok",
                "0 when the last reload was rejected or rolled back, else 1", lastReload == null
                        || lastReload.applied() ? 1 : 0));
        b.metric(Metric.gauge("lookout_engine_started_seconds", "When the engine started (Unix time)",
                startedAt.getEpochSecond()));
        eventCounts.forEach((type, n) -> b.metric(new Metric("lookout_events_total",
                "Engine events published, by type", "counter", Map.of("type", type), n.sum())));
        ConfigStatus cs = new ConfigStatus(version, running.source().sha256(), running.source().name(),
                appliedAt, running.source().text(), lastReload);
        return new EngineSnapshot(state, scheduler.now(), startedAt, cs, b.resolver, b.pools, b.pva,
                b.pvaServer, b.metrics, recentEvents(), b.statusPvs);
    }

    private List<EngineEvent> recentEvents() {
        synchronized (recent) {
            return List.copyOf(recent);
        }
    }

    @Override
    public AutoCloseable subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void publish(EngineEvent event) {
        synchronized (recent) {
            if (recent.size() == RECENT_EVENTS) {
                recent.removeFirst();
            }
            recent.addLast(event);
        }
        journal.append(event);
        eventCounts.computeIfAbsent(event.getClass().getSimpleName(), k -> new java.util.concurrent.atomic.LongAdder())
                .increment();
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "event listener failed", e);
            }
        }
    }

    // ---------------------------------------------------------------- commands

    @Override
    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        return commands.resolve(name, type);
    }

    @Override
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical) {
        return commands.whatIf(hypothetical);
    }

    @Override
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
        return commands.candidateOdds(candidate);
    }

    // The writes, audited as the local console's (ActingEngine); commands() runs them unaudited.

    @Override
    public CompletableFuture<Void> force(String key, String st, Duration ttl) {
        return local.force(key, st, ttl);
    }

    @Override
    public CompletableFuture<Void> release(String key) {
        return local.release(key);
    }

    @Override
    public CompletableFuture<Void> searchPv(String name) {
        return local.searchPv(name);
    }

    @Override
    public CompletableFuture<Void> dropPv(String name) {
        return local.dropPv(name);
    }

    @Override
    public CompletableFuture<Void> discoveryPing() {
        return local.discoveryPing();
    }

    @Override
    public CompletableFuture<Boolean> searchNow() {
        return local.searchNow();
    }

    /** A read: not audited. */
    @Override
    public CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
        return commands().diagnosePv(name);
    }

    @Override
    public EngineCommands commands() {
        return commands;
    }

    // ---------------------------------------------------------------- ServiceContext

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public EventLoopGroup io() {
        return group;
    }

    @Override
    public Path stateDir() {
        Path dir = options.stateDirOverride() != null ? options.stateDirOverride()
                : running != null ? running.stateDir() : Path.of("state");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot create state_dir " + dir + ": " + e.getMessage());
        }
        return dir;
    }

    @Override
    public Map<String, String> environment() {
        return options.environment();
    }

    @Override
    public EngineOptions options() {
        return options;
    }

    @Override
    public <T> T seam(Class<T> type) {
        ServiceContext.requireSeam(type);
        return implementer(type);
    }

    /**
     * The running service of class {@code type}, or null: for tests and diagnostics that look
     * inside one service (bound ports). Engine loop only.
     */
    public <T> T runningService(Class<T> type) {
        return implementer(type);
    }

    /** The running service implementing {@code type} (a seam, or a command interface), or null. */
    private <T> T implementer(Class<T> type) {
        for (Service s : services) {
            if (type.isInstance(s)) {
                return type.cast(s);
            }
        }
        return null;
    }

    /** The running configuration (engine loop only). */
    public Config running() {
        return running;
    }

    private <T> T onLoop(Callable<T> body) {
        if (scheduler.inLoop()) {
            throw new IllegalStateException("blocking engine call on the engine loop");
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        scheduler.execute(() -> {
            try {
                f.complete(body.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(c.getMessage(), c);
        } catch (TimeoutException e) {
            throw new IllegalStateException("engine loop did not answer within " + CALL_TIMEOUT_SECONDS + " s", e);
        }
    }
}
