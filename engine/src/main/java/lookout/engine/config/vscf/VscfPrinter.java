package lookout.engine.config.vscf;

/**
 * Prints a {@link VNode} tree back as vscf text that {@link VscfParser} reads as the same tree.
 * Scalars stay bare when they can be read back bare (and were bare), else they are quoted with
 * {@code \"}, {@code \\} and {@code \NNN} escapes for control characters.
 */
public final class VscfPrinter {

    private static final String INDENT = "  ";

    private VscfPrinter() {
    }

    /** A whole configuration: the top-level hash without braces, one entry per line. */
    public static String print(VNode.Hash root) {
        StringBuilder sb = new StringBuilder();
        for (VNode.Entry e : root.entries()) {
            entry(sb, e, 0);
        }
        return sb.toString();
    }

    /** One value on one line (for diffs and messages). */
    public static String inline(VNode node) {
        StringBuilder sb = new StringBuilder();
        inline(sb, node);
        return sb.toString();
    }

    /** A string as vscf text: bare when that reads back the same, else quoted. */
    public static String string(String value, boolean preferQuoted) {
        return !preferQuoted && isBareSafe(value) ? value : quote(value);
    }

    /** True when {@code value} can be written without quotes and read back unchanged. */
    public static boolean isBareSafe(String value) {
        if (value.isEmpty() || value.charAt(0) == '$') {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= 0x20 || c == 0x7f || !VscfParser.isBareChar(c) || Character.isWhitespace(c)) {
                return false;
            }
        }
        return true;
    }

    public static String quote(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                sb.append('\\').append(String.format("%03d", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static void entry(StringBuilder sb, VNode.Entry e, int depth) {
        sb.append(INDENT.repeat(depth)).append(string(e.key(), false)).append(" => ");
        value(sb, e.value(), depth);
        sb.append('\n');
    }

    private static void value(StringBuilder sb, VNode v, int depth) {
        if (v instanceof VNode.Scalar s) {
            sb.append(string(s.value(), s.quoted()));
        } else if (v instanceof VNode.Array a) {
            {
                if (a.items().stream().allMatch(i -> i instanceof VNode.Scalar)) {
                    inline(sb, a);
                } else {
                    sb.append("[\n");
                    for (VNode item : a.items()) {
                        sb.append(INDENT.repeat(depth + 1));
                        value(sb, item, depth + 1);
                        sb.append(",\n");
                    }
                    sb.append(INDENT.repeat(depth)).append(']');
                }
            }
        } else if (v instanceof VNode.Hash h) {
            {
                if (h.entries().isEmpty()) {
                    sb.append("{ }");
                } else {
                    sb.append("{\n");
                    for (VNode.Entry e : h.entries()) {
                        entry(sb, e, depth + 1);
                    }
                    sb.append(INDENT.repeat(depth)).append('}');
                }
            }
        }
    }

    private static void inline(StringBuilder sb, VNode v) {
        if (v instanceof VNode.Scalar s) {
            sb.append(string(s.value(), s.quoted()));
        } else if (v instanceof VNode.Array a) {
            {
                if (a.items().isEmpty()) {
                    sb.append("[ ]");
                    return;
                }
                sb.append("[ ");
                for (int i = 0; i < a.items().size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    inline(sb, a.items().get(i));
                }
                sb.append(" ]");
            }
        } else if (v instanceof VNode.Hash h) {
            {
                if (h.entries().isEmpty()) {
                    sb.append("{ }");
                    return;
                }
                sb.append("{ ");
                for (int i = 0; i < h.entries().size(); i++) {
                    if (i > 0) {
                        sb.append(", ");
                    }
                    VNode.Entry e = h.entries().get(i);
                    sb.append(string(e.key(), false)).append(" => ");
                    inline(sb, e.value());
                }
                sb.append(" }");
            }
        }
    }
}
