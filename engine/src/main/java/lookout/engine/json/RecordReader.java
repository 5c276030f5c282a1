package lookout.engine.json;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inverse of {@link JsonWriter} for records: a JSON object (as {@link JsonReader} reads it)
 * back into a record of its components, by name. A variant of a sealed interface is chosen by the
 * {@code "type"} member JsonWriter puts first. Components may be strings, numbers, booleans,
 * enums (by name), {@code Instant}/{@code Duration} (ISO-8601), lists and string-keyed maps of
 * those, nested records, or {@code Object} (the plain value). A missing member reads as null (or
 * zero/false for a primitive). Anything else is a {@link JsonReader.JsonException}: the event
 * journal skips a line it cannot read rather than guessing.
 */
public final class RecordReader {

    private RecordReader() {
    }

    /** The variant of sealed {@code type} named by {@code object}'s {@code "type"}. */
    public static <T> T variant(Class<T> type, Map<String, Object> object) throws JsonReader.JsonException {
        if (!type.isSealed()) {
            throw new IllegalArgumentException(type.getName() + " is not sealed");
        }
        Object name = object.get("type");
        if (!(name instanceof String n)) {
            throw new JsonReader.JsonException("expected a \"type\" naming a kind of " + type.getSimpleName());
        }
        for (Class<?> c : type.getPermittedSubclasses()) {
            if (c.getSimpleName().equals(n) && c.isRecord()) {
                return type.cast(record(c, object));
            }
        }
        throw new JsonReader.JsonException("unknown " + type.getSimpleName() + " type \"" + n + "\"");
    }

    /** A record of class {@code type} from {@code object}'s members. */
    public static <T> T record(Class<T> type, Map<String, Object> object) throws JsonReader.JsonException {
        RecordComponent[] components = type.getRecordComponents();
        if (components == null) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        Class<?>[] types = new Class<?>[components.length];
        Object[] args = new Object[components.length];
        for (int k = 0; k < components.length; k++) {
            RecordComponent c = components[k];
            types[k] = c.getType();
            try {
                args[k] = convert(c.getGenericType(), object.get(c.getName()));
            } catch (JsonReader.JsonException e) {
                throw new JsonReader.JsonException(c.getName() + ": " + e.getMessage());
            }
        }
        try {
            Constructor<T> ctor = type.getDeclaredConstructor(types);
            ctor.trySetAccessible();
            return ctor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new JsonReader.JsonException(type.getSimpleName() + " refused the values: " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Type type, Object v) throws JsonReader.JsonException {
        Class<?> raw = raw(type);
        if (raw.isPrimitive()) {
            if (v == null) {
                return raw == boolean.class ? Boolean.FALSE : zero(raw);
            }
            return number(raw, v);
        }
        if (v == null) {
            return null;
        }
        if (raw == Object.class) {
            return v;
        }
        if (raw == String.class) {
            return expect(String.class, v);
        }
        if (raw == Boolean.class) {
            return expect(Boolean.class, v);
        }
        if (Number.class.isAssignableFrom(raw)) {
            return number(raw, v);
        }
        if (raw == Instant.class || raw == Duration.class) {
            String text = expect(String.class, v);
            try {
                return raw == Instant.class ? Instant.parse(text) : Duration.parse(text);
            } catch (DateTimeParseException e) {
                throw new JsonReader.JsonException("expected an ISO-8601 " + raw.getSimpleName() + ", found \""
                        + text + "\"");
            }
        }
        if (raw.isEnum()) {
            String text = expect(String.class, v);
            try {
                return Enum.valueOf((Class<? extends Enum>) raw, text);
            } catch (IllegalArgumentException e) {
                throw new JsonReader.JsonException("unknown " + raw.getSimpleName() + " \"" + text + "\"");
            }
        }
        if (raw == List.class) {
            Type item = argument(type, 0);
            List<Object> out = new ArrayList<>();
            for (Object x : expect(List.class, v)) {
                out.add(convert(item, x));
            }
            return out;
        }
        if (raw == Map.class) {
            Type value = argument(type, 1);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) expect(Map.class, v)).entrySet()) {
                out.put((String) e.getKey(), convert(value, e.getValue()));
            }
            return out;
        }
        if (raw.isRecord()) {
            return record(raw, (Map<String, Object>) expect(Map.class, v));
        }
        if (raw.isSealed()) {
            return variant(raw, (Map<String, Object>) expect(Map.class, v));
        }
        throw new IllegalArgumentException("cannot read a " + raw.getName() + " from JSON");
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return Object.class;
    }

    private static Type argument(Type t, int index) {
        if (t instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
            return p.getActualTypeArguments()[index];
        }
        return Object.class;
    }

    private static <X> X expect(Class<X> type, Object v) throws JsonReader.JsonException {
        if (!type.isInstance(v)) {
            throw new JsonReader.JsonException("expected " + word(type) + ", found " + JsonReader.kind(v));
        }
        return type.cast(v);
    }

    private static String word(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class) {
            return "a boolean";
        }
        if (type == List.class) {
            return "an array";
        }
        return "an object";
    }

    private static Object zero(Class<?> raw) throws JsonReader.JsonException {
        return number(raw, 0L);
    }

    private static Object number(Class<?> raw, Object v) throws JsonReader.JsonException {
        if (raw == boolean.class) {
            if (v instanceof Boolean b) {
                return b;
            }
            throw new JsonReader.JsonException("expected a boolean, found " + JsonReader.kind(v));
        }
        if (!(v instanceof Number n)) {
            throw new JsonReader.JsonException("expected a number, found " + JsonReader.kind(v));
        }
        if (raw == long.class || raw == Long.class) {
            return n.longValue();
        }
        if (raw == int.class || raw == Integer.class) {
            return n.intValue();
        }
        if (raw == double.class || raw == Double.class) {
            return n.doubleValue();
        }
        if (raw == float.class || raw == Float.class) {
            return n.floatValue();
        }
        if (raw == short.class || raw == Short.class) {
            return n.shortValue();
        }
        if (raw == byte.class || raw == Byte.class) {
            return n.byteValue();
        }
        throw new IllegalArgumentException("cannot read a " + raw.getName());
    }
}
