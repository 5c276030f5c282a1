package lookout.engine.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import lookout.engine.api.Actor;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.EventsSince;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Scheduler;
import lookout.engine.api.SequencedEvent;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigSource;

/**
 * The engine as one actor sees it ({@link Engine#actingAs}): reads go straight to the engine;
 * every write — apply, force, release, search, stop, hurry-up, discovery ping — is recorded in the
 * audit log with this actor, its arguments and its result, accepted or refused, before the caller
 * hears of the result. A write the audit log could not record is not done.
 *
 * <p>Concurrency: stateless beyond its final fields; safe from any thread but the engine loop
 * (like the facade). Results of writes that complete on the engine loop are recorded and handed
 * back on the auditor's thread.
 */
final class ActingEngine implements Engine {

    private final EngineCore engine;
    private final ConfigApplier applier;
    private final Actor actor;
    private final Auditor auditor;

    ActingEngine(EngineCore engine, ConfigApplier applier, Actor actor, Auditor auditor) {
        this.engine = engine;
        this.applier = applier;
        this.actor = actor;
        this.auditor = auditor;
    }

    Actor actor() {
        return actor;
    }

    // ---------------------------------------------------------------- configuration writes

    @Override
    public ReloadResult apply(Config candidate) {
        Map<String, Object> args = textArgs(candidate.source().text());
        args.put("saved", false);
        String refused = auditor.refusal();
        if (refused != null) {
            auditor.record(actor, "apply", args, "apply", "refused: " + refused, null, null);
            return ReloadResult.failed(engine.currentVersion(), engine.scheduler().now(), new ConfigDiff(List.of()),
                    refused);
        }
        ReloadResult r;
        try {
            r = engine.applyConfig(candidate);
        } catch (RuntimeException e) {
            auditor.record(actor, "apply", args, "apply", "failed: " + reason(e), null, null);
            throw e;
        }
        auditor.record(actor, "apply", args, "apply", r.applied() ? "ok" : "failed: " + r.failure(),
                changes(r.diff()), r.version());
        return r;
    }

    @Override
    public ReloadResult apply(ConfigResult candidate) {
        if (candidate.ok()) {
            return apply(candidate.config());
        }
        ReloadResult r = engine.rejectProblems(candidate);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("problems", candidate.problems().size());
        auditor.record(actor, "apply", args, "apply", "refused: " + r.reasons().get(0), null, r.version());
        return r;
    }

    @Override
    public ReloadResult reload(String text, String sourceName, Path baseDir) {
        return apply(engine.loader().parse(text, sourceName, baseDir));
    }

    /**
     * The operator's apply, audited; a dry run changes nothing, so it is not a write: a reader may
     * ask for one and the audit log does not record it (docs/design/control.md).
     */
    @Override
    public ApplyOutcome applyText(String text, ApplyRequest request) {
        if (request.dryRun()) {
            return applier.applyText(text, request);
        }
        Map<String, Object> args = textArgs(text == null ? "" : text);
        args.put("dryRun", request.dryRun());
        args.put("force", request.force());
        args.put("confirmEmpty", request.confirmEmpty());
        args.put("expectedVersion", request.expectedVersion());
        return appliedAs(args, "apply", () -> applier.applyText(text, request));
    }

    @Override
    public ApplyOutcome reloadFile(ApplyRequest request) {
        Map<String, Object> args = new LinkedHashMap<>();
        Path file = engine.configFile();
        args.put("file", file == null ? null : file.toString());
        args.put("dryRun", request.dryRun());
        args.put("confirmEmpty", request.confirmEmpty());
        return appliedAs(args, "reload" + (file == null ? "" : " of " + file), () -> applier.reloadFile(request));
    }

    private ApplyOutcome appliedAs(Map<String, Object> args, String summary, Supplier<ApplyOutcome> body) {
        String refused = auditor.refusal();
        if (refused != null) {
            auditor.record(actor, "apply", args, summary, "refused: " + refused, null, null);
            return new ApplyOutcome(ApplyOutcome.Status.UNWRITABLE, engine.currentVersion(), null, List.of(), refused,
                    null, null, null, null);
        }
        ApplyOutcome o;
        try {
            o = body.get();
        } catch (RuntimeException e) {
            auditor.record(actor, "apply", args, summary, "failed: " + reason(e), null, null);
            throw e;
        }
        if (o.saved() != null) {
            args.put("saved", o.saved().toString());
        } else if (o.applied() && !args.containsKey("file")) {
            args.put("saved", false); // applied in memory only (the embedded default has no file)
        }
        if (o.backup() != null) {
            args.put("backup", o.backup().toString());
        }
        auditor.record(actor, "apply", args, summary, result(o), changes(o.diff()), o.version());
        return o;
    }

    /** The audit result of an apply: {@code ok}, {@code ok: dry run}, {@code refused: …}, {@code failed: …}. */
    static String result(ApplyOutcome o) {
        return switch (o.status()) {
            case APPLIED -> o.saved() == null && o.message().contains("NOT saved") ? "ok: " + o.message() : "ok";
            case VALID -> "ok: dry run";
            case INVALID -> "refused: " + o.problems().size() + (o.problems().size() == 1 ? " problem: " : " problems, first: ")
                    + o.problems().get(0);
            case EDITED_ON_DISK, VERSION_MISMATCH, WOULD_REMOVE_EVERYTHING -> "refused: " + o.message();
            case FAILED, UNWRITABLE, NOT_RUNNING -> "failed: " + o.message();
        };
    }

