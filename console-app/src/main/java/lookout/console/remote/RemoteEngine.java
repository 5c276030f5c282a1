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
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
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
        return reloadResult(applyText(candidate.source().text(), ApplyRequest.plain()));
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
        return reloadResult(applyText(text, ApplyRequest.plain()));
    }

    /** An outcome as the older facade's result: applied, rejected with problems, or failed with the reason. */
    private static ReloadResult reloadResult(ApplyOutcome o) {
        return switch (o.status()) {
            case APPLIED -> new ReloadResult(true, o.version(), Instant.now(), o.diff(), List.of(), null);
            case INVALID -> ReloadResult.rejected(o.version(), Instant.now(), o.problems());
            default -> ReloadResult.failed(o.version(), Instant.now(), o.diff(), o.message());
        };
    }

    /**
     * The operator's apply on the engine ({@code POST /api/v1/config} with every option of the
     * contract): the engine validates, applies and saves it to its file. Its refusals come back as
     * outcomes (422 {@link ApplyOutcome.Status#INVALID}, 409 by its {@code conflict}, 503
     * {@link ApplyOutcome.Status#NOT_RUNNING}); a request the engine did not take (no token, a
     * viewer's, unreachable) throws {@link ControlException}. Blocks.
     */
    @Override
    public ApplyOutcome applyText(String text, ApplyRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("text", text == null ? "" : text);
        body.put("dryRun", request.dryRun());
        body.put("force", request.force());
        body.put("confirmEmpty", request.confirmEmpty());
        if (request.expectedVersion() != null) {
            body.put("expectedVersion", request.expectedVersion());
        }
        Object tree;
        try {
            tree = client.post("/api/v1/config", body, ControlClient.APPLY_TIMEOUT);
        } catch (ControlException e) {
            ApplyOutcome refused = refusal(e, runningVersion());
            if (refused == null) {
                throw e;
            }
            return refused;
        }
        ApplyResult r = ApplyResult.of(tree);
        ApplyOutcome.Status st = Json.bool(tree, "applied", false) ? ApplyOutcome.Status.APPLIED
                : ApplyOutcome.Status.VALID;
        String message = Json.string(tree, "message");
        return new ApplyOutcome(st, r.version(), r.diff(), List.of(), message == null ? r.toString() : message,
                null, null, r.saved() == null ? null : Path.of(r.saved()), r.backup() == null ? null : Path.of(r.backup()));
    }

    /**
     * The engine's refusal of an apply as an outcome: 422 with its problems, 409 by its
     * {@code conflict} (or {@code status}), 503 {@code NOT_RUNNING}; null for anything else.
     */
    static ApplyOutcome refusal(ControlException e, long runningVersion) {
        Object b = e.body();
        long version = Json.number(b, "version", runningVersion);
        String error = Json.string(b, "error");
        String message = error == null ? e.getMessage() : error;
        ApplyOutcome.Status st = switch (e.kind()) {
            case INVALID -> ApplyOutcome.Status.INVALID;
            case CONFLICT -> conflict(b);
            case UNAVAILABLE -> "NOT_RUNNING".equals(Json.string(b, "status")) ? ApplyOutcome.Status.NOT_RUNNING : null;
            default -> null;
        };
        if (st == null) {
            return null;
        }
        List<ConfigProblem> problems = st != ApplyOutcome.Status.INVALID ? List.of()
                : e.problems().isEmpty() ? List.of(new ConfigProblem("", 1, 1, "", message))
                : e.problems().stream().map(ApplyResult::problem).toList();
        return new ApplyOutcome(st, version, null, problems, message, Json.string(b, "running"),
                Json.string(b, "onDisk"), null, null);
    }

    /** What a 409 stood on: the contract's {@code conflict}, else its {@code status}; a rolled-back apply otherwise. */
    private static ApplyOutcome.Status conflict(Object body) {
        String c = Json.string(body, "conflict");
        if (c != null) {
            switch (c) {
                case "edited": return ApplyOutcome.Status.EDITED_ON_DISK;
                case "version": return ApplyOutcome.Status.VERSION_MISMATCH;
                case "empty": return ApplyOutcome.Status.WOULD_REMOVE_EVERYTHING;
                case "unwritable": return ApplyOutcome.Status.UNWRITABLE;
                case "rolled-back": return ApplyOutcome.Status.FAILED;
                default: break;
            }
        }
        try {
            return ApplyOutcome.Status.valueOf(String.valueOf(Json.string(body, "status")));
        } catch (IllegalArgumentException x) {
            return ApplyOutcome.Status.FAILED;
        }
    }

    /** The configuration file of the engine, as it names it (on its own host), or null (the embedded default). */
    @Override
    public Path configFile() {
        String f = identity.configFile();
        return f == null ? null : Path.of(f);
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
