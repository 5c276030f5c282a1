package lookout.engine.control;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineSnapshot;

/**
 * {@code GET /api/v1/engine} (who this engine is: a client that does not get this JSON is not
 * talking to a Lookout engine), {@code GET /api/v1/audit} and {@code POST /api/v1/resolve}.
 */
final class EngineRoutes {

    static final int DEFAULT_AUDIT_LIMIT = 100;

    private final Supplier<String> name;

    /** @param name this engine's name ({@code status.name}, else the host's) */
    EngineRoutes(Supplier<String> name) {
        this.name = name;
    }

    void register(Router r) {
        r.add("GET", "/api/v1/engine", Access.READ, null, this::identity);
        r.add("GET", "/api/v1/audit", Access.AUDIT, null, EngineRoutes::audit);
        r.add("POST", "/api/v1/resolve", Access.READ, null, EngineRoutes::resolve);
    }

    private CompletableFuture<ApiReply> identity(ApiRequest req, Engine engine) {
        EngineSnapshot s = engine.snapshot();
        ConfigStatus c = s.config();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("product", "lookout");
        o.put("version", ProductVersion.of());
        o.put("engine", name.get());
        o.put("configFile", engine.configFile() == null ? null : engine.configFile().toString());
        o.put("configVersion", c == null ? null : c.version());
        o.put("state", s.state());
        o.put("startedAt", s.startedAt());
        o.put("role", req.principal().role().word());
        o.put("writable", req.principal().writable());
        return CompletableFuture.completedFuture(ApiReply.ok(o));
    }

    private static CompletableFuture<ApiReply> audit(ApiRequest req, Engine engine) throws BadRequest {
        int limit = DEFAULT_AUDIT_LIMIT;
        String l = req.param("limit");
        if (l != null) {
            try {
                limit = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > 10_000) {
                throw new BadRequest("limit: expected an integer from 1 to 10000, found '" + l + "'");
            }
        }
        return CompletableFuture.completedFuture(ApiReply.ok(engine.audit(limit)));
    }

    private static CompletableFuture<ApiReply> resolve(ApiRequest req, Engine engine) throws BadRequest {
        JsonBody b = req.json(List.of("name", "type"));
        String name = b.word("name", 1024);
        String type = b.optionalString("type", "A");
        return engine.resolve(name, type).thenApply(ApiReply::ok);
    }
}
