package lookout.console.remote;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random values of the engine's record types, by reflection over their components: strings with
 * quotes, escapes, control characters, U+2028 and astral characters; numbers at their extremes;
 * instants and durations from the smallest to the largest; every variant of a sealed type; nulls
 * where a component may be null. What the snapshot JSON must carry, in any combination.
 */
final class RandomRecords {

    private static final String[] PIECES = {"", "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f",
        "\u0000", "\u001f", "\u007f", "\u2028", "\u2029", "é", "日本", "\ud83d\udef0", "weighted!demo", "127.0.0.1:53",
        "{", "}", "[", "]", ":", ",", "null", "true", "1e5", "-0"};

    private final Random r;

    RandomRecords(long seed) {
        this.r = new Random(seed);
    }

    Object of(Type t) {
        return value(t, 0, false);
    }

    private Object value(Type t, int depth, boolean nullable) {
        if (t instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type[] args = p.getActualTypeArguments();
            int n = depth > 5 ? 0 : r.nextInt(4);
            if (Map.class.isAssignableFrom(raw)) {
                Map<String, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    m.put(string(), value(args[1], depth + 1, false));
                }
                return m;
            }
            List<Object> l = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                l.add(value(args[0], depth + 1, false));
            }
            return l;
        }
        Class<?> c = (Class<?>) t;
        if (c == int.class || c == Integer.class) {
            return pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, r.nextInt());
        }
        if (c == long.class || c == Long.class) {
            return pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, r.nextLong(), (long) r.nextInt(1000));
        }
        if (c == double.class || c == Double.class) {
            return doubleValue();
        }
        if (c == boolean.class) {
            return r.nextBoolean();
        }
        if (nullable && r.nextInt(8) == 0) {
            return null;
        }
        if (c == String.class) {
            return string();
        }
        if (c == Instant.class) {
            return pick(Instant.MIN, Instant.MAX, Instant.EPOCH, Instant.parse("2026-01-01T00:00:00Z"),
                    Instant.ofEpochSecond(r.nextLong() % 100_000_000_000L, r.nextInt(1_000_000_000)),
                    Instant.ofEpochMilli(r.nextLong() % 4_000_000_000_000L));
        }
        if (c == Duration.class) {
            return pick(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofSeconds(Long.MIN_VALUE),
                    Duration.ofNanos(r.nextLong()), Duration.ofMillis(r.nextInt(100_000)), Duration.ofNanos(-1));
        }
        if (c.isEnum()) {
            Object[] k = c.getEnumConstants();
            return k[r.nextInt(k.length)];
        }
        if (c.isSealed()) {
            Class<?>[] subs = c.getPermittedSubclasses();
            return value(subs[r.nextInt(subs.length)], depth, false);
        }
        if (c.isRecord()) {
            if (depth > 7) {
                return null;
            }
            RecordComponent[] rc = c.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            Object[] args = new Object[rc.length];
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
                args[i] = value(rc[i].getGenericType(), depth + 1, true);
            }
            try {
                Constructor<?> k = c.getDeclaredConstructor(types);
                return k.newInstance(args);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(c + ": " + e, e);
            }
        }
        throw new IllegalArgumentException("no random " + c);
    }

    /** Finite, and never -0.0: JSON numbers carry neither NaN, the infinities nor the sign of zero. */
    private double doubleValue() {
        double d = (double) pick(0.0, 1.0, 0.1, -1.5, 1e15, 1e15 + 1, 123456789012345678.0, Double.MAX_VALUE,
                -Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL, 1 / 3.0, 0.25,
                r.nextDouble(), r.nextGaussian() * 1e6, Double.longBitsToDouble(r.nextLong()));
        if (!Double.isFinite(d) || (d == 0 && 1 / d < 0)) {
            return 0.5;
        }
        return d;
    }

    String string() {
        int n = r.nextInt(6);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (r.nextInt(4) == 0) {
                b.appendCodePoint(codePoint());
            } else {
                b.append(PIECES[r.nextInt(PIECES.length)]);
            }
        }
        return b.toString();
    }

    /** Any code point but a lone surrogate (a string of the engine is valid UTF-16). */
    private int codePoint() {
        while (true) {
            int cp = r.nextInt(4) == 0 ? r.nextInt(0x110000) : r.nextInt(0x800);
            if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
                return cp;
            }
        }
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[r.nextInt(options.length)];
    }
}
