package lookout.engine.control;

import java.util.LinkedHashMap;
import java.util.Map;
import lookout.engine.json.JsonWriter;

/**
 * An answer of the control API: status, content type, body, extra headers.
 *
 * @param status      HTTP status code
 * @param contentType the body's media type
 * @param body        the body (JSON for every {@code /api/} route)
 * @param headers     extra response headers ({@code Allow}, {@code WWW-Authenticate})
 * @param result      the outcome as {@code lookout_control_requests_total} counts it
 */
public record ApiReply(int status, String contentType, String body, Map<String, String> headers, String result) {

    public static final String JSON = "application/json; charset=utf-8";
    public static final String TEXT = "text/plain; charset=utf-8";

    public ApiReply {
        headers = Map.copyOf(headers);
    }

    /** 200 with {@code value} as JSON. */
    public static ApiReply ok(Object value) {
        return json(200, value, "ok");
    }

    public static ApiReply json(int status, Object value, String result) {
        return new ApiReply(status, JSON, JsonWriter.write(value) + "\n", Map.of(), result);
    }

    /** {@code {"error": message}} with {@code status}. */
    public static ApiReply error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        return json(status, body, resultOf(status));
    }

    public ApiReply withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return new ApiReply(status, contentType, body, h, result);
    }

    /** The counter label of a status code. */
    static String resultOf(int status) {
        return switch (status) {
            case 200 -> "ok";
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 409 -> "conflict";
            case 422 -> "unprocessable";
            case 503 -> "unavailable";
            default -> status >= 500 ? "error" : "other";
        };
    }
}
