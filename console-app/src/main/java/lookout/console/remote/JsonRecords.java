package lookout.console.remote;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import lookout.console.remote.Json.Num;

/**
 * Reads the engine's snapshot JSON ({@code lookout.engine.status.JsonWriter}'s mapping) back into
 * the engine's records: a record from an object, through its canonical constructor, each component
 * converted to its declared (generic) type; lists, sets and maps element by element; enums by
 * name; {@link Instant} and {@link Duration} from ISO-8601; a sealed interface's variant chosen by
 * the object's {@code "type"} member (the record's simple name).
 *
 * <p>Versions drift: an engine newer than this console may send members a record here does not
 * have (ignored) or a variant it does not know ({@link UnknownVariant}); an older one may leave a
 * member out (null, or 0/false, or an empty list or map: the engine's records copy their lists and
 * would refuse a null). A JSON {@code null} for a {@code double} is NaN: the writer writes NaN and
 * the infinities as null.
 *
 * <p>Thread-safe; constructor lookups are cached.
 */
public final class JsonRecords {

    private static final Map<Class<?>, Shape> SHAPES = new ConcurrentHashMap<>();

    private record Shape(RecordComponent[] components, Constructor<?> constructor) {
    }

    private final Fallback fallback;

    private JsonRecords(Fallback fallback) {
        this.fallback = fallback;
    }

