package lookout.engine.control;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.Engine;

/**
 * {@code POST /api/v1/pools/force}, {@code /release} (writes) and {@code /what-if} (a read: nothing
 * applied). Keys are gdnsd admin_state keys, globs allowed ({@code demo/local2},
 * {@code 127.0.0.*&#47;demo_tcp}).
 */
final class PoolRoutes {

    /** Ten years: longer is "until released", which is a missing ttl. */
    static final long MAX_TTL_SECONDS = 10L * 365 * 24 * 3600;
    static final int MAX_KEY = 512;

    void register(Router r) {
        r.add("POST", "/api/v1/pools/force", Access.WRITE, "force", PoolRoutes::force);
        r.add("POST", "/api/v1/pools/release", Access.WRITE, "release", PoolRoutes::release);
        r.add("POST", "/api/v1/pools/what-if", Access.READ, null, PoolRoutes::whatIf);
    }

    private static CompletableFuture<ApiReply> force(ApiRequest req, Engine engine) throws BadRequest {
        JsonBody b = req.json(List.of("key", "state", "ttl"));
        String key = b.word("key", MAX_KEY);
        String state = upOrDown(b.word("state", 8), "state");
        Long ttl = b.optionalLong("ttl", 1, MAX_TTL_SECONDS);
        return engine.force(key, state, ttl == null ? null : Duration.ofSeconds(ttl)).thenApply(v -> ok());
    }

    private static CompletableFuture<ApiReply> release(ApiRequest req, Engine engine) throws BadRequest {
        String key = req.json(List.of("key")).word("key", MAX_KEY);
        return engine.release(key).thenApply(v -> ok());
    }

    private static CompletableFuture<ApiReply> whatIf(ApiRequest req, Engine engine) throws BadRequest {
        Map<String, String> states = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : req.json(List.of("states")).strings("states").entrySet()) {
            states.put(e.getKey(), upOrDown(e.getValue(), "states." + e.getKey()));
        }
        return engine.whatIf(states).thenApply(ApiReply::ok);
    }

    static String upOrDown(String v, String member) throws BadRequest {
        String s = v.strip().toUpperCase(Locale.ROOT);
        if (!s.equals("UP") && !s.equals("DOWN")) {
            throw new BadRequest("\"" + member + "\": expected \"UP\" or \"DOWN\", found \"" + v + "\"");
        }
        return s;
    }

    static ApiReply ok() {
        return ApiReply.ok(Map.of("ok", true));
    }
}
