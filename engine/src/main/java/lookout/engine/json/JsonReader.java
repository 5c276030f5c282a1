package lookout.engine.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON reader into plain values: objects → {@code Map<String, Object>} (in
 * document order), arrays → {@code List<Object>}, strings → {@code String}, numbers → {@code Long}
 * when integral and within range, else {@code Double}, {@code true}/{@code false} →
 * {@code Boolean}, {@code null} → null.
 *
 * <p>It reads what API clients send and what the engine itself wrote (event journal, audit log),
 * so it refuses rather than guesses: trailing text, a duplicate key (RFC 8259 §4 leaves its
 * meaning open), a lone surrogate escape, control characters in strings, nesting deeper than
 * {@link #MAX_DEPTH}. Every refusal is a {@link JsonException} whose message names the character
 * offset. Stateless apart from one parse; not thread-safe within a parse, which is one call.
 */
public final class JsonReader {

    /** Deeper than any request or record the engine reads; a guard against stack exhaustion. */
    public static final int MAX_DEPTH = 32;

    /** The text is not the JSON the reader expects; the message says where and what. */
    public static final class JsonException extends Exception {
        public JsonException(String message) {
            super(message);
        }
    }

    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /** The value {@code text} holds, nothing but whitespace around it. */
    public static Object parse(String text) throws JsonException {
        JsonReader r = new JsonReader(text);
        r.space();
        Object v = r.value(0);
        r.space();
        if (r.i != text.length()) {
            throw r.error("unexpected text after the JSON value");
        }
        return v;
    }

    /** The object {@code text} holds; anything else (an array, a string) is refused. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) throws JsonException {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new JsonException("expected a JSON object { ... }, found " + kind(v));
        }
        return (Map<String, Object>) v;
    }

    /** A value's kind in words, for "expected X, found Y" messages. */
    public static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map) {
            return "an object";
        }
        if (v instanceof List) {
            return "an array";
        }
        if (v instanceof String) {
            return "a string";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }

    private Object value(int depth) throws JsonException {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH + " levels");
        }
        if (i >= s.length()) {
            throw error("unexpected end of the text, expected a value");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("expected a value, found '" + printable(c) + "'");
            }
        };
    }

    private Map<String, Object> object(int depth) throws JsonException {
        Map<String, Object> out = new LinkedHashMap<>();
        i++; // {
        space();
        if (peek() == '}') {
            i++;
            return out;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("expected a key in double quotes");
            }
            int at = i;
            String key = string();
            if (out.containsKey(key)) {
                i = at;
                throw error("duplicate key \"" + key + "\"");
            }
            space();
            expect(':');
            space();
            out.put(key, value(depth + 1));
            space();
            char c = peek();
            if (c == ',') {
                i++;
            } else if (c == '}') {
                i++;
                return out;
            } else {
                throw error("expected ',' or '}' in an object");
            }
        }
    }

    private List<Object> array(int depth) throws JsonException {
        List<Object> out = new ArrayList<>();
        i++; // [
        space();
        if (peek() == ']') {
            i++;
            return out;
        }
        while (true) {
            space();
            out.add(value(depth + 1));
            space();
            char c = peek();
            if (c == ',') {
                i++;
            } else if (c == ']') {
                i++;
                return out;
            } else {
                throw error("expected ',' or ']' in an array");
            }
        }
    }

    private String string() throws JsonException {
        i++; // opening quote
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                i--;
                throw error("control character in a string (escape it)");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                throw error("unterminated escape");
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"' -> b.append('"');
                case '\\' -> b.append('\\');
                case '/' -> b.append('/');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    char u = hex4();
                    if (Character.isHighSurrogate(u)) {
                        if (!s.startsWith("\\u", i)) {
                            throw error("a high surrogate escape without its low half");
                        }
                        i += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("a high surrogate escape without its low half");
                        }
                        b.append(u).append(low);
                    } else if (Character.isLowSurrogate(u)) {
                        throw error("a low surrogate escape without its high half");
                    } else {
                        b.append(u);
                    }
                }
                default -> {
                    i--;
                    throw error("unknown escape '\\" + printable(e) + "'");
                }
            }
        }
    }

    private char hex4() throws JsonException {
        if (i + 4 > s.length()) {
            throw error("expected four hex digits after \\u");
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = Character.digit(s.charAt(i + k), 16);
            if (d < 0) {
                throw error("expected four hex digits after \\u");
            }
            v = v * 16 + d;
        }
        i += 4;
        return (char) v;
    }

    /** RFC 8259 §6: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}. */
    private Object number() throws JsonException {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else if (digit(peek())) {
            while (digit(peek())) {
                i++;
            }
        } else {
            throw error("expected a digit");
        }
        boolean integral = true;
        if (peek() == '.') {
            integral = false;
            i++;
            if (!digit(peek())) {
                throw error("expected a digit after the decimal point");
            }
            while (digit(peek())) {
                i++;
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            if (!digit(peek())) {
                throw error("expected a digit in the exponent");
            }
            while (digit(peek())) {
                i++;
            }
        }
        String text = s.substring(start, i);
        if (integral) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // beyond a long: read as a double below
            }
        }
        return Double.parseDouble(text);
    }

    private Object literal(String word, Object v) throws JsonException {
        if (!s.startsWith(word, i)) {
            throw error("expected a value");
        }
        i += word.length();
        return v;
    }

    private void expect(char c) throws JsonException {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    /** RFC 8259 §2: space, tab, line feed, carriage return. */
    private void space() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            i++;
        }
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    private JsonException error(String what) {
        return new JsonException("at character " + (i + 1) + ": " + what);
    }
}
