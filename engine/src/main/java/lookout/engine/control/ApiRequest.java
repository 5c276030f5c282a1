package lookout.engine.control;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import lookout.engine.api.Actor;
import lookout.engine.net.HostPort;

/**
 * One decoded request, as a route sees it.
 *
 * @param method    {@code GET}, {@code POST}, ... ({@code HEAD} arrives as {@code GET})
 * @param path      the path, without the query
 * @param query     the query parameters
 * @param body      the body's bytes (at most the listener's limit)
 * @param peer      the client's address
 * @param principal who it is
 */
public record ApiRequest(String method, String path, Map<String, List<String>> query, byte[] body, InetSocketAddress peer,
                  Principal principal) {

    /** The one value of query parameter {@code name}, or null. */
    String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** The actor the audit log names for this request. */
    Actor actor() {
        return new Actor(principal.token(), peer == null ? "unknown" : HostPort.format(peer));
    }

    JsonBody json(List<String> known) throws BadRequest {
        return JsonBody.parse(body, known);
    }
}
