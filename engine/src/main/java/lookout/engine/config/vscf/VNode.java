package lookout.engine.config.vscf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A value of gdnsd's configuration language (vscf): a scalar string, an array or an ordered hash.
 * Every node keeps the position where it starts so that any error can name FILE:LINE:COLUMN.
 */
public sealed interface VNode permits VNode.Scalar, VNode.Array, VNode.Hash {

    Position pos();

    /** A human word for the kind of value, for "expected X, found Y" messages. */
    String kind();

    /**
     * True when {@code a} and {@code b} hold the same value: same kinds, same strings, same items
     * and entries in the same order. Positions and quoting are ignored ({@code "x"} is {@code x}).
     */
    static boolean sameValue(VNode a, VNode b) {
        if (a instanceof Scalar x && b instanceof Scalar y) {
            return x.value().equals(y.value());
        }
        if (a instanceof Array x && b instanceof Array y) {
            if (x.items().size() != y.items().size()) {
                return false;
            }
            for (int i = 0; i < x.items().size(); i++) {
                if (!sameValue(x.items().get(i), y.items().get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Hash x && b instanceof Hash y) {
            if (x.entries().size() != y.entries().size()) {
                return false;
            }
            for (int i = 0; i < x.entries().size(); i++) {
                Entry ex = x.entries().get(i);
                Entry ey = y.entries().get(i);
                if (!ex.key().equals(ey.key()) || !sameValue(ex.value(), ey.value())) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** A scalar: bare or quoted string, escapes already resolved. */
    record Scalar(String value, boolean quoted, Position pos) implements VNode {
        public String kind() {
            return "a string";
        }
    }

    /** {@code [ a, b, c ]}. */
    record Array(List<VNode> items, Position pos) implements VNode {
        public Array {
            items = List.copyOf(items);
        }

        public String kind() {
            return "a list";
        }
    }

    /** One {@code key => value} of a hash, with the key's own position. */
    record Entry(String key, Position keyPos, VNode value) {
    }

    /** {@code { k => v, ... }}, keys unique, in file order. */
    record Hash(List<Entry> entries, Position pos) implements VNode {
        public Hash {
            entries = List.copyOf(entries);
        }

        public String kind() {
            return "a hash";
        }

        /** The entry for {@code key}, or null. */
        public Entry entry(String key) {
            for (Entry e : entries) {
                if (e.key().equals(key)) {
                    return e;
                }
            }
            return null;
        }

        /** The value for {@code key}, or null. */
        public VNode get(String key) {
            Entry e = entry(key);
            return e == null ? null : e.value();
        }

        public List<String> keys() {
            List<String> keys = new ArrayList<>(entries.size());
            for (Entry e : entries) {
                keys.add(e.key());
            }
            return Collections.unmodifiableList(keys);
        }

        public Map<String, VNode> asMap() {
            Map<String, VNode> m = new LinkedHashMap<>();
            for (Entry e : entries) {
                m.put(e.key(), e.value());
            }
            return Collections.unmodifiableMap(m);
        }
    }
}
