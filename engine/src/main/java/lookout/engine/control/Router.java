package lookout.engine.control;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.Engine;

/**
 * The route table of the HTTP listener: exact paths, each with the methods it answers, who may
 * call it and, for a write, the action name the audit log records. Lookup only: authorisation,
 * counting and the answer's delivery are the HTTP handler's.
 *
 * <p>Immutable once built; shared by every connection.
 */
public final class Router {

    /** A route's work: an answer, later (most routes ask the engine loop for something). */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param request the decoded request
         * @param engine  the engine as the request's actor sees it ({@link Engine#actingAs})
         */
        CompletableFuture<ApiReply> handle(ApiRequest request, Engine engine) throws BadRequest;
    }

    /** One method of one path. */
    record Endpoint(String method, String path, Access access, String action, Handler handler) {
    }

    /** What a lookup found. */
    sealed interface Match {
    }

    record Found(Endpoint endpoint) implements Match {
    }

    record NotFound() implements Match {
    }

    /** The path exists, the method does not: 405 with {@code Allow}. */
    record NotAllowed(String allow) implements Match {
    }

    private final Map<String, Map<String, Endpoint>> routes = new LinkedHashMap<>();

    /** Adds {@code method path}; {@code action} is the audit name of a write, null for a read. */
    public Router add(String method, String path, Access access, String action, Handler handler) {
        if ((access == Access.WRITE) != (action != null)) {
            throw new IllegalArgumentException("a write names its audit action, a read does not: " + path);
        }
        routes.computeIfAbsent(path, k -> new LinkedHashMap<>()).put(method, new Endpoint(method, path, access,
                action, handler));
        return this;
    }

    /** {@code HEAD} is answered as {@code GET} without a body (RFC 9110 §9.3.2). */
    Match match(String method, String path) {
        Map<String, Endpoint> byMethod = routes.get(path);
        if (byMethod == null) {
            return new NotFound();
        }
        Endpoint e = byMethod.get("HEAD".equals(method) ? "GET" : method);
        if (e != null) {
            return new Found(e);
        }
        List<String> allow = new ArrayList<>();
        for (String m : byMethod.keySet()) {
            allow.add(m);
            if (m.equals("GET")) {
                allow.add("HEAD");
            }
        }
        return new NotAllowed(String.join(", ", allow));
    }

    /** Every path, for the 404's hint and the counters' labels. */
    public List<String> paths() {
        return List.copyOf(routes.keySet());
    }
}
