package lookout.console.remote;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text ⇄ a plain tree (RFC 8259): objects are {@code Map<String, Object>} in document order,
 * arrays {@code List<Object>}, strings {@code String}, numbers {@link Num} (their text, so that a
 * {@code long} or a {@code double} reads back exactly), {@code true}/{@code false} {@code Boolean},
 * {@code null} null. {@link JsonRecords} maps such a tree onto the engine's records.
 *
 * <p>The parser is strict (no comments, no trailing commas, one value per text) and bounded in
 * depth; a text that is not JSON is a {@link JsonException} saying where. Stateless.
 */
public final class Json {

    /** Deeper than any snapshot (about 8 levels); a guard against hostile input. */
    static final int MAX_DEPTH = 256;

    private Json() {
    }

    /** A JSON number, kept as written. */
    public record Num(String text) {
        public long longValue() {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // 1.0E3 or 12.0: integral in value though not in form
                return new java.math.BigDecimal(text).longValueExact();
            }
        }

        public double doubleValue() {
            return Double.parseDouble(text);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** The text is not JSON (or deeper than {@link #MAX_DEPTH}). */
    public static final class JsonException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public JsonException(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------ parsing

    /** Parses one JSON value (surrounding white space allowed). */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        p.space();
        Object v = p.value(0);
        p.space();
        if (p.i != text.length()) {
            throw p.fail("more after the end of the value");
        }
        return v;
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        JsonException fail(String what) {
            int line = 1;
            int col = 1;
            for (int k = 0; k < Math.min(i, s.length()); k++) {
                if (s.charAt(k) == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
            return new JsonException("not JSON at line " + line + ", column " + col + ": " + what);
        }

        void space() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    i++;
                } else {
                    break;
                }
            }
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw fail("nested deeper than " + MAX_DEPTH + " levels");
            }
            if (i >= s.length()) {
                throw fail("the text ends where a value was expected");
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
                    throw fail("unexpected character '" + printable(c) + "'");
                }
            };
        }

        private static String printable(char c) {
            return c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
        }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) {
                throw fail("expected " + word);
            }
            i += word.length();
            return v;
        }

        Map<String, Object> object(int depth) {
            i++; // {
            Map<String, Object> m = new LinkedHashMap<>();
            space();
            if (i < s.length() && s.charAt(i) == '}') {
                i++;
                return m;
            }
            while (true) {
                space();
                if (i >= s.length() || s.charAt(i) != '"') {
                    throw fail("expected a member name in quotes");
                }
                String key = string();
                space();
                if (i >= s.length() || s.charAt(i) != ':') {
                    throw fail("expected ':' after a member name");
                }
                i++;
                space();
                m.put(key, value(depth + 1));
                space();
                if (i >= s.length()) {
                    throw fail("the text ends inside an object");
                }
                char c = s.charAt(i++);
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    i--;
                    throw fail("expected ',' or '}' in an object");
                }
            }
        }

        List<Object> array(int depth) {
            i++; // [
            List<Object> a = new ArrayList<>();
            space();
            if (i < s.length() && s.charAt(i) == ']') {
                i++;
                return a;
            }
            while (true) {
                space();
                a.add(value(depth + 1));
                space();
                if (i >= s.length()) {
                    throw fail("the text ends inside an array");
                }
                char c = s.charAt(i++);
                if (c == ']') {
                    return a;
                }
                if (c != ',') {
                    i--;
                    throw fail("expected ',' or ']' in an array");
                }
            }
        }

        String string() {
            i++; // opening quote
            StringBuilder b = null;
            int start = i;
            while (true) {
                if (i >= s.length()) {
                    throw fail("the text ends inside a string");
                }
                char c = s.charAt(i);
                if (c == '"') {
                    String out = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
                    i++;
                    return out;
                }
                if (c < 0x20) {
                    throw fail("a control character inside a string must be escaped");
                }
                if (c != '\\') {
                    i++;
                    continue;
                }
                if (b == null) {
                    b = new StringBuilder();
                }
                b.append(s, start, i);
                i++;
                if (i >= s.length()) {
                    throw fail("the text ends inside an escape");
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
                        if (i + 4 > s.length()) {
                            throw fail("a \\u escape needs four hex digits");
                        }
                        int cp = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = Character.digit(s.charAt(i + k), 16);
                            if (d < 0) {
                                throw fail("a \\u escape needs four hex digits");
                            }
                            cp = cp * 16 + d;
                        }
                        i += 4;
                        b.append((char) cp);
                    }
                    default -> {
                        i--;
                        throw fail("unknown escape '\\" + printable(e) + "'");
                    }
                }
                start = i;
            }
        }

        Num number() {
            int start = i;
            if (s.charAt(i) == '-') {
                i++;
            }
            if (i >= s.length()) {
                throw fail("a number needs digits");
            }
            if (s.charAt(i) == '0') {
                i++;
            } else if (!digits()) {
                throw fail("a number needs digits");
            }
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                if (!digits()) {
                    throw fail("a fraction needs digits");
                }
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                    i++;
                }
                if (!digits()) {
                    throw fail("an exponent needs digits");
                }
            }
            return new Num(s.substring(start, i));
        }

        private boolean digits() {
            int start = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            return i > start;
        }
    }

    // ------------------------------------------------------------------ writing

    /**
     * Compact JSON of a plain tree: maps (keys through {@code String.valueOf}), collections,
     * strings, numbers, booleans, null; enums and anything else as their string form. Request
     * bodies only: the engine's records are written by the engine.
     */
    public static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v, 0);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("nested deeper than " + MAX_DEPTH + " levels");
        }
        if (v == null) {
            b.append("null");
        } else if (v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Num n) {
            b.append(n.text());
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            b.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (v instanceof Number) {
            b.append(v);
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                quote(b, String.valueOf(e.getKey()));
                b.append(':');
                write(b, e.getValue(), depth + 1);
            }
            b.append('}');
        } else if (v instanceof Collection<?> c) {
            b.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                write(b, o, depth + 1);
            }
            b.append(']');
        } else {
            quote(b, v instanceof Enum<?> e ? e.name() : v.toString());
        }
    }

    /** A JSON string literal of {@code s}. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        quote(b, s);
        return b.toString();
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    // ------------------------------------------------------------------ reading a tree

    /** The object member {@code name} of {@code tree} when it is an object, else null. */
    public static Object member(Object tree, String name) {
        return tree instanceof Map<?, ?> m ? m.get(name) : null;
    }

    /** A string member, or null when absent or not a string. */
    public static String string(Object tree, String name) {
        return member(tree, name) instanceof String s ? s : null;
    }

    /** A number member as a long, or {@code fallback}. */
    public static long number(Object tree, String name, long fallback) {
        if (member(tree, name) instanceof Num n) {
            try {
                return n.longValue();
            } catch (ArithmeticException | NumberFormatException e) {
                return fallback;
            }
        }
        return fallback;
    }

    /** A boolean member, or {@code fallback}. */
    public static boolean bool(Object tree, String name, boolean fallback) {
        return member(tree, name) instanceof Boolean b ? b : fallback;
    }

    /** An array member's string elements (other elements as their JSON), or an empty list. */
    public static List<String> strings(Object tree, String name) {
        if (!(member(tree, name) instanceof List<?> l)) {
            return List.of();
        }
        List<String> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add(o instanceof String s ? s : write(o));
        }
        return out;
    }
}
