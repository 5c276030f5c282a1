package lookout.console.remote;

import java.lang.reflect.Type;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import lookout.console.remote.ControlException.Kind;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * An engine running elsewhere (a service, another console's), seen through its control API
 * (docs/design/control.md): the same {@link Engine} facade as the embedded one, so every pane of
 * the console works on it unchanged. Snapshots are {@code GET /status} read back into the
 * engine's records ({@link JsonRecords}); events come over the event stream ({@link EventStream},
 * resumed after a reconnect); commands are the contract's POSTs.
 *
 * <p>Not an engine of its own: {@link #start} refuses (it runs already), and {@link #stop} only
 * disconnects this client — the engine runs on.
 *
 * <p>After a failed snapshot the next attempts wait {@link Backoff} delays on {@code timer}:
 * {@link #snapshot()} fails at once, saying when it tries again, until then. The identity
 * ({@link #identity()}) is read again after every recovery: the title and the token's role follow
 * an engine that was restarted or reconfigured.
 *
 * <p>Concurrency: thread-safe. {@link #snapshot()} blocks (the console's poller calls it); the
 * commands return futures completed on HTTP threads.
 */
public final class RemoteEngine implements Engine {

    /** The read-only message for a viewer's token (the console shows it by every disabled action). */
    public static final String VIEWER = "read-only: this console's token is a viewer's";

    private final ControlClient client;
    private final Scheduler timer;
    private final boolean ownTimer;
    private final List<Consumer<EngineEvent>> listeners = new CopyOnWriteArrayList<>();
    private final Backoff backoff = new Backoff();

    // guarded by this
    private volatile EngineIdentity identity;
    private EventStream events;
    private long retryAtNanos;
    private boolean failing;
    private String problem;
    private boolean closed;
    private volatile EngineSnapshot last;

    /**
     * @param identity what {@code /api/v1/engine} said at connect
     * @param timer    reconnect delays and the event stream's checks; a {@link SystemTimer} in the
     *                 console (then {@link #stop()} closes it), a virtual one in tests
     */
    public RemoteEngine(ControlClient client, EngineIdentity identity, Scheduler timer) {
        this(client, identity, timer, timer instanceof SystemTimer);
    }

    private RemoteEngine(ControlClient client, EngineIdentity identity, Scheduler timer, boolean ownTimer) {
        this.client = Objects.requireNonNull(client);
        this.identity = Objects.requireNonNull(identity);
        this.timer = Objects.requireNonNull(timer);
        this.ownTimer = ownTimer;
    }

    /**
     * Connects: checks that {@code url} is a Lookout engine ({@link Kind#NOT_LOOKOUT} if not) and
     * what the token may do. Blocks for one request.
     */
    public static RemoteEngine connect(EngineUrl url, Token token) {
        ControlClient c = new ControlClient(url, token);
        EngineIdentity id = c.identity();
        return new RemoteEngine(c, id, new SystemTimer("lookout-remote-" + url.host()), true);
    }

    public ControlClient client() {
        return client;
    }

    public EngineUrl url() {
        return client.url();
    }

    /** What {@code /api/v1/engine} said last. */
    public EngineIdentity identity() {
        return identity;
    }

    /** Whether this console may write, and if not why, in the words the console shows. */
    public Access access() {
        return Access.of(identity, client.hasToken(), client.url().loopback());
    }

    /** Writable or not, with the reason shown beside every disabled action. */
    public record Access(boolean writable, String reason) {
        public static final Access WRITABLE = new Access(true, null);

        static Access of(EngineIdentity id, boolean token, boolean loopback) {
            if (id.writable()) {
                return WRITABLE;
            }
            if ("viewer".equals(id.role())) {
                return new Access(false, VIEWER);
            }
            if (!token) {
                return new Access(false, "read-only: this console has no token" + (loopback ? " (give an operator's with --token-file)"
                        : " for this engine (give an operator's with --token-file)"));
            }
            if ("anonymous".equals(id.role())) {
                return new Access(false, "read-only: the engine did not accept this console's token");
            }
            return new Access(false, "read-only: the engine does not take changes from this console");
        }
    }

    /** Why the engine cannot be reached now, or null when the last snapshot came through. */
    public synchronized String problem() {
        return failing ? problem : null;
    }

    // ------------------------------------------------------------------ lifecycle

    /** An attached engine runs already: starting it is not this console's to do. */
    @Override
    public void start(Config config) {
        throw new IllegalStateException("the engine at " + client.url() + " runs already; Apply changes its configuration");
    }

    /** Disconnects this client; the engine itself runs on. Idempotent. */
    @Override
    public void stop() {
        EventStream s;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            s = events;
            events = null;
        }
        if (s != null) {
            s.close();
        }
        if (ownTimer && timer instanceof SystemTimer t) {
            t.close();
        }
    }

    @Override
    public EngineState state() {
        EngineSnapshot s = last;
        if (s != null) {
            return s.state();
        }
        try {
            return EngineState.valueOf(identity.state());
        } catch (IllegalArgumentException e) {
            return EngineState.RUNNING;
        }
    }

    @Override
    public Scheduler scheduler() {
        return timer;
    }

    // ------------------------------------------------------------------ snapshots and events

    /**
     * {@code GET /status} as a snapshot. Blocks for one request (or fails at once while a reconnect
     * delay runs); a failure is a {@link ControlException} in plain words.
     */
    @Override
    public EngineSnapshot snapshot() {
        long now = timer.nanoTime();
        synchronized (this) {
            if (closed) {
                throw new ControlException(Kind.UNREACHABLE, "disconnected from " + client.url());
            }
            if (failing && now - retryAtNanos < 0) {
                long ms = Math.max(0, (retryAtNanos - now) / 1_000_000);
                throw new ControlException(Kind.UNREACHABLE, problem + "; trying again in " + seconds(ms));
            }
        }
        EngineSnapshot s;
        try {
            s = read(client.getText("/status"));
        } catch (ControlException e) {
            synchronized (this) {
                failing = true;
                problem = e.getMessage();
                retryAtNanos = timer.nanoTime() + backoff.next().toNanos();
            }
            throw e;
        }
        boolean recovered;
        synchronized (this) {
            recovered = failing;
            failing = false;
            problem = null;
            backoff.reset();
        }
        last = s;
        if (recovered) {
            refreshIdentity();
        }
        return s;
    }

    /** Reads {@code /status} JSON; an event type this console does not know becomes a notice. */
    static EngineSnapshot read(String statusJson) {
        try {
            return JsonRecords.read(statusJson, EngineSnapshot.class, RemoteEngine::unknownVariant);
        } catch (Json.JsonException | JsonRecords.ShapeException e) {
            throw new ControlException(Kind.FAILED, "the engine's /status does not read as a snapshot: " + e.getMessage());
        }
    }

    /** The reader's fallback for the snapshot: an event type this console does not know becomes a notice. */
    public static Object unknownVariant(Class<?> sealed, JsonRecords.UnknownVariant v) {
        if (sealed == EngineEvent.class) {
            return EventStream.unknown(v.type(), v.tree());
        }
        throw v;
    }

    private static String seconds(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private void refreshIdentity() {
        client.identityAsync().whenComplete((id, e) -> {
            if (id != null) {
                identity = id;
            }
        });
    }

    /** Reads the identity again now (blocking). */
    public EngineIdentity refreshIdentityNow() {
        EngineIdentity id = client.identity();
        identity = id;
        return id;
    }

    /**
     * Subscribes to the engine's events; the first subscriber opens the event stream with every
     * event the engine still keeps (the console's Events pane shows what happened before it attached).
     */
    @Override
    public AutoCloseable subscribe(Consumer<EngineEvent> listener) {
        listeners.add(listener);
        EventStream start = null;
        synchronized (this) {
            if (events == null && !closed) {
                events = new EventStream(client, timer, 0, (e, json) -> deliver(e));
                start = events;
            }
        }
        if (start != null) {
            start.start();
        }
        return () -> listeners.remove(listener);
    }

    /** The event stream, once someone subscribed (tests read its state). */
    public synchronized EventStream events() {
        return events;
    }

    private void deliver(EngineEvent e) {
        for (Consumer<EngineEvent> l : listeners) {
            try {
                l.accept(e);
            } catch (RuntimeException x) {
                System.getLogger("lookout.console.remote").log(System.Logger.Level.ERROR, "event listener failed", x);
            }
        }
    }

    // ------------------------------------------------------------------ configuration

    @Override
    public ReloadResult apply(Config candidate) {
        return applyText(candidate.source().text());
    }

    @Override
    public ReloadResult apply(ConfigResult candidate) {
        if (!candidate.ok()) {
            return ReloadResult.rejected(runningVersion(), Instant.now(), candidate.problems());
        }
        return apply(candidate.config());
    }

    @Override
    public ReloadResult reload(String text, String sourceName, Path baseDir) {
        return applyText(text);
    }

    private ReloadResult applyText(String text) {
        try {
            ApplyResult r = apply(new ApplyResult.Request(text, false, false, false, 0));
            return new ReloadResult(r.applied(), r.version(), Instant.now(), r.diff(), List.of(), null);
        } catch (ControlException e) {
            if (e.kind() == Kind.INVALID) {
                List<ConfigProblem> problems = e.problems().stream().map(ApplyResult::problem).toList();
                return ReloadResult.rejected(runningVersion(), Instant.now(), problems.isEmpty()
                        ? List.of(new ConfigProblem("", 1, 1, "", e.getMessage())) : problems);
            }
            throw e;
        }
    }

    /** {@code POST /api/v1/config} with every option of the contract. Blocks. */
    public ApplyResult apply(ApplyResult.Request request) {
        Object tree = client.post("/api/v1/config", request.body(), ControlClient.APPLY_TIMEOUT);
        return ApplyResult.of(tree);
    }

    private long runningVersion() {
        EngineSnapshot s = last;
        return s != null && s.config() != null ? s.config().version() : identity.configVersion();
    }

    // ------------------------------------------------------------------ commands

    @Override
    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        return post("/api/v1/resolve", Map.of("name", name, "type", type == null ? "A" : type))
                .thenApply(t -> JsonRecords.read(t, ResolveTrace.class));
    }

    @Override
    public CompletableFuture<Void> force(String key, String state, Duration ttl) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("key", key);
        body.put("state", state);
        if (ttl != null) {
            body.put("ttl", ttl.toSeconds());
        }
        return post("/api/v1/pools/force", body).thenApply(t -> null);
    }

    @Override
    public CompletableFuture<Void> release(String key) {
        return post("/api/v1/pools/release", Map.of("key", key)).thenApply(t -> null);
    }

    @Override
    public CompletableFuture<List<PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical) {
        return post("/api/v1/pools/what-if", Map.of("states", new LinkedHashMap<>(hypothetical))).thenApply(RemoteEngine::resources);
    }

    @Override
    public CompletableFuture<List<PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
        return post("/api/v1/pools/candidate-odds", Map.of("text", candidate.source().text())).thenApply(RemoteEngine::resources);
    }

    private static final Type RESOURCES;

    static {
        try {
            RESOURCES = PoolsSnapshot.class.getRecordComponents()[1].getGenericType(); // List<PoolResource>
        } catch (RuntimeException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The odds answer: an array of resources (or an object holding one as {@code "resources"}). */
    @SuppressWarnings("unchecked")
    static List<PoolsSnapshot.PoolResource> resources(Object tree) {
        Object list = tree instanceof Map<?, ?> ? Json.member(tree, "resources") : tree;
        return (List<PoolsSnapshot.PoolResource>) JsonRecords.read(list, RESOURCES, JsonRecords.Fallback.STRICT);
    }

    @Override
    public CompletableFuture<Void> searchPv(String name) {
        return post("/api/v1/pva/search", Map.of("name", name)).thenApply(t -> null);
    }

    @Override
    public CompletableFuture<Void> dropPv(String name) {
        return post("/api/v1/pva/stop", Map.of("name", name)).thenApply(t -> null);
    }

    @Override
    public CompletableFuture<Void> discoveryPing() {
        return post("/api/v1/pva/discovery-ping", Map.of()).thenApply(t -> null);
    }

    @Override
    public CompletableFuture<Boolean> searchNow() {
        return post("/api/v1/pva/hurry-up", Map.of()).thenApply(t -> Json.bool(t, "started", false));
    }

    private CompletableFuture<Object> post(String path, Object body) {
        return client.postAsync(path, body, ControlClient.REQUEST_TIMEOUT);
    }

}
