package lookout.engine.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import lookout.engine.config.vscf.VNode;

/**
 * Small typed readers over {@link VNode}s for the section binders. Each reports what it expected
 * at the value's position, under the value's key path, and returns null so the binder can keep
 * going and list every error of a file in one run.
 */
final class Bind {

    private Bind() {
    }

    static String path(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    /** How a value is shown after "found": a string in quotes, else its kind. */
    static String found(VNode v) {
        return v instanceof VNode.Scalar s ? "'" + s.value() + "'" : v.kind();
    }

    static void expected(ConfigProblems p, VNode v, String path, String what) {
        p.add(v, path, path + ": expected " + what + ", found " + found(v));
    }

    static VNode.Hash hash(VNode v, String path, ConfigProblems p) {
        if (v instanceof VNode.Hash h) {
            return h;
        }
        expected(p, v, path, "a hash { key => value, ... }");
        return null;
    }

    static VNode.Scalar scalar(VNode v, String path, String what, ConfigProblems p) {
        if (v instanceof VNode.Scalar s) {
            return s;
        }
        expected(p, v, path, what);
        return null;
    }

    /** A list of strings; a single string is a list of one (as gdnsd accepts for service_types). */
    static List<VNode.Scalar> scalars(VNode v, String path, String what, ConfigProblems p) {
        List<VNode.Scalar> out = new ArrayList<>();
        if (v instanceof VNode.Scalar s) {
            out.add(s);
        } else if (v instanceof VNode.Array a) {
            for (int i = 0; i < a.items().size(); i++) {
                VNode item = a.items().get(i);
                if (item instanceof VNode.Scalar s) {
                    out.add(s);
                } else {
                    expected(p, item, path + "[" + i + "]", what);
                }
            }
        } else {
            expected(p, v, path, "a list of " + what);
        }
        return out;
    }

    /** gdnsd's vscf_simple_get_as_bool: {@code true} or {@code false}, any case. */
    static Boolean bool(VNode v, String path, ConfigProblems p) {
        if (v instanceof VNode.Scalar s) {
            String x = s.value().toLowerCase(Locale.ROOT);
            if (x.equals("true")) {
                return Boolean.TRUE;
            }
            if (x.equals("false")) {
                return Boolean.FALSE;
            }
        }
        expected(p, v, path, "true or false");
        return null;
    }

    static Integer integer(VNode v, String path, long min, long max, ConfigProblems p) {
        String what = "an integer from " + min + " to " + max;
        if (v instanceof VNode.Scalar s) {
            try {
                long x = Long.parseLong(s.value());
                if (x >= min && x <= max) {
                    return (int) x;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        expected(p, v, path, what);
        return null;
    }

    /** Reports each key of {@code h} not in {@code known}, with a did-you-mean. */
    static void knownKeys(VNode.Hash h, String path, Collection<String> known, ConfigProblems p) {
        for (VNode.Entry e : h.entries()) {
            if (!known.contains(e.key())) {
                p.unknownKey(e, path, known);
            }
        }
    }
}