    // ---------------------------------------------------------------- command writes

    @Override
    public CompletableFuture<Void> force(String key, String state, Duration ttl) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("key", key);
        args.put("state", state);
        args.put("ttl", ttl == null ? null : ttl.toSeconds());
        return audited("force", args, "force " + key + " " + state + (ttl == null ? "" : " for " + ttl.toSeconds() + " s"),
                () -> engine.commands().force(key, state, ttl), v -> "ok");
    }

    @Override
    public CompletableFuture<Void> release(String key) {
        return audited("release", args("key", key), "release " + key, () -> engine.commands().release(key), v -> "ok");
    }

    @Override
    public CompletableFuture<Void> searchPv(String name) {
        return audited("search", args("name", name), "search " + name, () -> engine.commands().searchPv(name), v -> "ok");
    }

    @Override
    public CompletableFuture<Void> dropPv(String name) {
        return audited("stop", args("name", name), "stop searching " + name, () -> engine.commands().dropPv(name),
                v -> "ok");
    }

    @Override
    public CompletableFuture<Void> discoveryPing() {
        return audited("discovery-ping", Map.of(), "discovery ping", () -> engine.commands().discoveryPing(), v -> "ok");
    }

    @Override
    public CompletableFuture<lookout.engine.api.PvaChannelDiagnosis> diagnosePv(String name) {
        return engine.commands().diagnosePv(name); // a read: nothing to audit
    }

    @Override
    public CompletableFuture<Boolean> searchNow() {
        return audited("hurry-up", Map.of(), "hurry-up", () -> engine.commands().searchNow(),
                started -> Boolean.TRUE.equals(started) ? "ok: started" : "ok: held off (30 s holdoff)");
    }

    private <T> CompletableFuture<T> audited(String action, Map<String, Object> args, String summary,
                                             Supplier<CompletableFuture<T>> write, Function<T, String> ok) {
        String refused = auditor.refusal();
        if (refused != null) {
            auditor.record(actor, action, args, summary, "refused: " + refused, null, null);
            return CompletableFuture.failedFuture(new IllegalStateException(refused));
        }
        CompletableFuture<T> f;
        try {
            f = write.get();
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        return f.handleAsync((v, e) -> {
            Throwable cause = unwrap(e);
            auditor.record(actor, action, args, summary, cause == null ? ok.apply(v) : "failed: " + reason(cause),
                    null, null);
            if (cause != null) {
                throw cause instanceof CompletionException ce ? ce : new CompletionException(cause);
            }
            return v;
        }, auditor.executor());
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** A failure as the audit log and an operator read it: its message, never a class name. */
    static String reason(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? "internal error" : m;
    }

    private static Map<String, Object> args(String name, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(name, value);
        return m;
    }

    private static Map<String, Object> textArgs(String text) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("sha256", ConfigSource.of("", null, text).sha256());
        args.put("bytes", text.getBytes(StandardCharsets.UTF_8).length);
        return args;
    }

    private static List<String> changes(ConfigDiff diff) {
        return diff == null ? List.of() : diff.changes().stream().map(Object::toString).toList();
    }

    // ---------------------------------------------------------------- reads and lifecycle

    @Override
    public Engine actingAs(Actor other) {
        return engine.actingAs(other);
    }

    @Override
    public void start(Config config) {
        engine.start(config);
    }

    @Override
    public void stop() {
        engine.stop();
    }

    @Override
    public EngineState state() {
        return engine.state();
    }

    @Override
    public EngineSnapshot snapshot() {
        return engine.snapshot();
    }

    @Override
    public AutoCloseable subscribe(Consumer<EngineEvent> listener) {
        return engine.subscribe(listener);
    }

    @Override
    public Scheduler scheduler() {
        return engine.scheduler();
    }

    @Override
    public Path configFile() {
        return engine.configFile();
    }

    @Override
    public ConfigResult parse(String text) {
        return engine.parse(text);
    }

    @Override
    public List<AuditRecord> audit(int limit) {
        return engine.audit(limit);
    }

    @Override
    public EventsSince eventsSince(long seq) {
        return engine.eventsSince(seq);
    }

    @Override
    public AutoCloseable subscribeSequenced(Consumer<SequencedEvent> listener) {
        return engine.subscribeSequenced(listener);
    }

    @Override
    public CompletableFuture<ResolveTrace> resolve(String name, String type) {
        return engine.resolve(name, type);
    }

    @Override
    public CompletableFuture<List<PoolsSnapshot.PoolResource>> whatIf(Map<String, String> hypothetical) {
        return engine.whatIf(hypothetical);
    }

    @Override
    public CompletableFuture<List<PoolsSnapshot.PoolResource>> candidateOdds(Config candidate) {
        return engine.candidateOdds(candidate);
    }
}
