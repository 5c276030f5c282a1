package lookout.engine.control;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.json.JsonReader;

/**
 * A request body as the routes read it: a JSON object (RFC 8259, UTF-8) whose members are taken
 * by name and type. Every mistake — not UTF-8, not JSON, not an object, a required member missing,
 * a member of the wrong type, a member the route does not know — is a {@link BadRequest} that says
 * which member and what was expected, so a client's author sees the fix in the 400's message.
 */
final class JsonBody {

    private final Map<String, Object> members;

    private JsonBody(Map<String, Object> members) {
        this.members = members;
    }

    /**
     * Parses {@code bytes}; an empty body is an empty object (for routes whose every member is
     * optional), and only the members in {@code known} are accepted.
     */
    static JsonBody parse(byte[] bytes, List<String> known) throws BadRequest {
        if (bytes.length == 0) {
            return new JsonBody(new LinkedHashMap<>());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new BadRequest("the body is not UTF-8 text");
        }
        Map<String, Object> m;
        try {
            m = JsonReader.parseObject(text);
        } catch (JsonReader.JsonException e) {
            throw new BadRequest("the body is not the JSON object expected: " + e.getMessage());
        }
        for (String k : m.keySet()) {
            if (!known.contains(k)) {
                throw new BadRequest("unknown member \"" + k + "\"" + (known.isEmpty() ? "; expected {}"
                        : "; expected " + String.join(", ", known.stream().map(x -> "\"" + x + "\"").toList())));
            }
        }
        return new JsonBody(m);
    }

    String string(String name) throws BadRequest {
        Object v = members.get(name);
        if (v == null) {
            throw new BadRequest("missing member \"" + name + "\" (a string)");
        }
        if (!(v instanceof String s)) {
            throw new BadRequest("\"" + name + "\": expected a string, found " + JsonReader.kind(v));
        }
        return s;
    }

    /** A non-empty string of at most {@code max} characters. */
    String word(String name, int max) throws BadRequest {
        String s = string(name);
        if (s.isBlank()) {
            throw new BadRequest("\"" + name + "\": expected a non-empty string");
        }
        if (s.length() > max) {
            throw new BadRequest("\"" + name + "\": longer than " + max + " characters");
        }
        return s;
    }

    /** An optional string, {@code dflt} when absent. */
    String optionalString(String name, String dflt) throws BadRequest {
        return members.get(name) == null ? dflt : word(name, 256);
    }

    boolean flag(String name) throws BadRequest {
        Object v = members.get(name);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw new BadRequest("\"" + name + "\": expected true or false, found " + JsonReader.kind(v));
        }
        return b;
    }

    /** An optional integer from {@code min} to {@code max}; null when absent (or JSON null). */
    Long optionalLong(String name, long min, long max) throws BadRequest {
        Object v = members.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Long l) || l < min || l > max) {
            throw new BadRequest("\"" + name + "\": expected an integer from " + min + " to " + max + ", found "
                    + (v instanceof Number ? v : JsonReader.kind(v)));
        }
        return l;
    }

    /** An object of strings ({@code {"key": "UP"}}), required. */
    Map<String, String> strings(String name) throws BadRequest {
        Object v = members.get(name);
        if (!(v instanceof Map<?, ?> m)) {
            throw new BadRequest(v == null ? "missing member \"" + name + "\" (an object of strings)"
                    : "\"" + name + "\": expected an object of strings, found " + JsonReader.kind(v));
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof String s)) {
                throw new BadRequest("\"" + name + "\".\"" + e.getKey() + "\": expected a string, found "
                        + JsonReader.kind(e.getValue()));
            }
            out.put((String) e.getKey(), s);
        }
        return out;
    }
}
