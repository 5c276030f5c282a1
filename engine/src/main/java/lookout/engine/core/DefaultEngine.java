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
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.Metric;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigLoader;
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
 * <p>Concurrency: {@code services}, {@code running}, {@code version}, {@code lastReload} and
 * {@code appliedAt} are confined to the engine loop; {@code state} is volatile for any reader;
 * the event history is guarded by its own lock. Blocking facade calls hop onto the loop and wait.
 */
public final class DefaultEngine implements Engine, ServiceContext {

    private static final Logger LOG = System.getLogger("lookout.engine");
    private static final int RECENT_EVENTS = 500;
    private static final long CALL_TIMEOUT_SECONDS = 30;

    private final EngineOptions options;
    private final Supplier<List<Service>> serviceFactory;
    private final RandomGenerator random;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final ArrayDeque<EngineEvent> recent = new ArrayDeque<>();

    private volatile EngineState state = EngineState.NEW;
    private EventLoopGroup group;
    private Scheduler scheduler;

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
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public synchronized void start(Config config) {
        if (state != EngineState.NEW && state != EngineState.STOPPED) {
            throw new IllegalStateException("engine is " + state);
        }
        state = EngineState.STARTING;
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
                version = 1;
                startedAt = scheduler.now();
                appliedAt = startedAt;
                return null;
            });
        } catch (RuntimeException e) {
            state = EngineState.FAILED;
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        state = EngineState.RUNNING;
        publish(new EngineEvent.EngineStarted(scheduler.now(), 1));
    }

    @Override
    public ReloadResult apply(Config candidate) {
        requireRunning();
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
        if (candidate.ok()) {
            return apply(candidate.config());
        }
        requireRunning();
        return onLoop(() -> {
            lastReload = ReloadResult.rejected(version, scheduler.now(), candidate.problems());
            publish(new EngineEvent.ConfigRejected(lastReload.at(),
                    candidate.problems().stream().map(Object::toString).toList()));
            return lastReload;
        });
    }

    @Override
    public ReloadResult reload(String text, String sourceName, Path baseDir) {
        return apply(new ConfigLoader(options.environment()).parse(text, sourceName, baseDir));
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
        return onLoop(() -> {
            SnapshotBuilder b = new SnapshotBuilder();
            for (Service svc : services) {
                try {
                    svc.contribute(b);
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "service " + svc.name() + " failed to build its snapshot", e);
                }
            }
            b.metric(Metric.gauge("lookout_config_version", "Running configuration version", version));
            ConfigStatus cs = new ConfigStatus(version, running.source().sha256(), running.source().name(),
                    appliedAt, running.source().text(), lastReload);
            return new EngineSnapshot(state, scheduler.now(), startedAt, cs, b.resolver, b.pools, b.pva,
                    b.pvaServer, b.metrics, recentEvents());
        });
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
        return command(Commands.Resolver.class, r -> r.resolve(name, type));
    }

    @Override
    public CompletableFuture<Void> force(String key, String st, Duration ttl) {
        return command(Commands.Pools.class, p -> {
            try {
                p.force(key, st, ttl);
                return CompletableFuture.completedFuture(null);
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public CompletableFuture<Void> release(String key) {
        return command(Commands.Pools.class, p -> {
            try {
                p.release(key);
                return CompletableFuture.completedFuture(null);
            } catch (Exception e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical) {
        Map<String, String> copy = Map.copyOf(hypothetical);
        return command(Commands.Pools.class, p -> {
            try {
                return CompletableFuture.completedFuture(p.whatIf(copy));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public CompletableFuture<List<lookout.engine.api.PoolsSnapshot.PoolResource>> candidateOdds(lookout.engine.config.Config candidate) {
        java.util.Objects.requireNonNull(candidate, "candidate");
        return command(Commands.Pools.class, p -> {
            try {
                return CompletableFuture.completedFuture(p.oddsFor(candidate));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    @Override
    public CompletableFuture<Void> searchPv(String name) {
        return command(Commands.PvaClient.class, p -> {
            p.searchPv(name);
            return CompletableFuture.completedFuture(null);
        });
    }

    @Override
    public CompletableFuture<Void> dropPv(String name) {
        return command(Commands.PvaClient.class, p -> {
            p.dropPv(name);
            return CompletableFuture.completedFuture(null);
        });
    }

    @Override
    public CompletableFuture<Void> discoveryPing() {
        return command(Commands.PvaClient.class, p -> {
            p.discoveryPing();
            return CompletableFuture.completedFuture(null);
        });
    }

    @Override
    public CompletableFuture<Boolean> searchNow() {
        return command(Commands.PvaClient.class, p -> CompletableFuture.completedFuture(p.searchNow()));
    }

    private <C, R> CompletableFuture<R> command(Class<C> type, Function<C, CompletableFuture<R>> body) {
        if (state != EngineState.RUNNING) {
            return CompletableFuture.failedFuture(new IllegalStateException("engine is " + state));
        }
        CompletableFuture<R> result = new CompletableFuture<>();
        scheduler.execute(() -> {
            C target = implementer(type);
            if (target == null) {
                result.completeExceptionally(new IllegalStateException("no running service accepts "
                        + type.getSimpleName() + " commands"));
                return;
            }
            try {
                body.apply(target).whenComplete((v, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(v);
                    }
                });
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
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
