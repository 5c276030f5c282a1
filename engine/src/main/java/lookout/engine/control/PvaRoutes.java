package lookout.engine.control;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.Engine;

/**
 * {@code POST /api/v1/pva/search}, {@code /stop}, {@code /hurry-up} and {@code /discovery-ping}: the
 * console's PVA actions, all writes.
 */
final class PvaRoutes {

    /** pvAccess names are short; this is generous and keeps a bad client from filling the ring. */
    static final int MAX_NAME = 512;

    void register(Router r) {
        r.add("POST", "/api/v1/pva/search", Access.WRITE, "search", PvaRoutes::search);
        r.add("POST", "/api/v1/pva/stop", Access.WRITE, "stop", PvaRoutes::stop);
        r.add("POST", "/api/v1/pva/hurry-up", Access.WRITE, "hurry-up", PvaRoutes::hurryUp);
        r.add("POST", "/api/v1/pva/discovery-ping", Access.WRITE, "discovery-ping", PvaRoutes::ping);
    }

    private static CompletableFuture<ApiReply> search(ApiRequest req, Engine engine) throws BadRequest {
        String name = req.json(List.of("name")).word("name", MAX_NAME);
        return engine.searchPv(name).thenApply(v -> PoolRoutes.ok());
    }

    private static CompletableFuture<ApiReply> stop(ApiRequest req, Engine engine) throws BadRequest {
        String name = req.json(List.of("name")).word("name", MAX_NAME);
        return engine.dropPv(name).thenApply(v -> PoolRoutes.ok());
    }

    private static CompletableFuture<ApiReply> hurryUp(ApiRequest req, Engine engine) throws BadRequest {
        req.json(List.of());
        return engine.searchNow().thenApply(started -> ApiReply.ok(Map.of("started", started)));
    }

    private static CompletableFuture<ApiReply> ping(ApiRequest req, Engine engine) throws BadRequest {
        req.json(List.of());
        return engine.discoveryPing().thenApply(v -> PoolRoutes.ok());
    }
}
