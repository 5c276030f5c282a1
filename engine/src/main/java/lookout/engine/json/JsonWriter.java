package lookout.engine.json;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes the snapshot tree as JSON, generically: a record becomes an object of its components in
 * declaration order, so a new snapshot section appears on {@code /status} without touching this
 * class.
 *
 * <p>Mapping: records → objects (a record implementing a sealed interface, such as an
 * {@code EngineEvent}, also gets {@code "type": "<SimpleName>"} first, so consumers can tell the
 * variants apart); maps → objects (keys through {@code String.valueOf}); collections and arrays →
 * arrays; enums → their name; numbers → JSON numbers (NaN and infinities, which JSON cannot carry,
 * → null); {@code Instant} and {@code Duration} → ISO-8601 strings; paths, addresses and anything
 * else → strings; null → null.
 *
 * <p>Used by the status endpoint ({@code /status}), the control API's replies, the event journal
 * and the audit log; {@link JsonReader} reads what it writes.
 *
 * <p>JPMS: the snapshot records live in this module, so the accessors are always accessible to it
 * ({@code trySetAccessible} succeeds inside a module even for non-public record classes).
 * Stateless and thread-safe; the accessor cache is concurrent.
 */
public final class JsonWriter {

    /** Deeper than any snapshot; a guard against a self-referencing value, never hit by design. */
    private static final int MAX_DEPTH = 64;

    private static final Map<Class<?>, Accessor[]> ACCESSORS = new ConcurrentHashMap<>();

    private record Accessor(String name, Method method) {
    }

    private final boolean pretty;

    private JsonWriter(boolean pretty) {
        this.pretty = pretty;
    }

    /** Compact JSON of {@code value}. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(4096);
        new JsonWriter(false).value(out, value, 0);
        return out.toString();
    }

    /** Indented JSON of {@code value} (two spaces), for humans ({@code /status?pretty}). */
    public static String writePretty(Object value) {
        StringBuilder out = new StringBuilder(8192);
        new JsonWriter(true).value(out, value, 0);
        out.append('\n');
        return out.toString();
    }

    private void value(StringBuilder out, Object v, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH + " levels");
        }
        if (v == null) {
            out.append("null");
        } else if (v instanceof CharSequence s) {
            string(out, s.toString());
        } else if (v instanceof Boolean b) {
            out.append(b.booleanValue());
        } else if (v instanceof Number n) {
            number(out, n);
        } else if (v instanceof Enum<?> e) {
            string(out, e.name());
        } else if (v instanceof Instant || v instanceof Duration) {
            string(out, v.toString());
        } else if (v instanceof Record r) {
            record(out, r, depth);
        } else if (v instanceof Map<?, ?> m) {
            map(out, m, depth);
        } else if (v instanceof Collection<?> c) {
            beginArray(out);
            boolean first = true;
            for (Object item : c) {
                first = element(out, first, depth);
                value(out, item, depth + 1);
            }
            endArray(out, first, depth);
        } else if (v.getClass().isArray()) {
            beginArray(out);
            boolean first = true;
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                first = element(out, first, depth);
                value(out, Array.get(v, i), depth + 1);
            }
            endArray(out, first, depth);
        } else if (v instanceof Optional<?> o) {
            value(out, o.orElse(null), depth);
        } else if (v instanceof Character c) {
            string(out, c.toString());
        } else if (v instanceof InetSocketAddress a) {
            string(out, address(a));
        } else if (v instanceof InetAddress a) {
            string(out, a.getHostAddress());
        } else if (v instanceof Path p) {
            string(out, p.toString());
        } else {
            string(out, v.toString());
        }
    }

    private void record(StringBuilder out, Record r, int depth) {
        out.append('{');
        boolean first = true;
        if (variantOfSealedType(r.getClass())) {
            first = field(out, first, "type", depth);
            string(out, r.getClass().getSimpleName());
        }
        for (Accessor a : accessors(r.getClass())) {
            Object component;
            try {
                component = a.method().invoke(r);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + r.getClass().getName() + "." + a.name(), e);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException(r.getClass().getName() + "." + a.name() + " failed", e.getCause());
            }
            first = field(out, first, a.name(), depth);
            value(out, component, depth + 1);
        }
        close(out, '}', first, depth);
    }

    private void map(StringBuilder out, Map<?, ?> m, int depth) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            first = field(out, first, String.valueOf(e.getKey()), depth);
            value(out, e.getValue(), depth + 1);
        }
        close(out, '}', first, depth);
    }

    private static boolean variantOfSealedType(Class<?> c) {
        for (Class<?> i : c.getInterfaces()) {
            if (i.isSealed()) {
                return true;
            }
        }
        return false;
    }

    private static Accessor[] accessors(Class<?> c) {
        return ACCESSORS.computeIfAbsent(c, k -> {
            RecordComponent[] components = k.getRecordComponents();
            Accessor[] result = new Accessor[components.length];
            for (int i = 0; i < components.length; i++) {
                Method m = components[i].getAccessor();
                // Same module: always allowed; needed for records that are not public.
                m.trySetAccessible();
                result[i] = new Accessor(components[i].getName(), m);
            }
            return result;
        });
    }

    // ------------------------------------------------------------------ layout

    private boolean field(StringBuilder out, boolean first, String name, int depth) {
        if (!first) {
            out.append(',');
        }
        newline(out, depth + 1);
        string(out, name);
        out.append(pretty ? ": " : ":");
        return false;
    }

    private void beginArray(StringBuilder out) {
        out.append('[');
    }

    private boolean element(StringBuilder out, boolean first, int depth) {
        if (!first) {
            out.append(',');
        }
        newline(out, depth + 1);
        return false;
    }

    private void endArray(StringBuilder out, boolean empty, int depth) {
        close(out, ']', empty, depth);
    }

    private void close(StringBuilder out, char bracket, boolean empty, int depth) {
        if (!empty) {
            newline(out, depth);
        }
        out.append(bracket);
    }

    private void newline(StringBuilder out, int depth) {
        if (pretty) {
            out.append('\n');
            out.append("  ".repeat(depth));
        }
    }

    // ------------------------------------------------------------------ scalars

    private static void number(StringBuilder out, Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                out.append("null");
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                out.append((long) d);
            } else {
                out.append(d);
            }
        } else {
            // Integer, Long, Short, Byte, BigInteger, BigDecimal, atomic and adder types: their
            // toString is already a valid JSON number.
            out.append(n);
        }
    }

    /** RFC 8259 §7: quote, backslash and control characters escaped; the rest as is (UTF-8 body). */
    public static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    // U+2028/2029 are valid JSON but break JavaScript consumers; escape them too.
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static String address(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + a.getPort() : host + ":" + a.getPort();
    }
}