    /** The tree does not fit the type: says where (a JSON-pointer-like path) and why. */
    public static final class ShapeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ShapeException(String message) {
            super(message);
        }
    }

    /** A variant of a sealed type this console does not know (an engine newer than it). */
    public static final class UnknownVariant extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String type;
        private final transient Object tree;

        UnknownVariant(String type, Object tree, String where) {
            super(where + ": unknown type '" + type + "'");
            this.type = type;
            this.tree = tree;
        }

        public String type() {
            return type;
        }

        public Object tree() {
            return tree;
        }
    }

    /**
     * What to make of a variant this console does not know: a value of the sealed type, or throw
     * (the default rethrows the {@link UnknownVariant}).
     */
    @FunctionalInterface
    public interface Fallback {
        Object unknown(Class<?> sealed, UnknownVariant variant);

        Fallback STRICT = (sealed, v) -> {
            throw v;
        };
    }

    /** Parses {@code json} and reads it as {@code type}. */
    public static <T> T read(String json, Class<T> type) {
        return read(Json.parse(json), type, Fallback.STRICT);
    }

    /** Parses {@code json} and reads it as {@code type}, unknown variants through {@code fallback}. */
    public static <T> T read(String json, Class<T> type, Fallback fallback) {
        return read(Json.parse(json), type, fallback);
    }

    /** Reads a parsed tree as {@code type}. */
    public static <T> T read(Object tree, Class<T> type) {
        return read(tree, type, Fallback.STRICT);
    }

    public static <T> T read(Object tree, Class<T> type, Fallback fallback) {
        return type.cast(new JsonRecords(fallback).convert(tree, type, ""));
    }

    /** Reads a parsed tree as a generic type ({@code List<PoolResource>}, say). */
    public static Object read(Object tree, Type type, Fallback fallback) {
        return new JsonRecords(fallback).convert(tree, type, "");
    }


    private Object convert(Object v, Type type, String at) {
        if (type instanceof ParameterizedType p) {
            return parameterized(v, p, at);
        }
        if (type instanceof WildcardType w) {
            return convert(v, w.getUpperBounds()[0], at);
        }
        if (!(type instanceof Class<?> c)) {
            throw new ShapeException(where(at) + ": cannot read a " + type.getTypeName());
        }
        if (c.isPrimitive()) {
            return primitive(v, c, at);
        }
        if (v == null) {
            return absent(c);
        }
        if (c == String.class) {
            return v instanceof String s ? s : fail(at, "a string", v);
        }
        if (c == Boolean.class) {
            return v instanceof Boolean b ? b : fail(at, "true or false", v);
        }
        if (Number.class.isAssignableFrom(c)) {
            return boxed(v, c, at);
        }
        if (c.isEnum()) {
            return enumConstant(v, c, at);
        }
        if (c == Instant.class) {
            try {
                return Instant.parse(text(v, at));
            } catch (DateTimeParseException e) {
                throw new ShapeException(where(at) + ": not an ISO-8601 instant: " + v);
            }
        }
        if (c == Duration.class) {
            try {
                return Duration.parse(text(v, at));
            } catch (DateTimeParseException e) {
                throw new ShapeException(where(at) + ": not an ISO-8601 duration: " + v);
            }
        }
        if (c == Path.class) {
            return Path.of(text(v, at));
        }
        if (c.isRecord()) {
            return record(v, c, at);
        }
        if (c.isSealed()) {
            return variant(v, c, at);
        }
        if (c == Object.class) {
            return v;
        }
        if (List.class.isAssignableFrom(c) || Collection.class.isAssignableFrom(c)) {
            return collection(v, c, Object.class, at);
        }
        if (Map.class.isAssignableFrom(c)) {
            return map(v, Object.class, at);
        }
        throw new ShapeException(where(at) + ": cannot read a " + c.getName());
    }

    /** A member the JSON left out or set to null. */
    private static Object absent(Class<?> c) {
        if (List.class == c || Collection.class == c) {
            return List.of();
        }
        if (Set.class == c) {
            return Set.of();
        }
        if (Map.class == c) {
            return Map.of();
        }
        return null;
    }

    private Object parameterized(Object v, ParameterizedType p, String at) {
        Class<?> raw = (Class<?>) p.getRawType();
        Type[] args = p.getActualTypeArguments();
        if (v == null) {
            return absent(raw);
        }
        if (Map.class.isAssignableFrom(raw)) {
            return map(v, args[1], at);
        }
        if (Collection.class.isAssignableFrom(raw)) {
            return collection(v, raw, args[0], at);
        }
        return convert(v, raw, at);
    }

    private Object collection(Object v, Class<?> raw, Type element, String at) {
        if (!(v instanceof List<?> l)) {
            return fail(at, "an array", v);
        }
        List<Object> out = new ArrayList<>(l.size());
        for (int i = 0; i < l.size(); i++) {
            Object e = convert(l.get(i), element, at + "/" + i);
            if (e == null) {
                // List.copyOf in the records refuses null elements; the writer never writes them
                throw new ShapeException(where(at + "/" + i) + ": null in a list");
            }
            out.add(e);
        }
        if (Set.class.isAssignableFrom(raw)) {
            return java.util.Collections.unmodifiableSet(new LinkedHashSet<>(out));
        }
        return java.util.Collections.unmodifiableList(out);
    }

    private Object map(Object v, Type value, String at) {
        if (!(v instanceof Map<?, ?> m)) {
            return fail(at, "an object", v);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = (String) e.getKey();
            Object x = convert(e.getValue(), value, at + "/" + key);
            if (x == null) {
                throw new ShapeException(where(at + "/" + key) + ": null in a map");
            }
            out.put(key, x);
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private Object record(Object v, Class<?> c, String at) {
        if (!(v instanceof Map<?, ?> m)) {
            return fail(at, "an object for " + c.getSimpleName(), v);
        }
        Shape shape = shape(c);
        RecordComponent[] rc = shape.components();
        Object[] args = new Object[rc.length];
        for (int i = 0; i < rc.length; i++) {
            String name = rc[i].getName();
            args[i] = convert(m.get(name), rc[i].getGenericType(), at + "/" + name);
        }
        try {
            return shape.constructor().newInstance(args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ShapeException(where(at) + ": " + c.getSimpleName() + " refused these values: " + cause.getMessage());
        } catch (InstantiationException | IllegalAccessException e) {
            throw new ShapeException(where(at) + ": cannot build a " + c.getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Shape shape(Class<?> c) {
        return SHAPES.computeIfAbsent(c, k -> {
            RecordComponent[] rc = k.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
            }
            try {
                return new Shape(rc, k.getDeclaredConstructor(types));
            } catch (NoSuchMethodException e) {
                throw new ShapeException(k.getName() + " has no canonical constructor");
            }
        });
    }

    private Object variant(Object v, Class<?> sealed, String at) {
        if (!(v instanceof Map<?, ?> m)) {
            return fail(at, "an object for " + sealed.getSimpleName(), v);
        }
        Object type = m.get("type");
        if (!(type instanceof String t)) {
            throw new ShapeException(where(at) + ": a " + sealed.getSimpleName() + " needs a \"type\"");
        }
        for (Class<?> sub : sealed.getPermittedSubclasses()) {
            if (sub.getSimpleName().equals(t)) {
                return convert(v, sub, at);
            }
        }
        Object fb = fallback.unknown(sealed, new UnknownVariant(t, v, where(at)));
        if (!sealed.isInstance(fb)) {
            throw new ShapeException(where(at) + ": no " + sealed.getSimpleName() + " for type '" + t + "'");
        }
        return fb;
    }

    private static Object enumConstant(Object v, Class<?> c, String at) {
        String name = text(v, at);
        for (Object constant : c.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new ShapeException(where(at) + ": '" + name + "' is not one of " + java.util.Arrays.toString(c.getEnumConstants()));
    }

    private static String text(Object v, String at) {
        if (v instanceof String s) {
            return s;
        }
        fail(at, "a string", v);
        return null;
    }

    private static Object primitive(Object v, Class<?> c, String at) {
        if (c == boolean.class) {
            if (v == null) {
                return false;
            }
            return v instanceof Boolean b ? b : fail(at, "true or false", v);
        }
        if (v == null) {
            if (c == double.class) {
                return Double.NaN;
            }
            if (c == float.class) {
                return Float.NaN;
            }
            return boxed(new Num("0"), box(c), at);
        }
        return boxed(v, box(c), at);
    }

    private static Class<?> box(Class<?> p) {
        if (p == int.class) {
            return Integer.class;
        }
        if (p == long.class) {
            return Long.class;
        }
        if (p == double.class) {
            return Double.class;
        }
        if (p == float.class) {
            return Float.class;
        }
        if (p == short.class) {
            return Short.class;
        }
        if (p == byte.class) {
            return Byte.class;
        }
        if (p == char.class) {
            return Character.class;
        }
        throw new ShapeException("no box for " + p);
    }

    private static Object boxed(Object v, Class<?> c, String at) {
        if (c == Character.class) {
            String s = text(v, at);
            if (s.length() != 1) {
                throw new ShapeException(where(at) + ": expected one character, found \"" + s + "\"");
            }
            return s.charAt(0);
        }
        if (!(v instanceof Num n)) {
            return fail(at, "a number", v);
        }
        try {
            if (c == Double.class || c == Number.class) {
                return n.doubleValue();
            }
            if (c == Float.class) {
                return (float) n.doubleValue();
            }
            long l = n.longValue();
            if (c == Long.class) {
                return l;
            }
            if (c == Integer.class) {
                return Math.toIntExact(l);
            }
            if (c == Short.class && l == (short) l) {
                return (short) l;
            }
            if (c == Byte.class && l == (byte) l) {
                return (byte) l;
            }
            if (c == java.math.BigDecimal.class) {
                return new java.math.BigDecimal(n.text());
            }
            if (c == java.math.BigInteger.class) {
                return new java.math.BigDecimal(n.text()).toBigIntegerExact();
            }
        } catch (ArithmeticException | NumberFormatException e) {
            throw new ShapeException(where(at) + ": " + n.text() + " does not fit a " + c.getSimpleName());
        }
        throw new ShapeException(where(at) + ": " + n.text() + " does not fit a " + c.getSimpleName());
    }

    private static Object fail(String at, String expected, Object found) {
        String what = found instanceof Map ? "an object" : found instanceof List ? "an array"
                : found instanceof String s ? "\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\""
                : String.valueOf(found);
        throw new ShapeException(where(at) + ": expected " + expected + ", found " + what);
    }

    private static String where(String at) {
        return at.isEmpty() ? "the document" : at;
    }
}
