package lookout.engine.control;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * {@code GET /api/v1/config} (the running text), {@code POST /api/v1/config} (the operator's
 * apply, {@link Engine#applyText}) and {@code POST /api/v1/pools/candidate-odds}.
 */
final class ConfigRoutes {

    private static final List<String> APPLY_MEMBERS = List.of("text", "dryRun", "force", "confirmEmpty",
            "expectedVersion");

    void register(Router r) {
        r.add("GET", "/api/v1/config", Access.READ, null, ConfigRoutes::running);
        r.add("POST", "/api/v1/config", Access.WRITE, "apply", ConfigRoutes::apply);
        r.add("POST", "/api/v1/pools/candidate-odds", Access.READ, null, ConfigRoutes::candidateOdds);
    }

    private static CompletableFuture<ApiReply> running(ApiRequest req, Engine engine) {
        ConfigStatus c = engine.snapshot().config();
        if (c == null) {
            return CompletableFuture.completedFuture(ApiReply.error(503, "the engine is not running"));
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("version", c.version());
        o.put("sha256", c.sha256());
        o.put("file", engine.configFile() == null ? null : engine.configFile().toString());
        o.put("text", c.text());
        return CompletableFuture.completedFuture(ApiReply.ok(o));
    }

    private static CompletableFuture<ApiReply> apply(ApiRequest req, Engine engine) throws BadRequest {
        JsonBody b = req.json(APPLY_MEMBERS);
        String text = b.string("text");
        ApplyRequest r = new ApplyRequest(b.flag("dryRun"), b.flag("force"), b.flag("confirmEmpty"),
                b.optionalLong("expectedVersion", 0, Long.MAX_VALUE));
        return CompletableFuture.completedFuture(reply(engine.applyText(text, r)));
    }

    /** The HTTP answer of an apply's outcome (docs/design/control.md, {@code POST /api/v1/config}). */
    static ApiReply reply(ApplyOutcome o) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", o.status());
        switch (o.status()) {
            case APPLIED, VALID -> {
                body.put("applied", o.applied());
                body.put("version", o.version());
                body.put("diff", o.diff().changes());
                body.put("saved", o.saved());
                body.put("backup", o.backup());
                body.put("message", o.message());
                return ApiReply.ok(body);
            }
            case INVALID -> {
                body.put("error", o.message());
                body.put("problems", o.problems().stream().map(ConfigProblem::toString).toList());
                return ApiReply.json(422, body, "unprocessable");
            }
            case EDITED_ON_DISK -> {
                body.put("error", o.message());
                body.put("running", o.runningSha256());
                body.put("onDisk", o.onDiskSha256());
                return ApiReply.json(409, body, "conflict");
            }
            case VERSION_MISMATCH, WOULD_REMOVE_EVERYTHING, FAILED -> {
                body.put("error", o.message());
                body.put("version", o.version());
                return ApiReply.json(409, body, "conflict");
            }
            case NOT_RUNNING -> {
                body.put("error", o.message());
                return ApiReply.json(503, body, "unavailable");
            }
            default -> throw new IllegalStateException("unknown outcome " + o.status());
        }
    }

    private static CompletableFuture<ApiReply> candidateOdds(ApiRequest req, Engine engine) throws BadRequest {
        String text = req.json(List.of("text")).string("text");
        ConfigResult r = engine.parse(text);
        if (!r.ok()) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", ApplyOutcome.Status.INVALID);
            body.put("error", r.problems().size() + (r.problems().size() == 1 ? " problem" : " problems"));
            body.put("problems", r.problems().stream().map(ConfigProblem::toString).toList());
            return CompletableFuture.completedFuture(ApiReply.json(422, body, "unprocessable"));
        }
        return engine.candidateOdds(r.config()).thenApply(ApiReply::ok);
    }
}
