package lookout.console.configedit;

import java.util.List;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;

/**
 * Edits one value of a configuration text in place, keeping every other byte (comments, layout):
 * the console's toolbars (e.g. "point Lookout at a subnet") propose a new text this way and hand it
 * to the Configuration pane, which takes it through validate → diff → apply like any edit.
 */
public final class ConfigEdits {

    private ConfigEdits() {
    }

    /**
     * Sets {@code path} (dot separated, e.g. {@code pva.addr_list}) to {@code valueText} (vscf
     * syntax, e.g. {@code [ 10.0.0.255 ]}). A missing key is added at the end of its hash; a
     * missing section is appended at the end of the text.
     *
     * @throws IllegalArgumentException when the text does not parse or a parent is not a hash
     */
    public static String set(String text, String path, String valueText) {
        VNode.Hash root;
        try {
            root = VscfParser.parse(text, "edit");
        } catch (VscfSyntaxException e) {
            throw new IllegalArgumentException("the configuration does not parse: " + e.getMessage(), e);
        }
        String[] keys = path.split("\\.");
        VNode.Hash parent = root;
        for (int i = 0; i < keys.length; i++) {
            VNode.Entry entry = parent.entry(keys[i]);
            boolean last = i == keys.length - 1;
            if (entry == null) {
                String rest = nested(List.of(keys).subList(i + 1, keys.length), valueText);
                String line = keys[i] + " => " + rest;
                if (parent == root) {
                    return text + (text.endsWith("\n") || text.isEmpty() ? "" : "\n") + line + "\n";
                }
                int close = endOf(text, index(text, parent.pos())) - 1; // the closing brace
                int lineStart = text.lastIndexOf('\n', close - 1) + 1;
                String indent = indentOf(text, index(text, parent.entries().isEmpty()
                        ? parent.pos() : parent.entries().get(0).keyPos()), parent.entries().isEmpty());
                boolean braceAlone = text.substring(lineStart, close).isBlank();
                String insertion = braceAlone ? indent + line + "\n" : " " + line + " ";
                int at = braceAlone ? lineStart : close;
                return text.substring(0, at) + insertion + text.substring(at);
            }
            if (last) {
                int start = index(text, entry.value().pos());
                int end = endOf(text, start);
                return text.substring(0, start) + valueText + text.substring(end);
            }
            if (!(entry.value() instanceof VNode.Hash h)) {
                throw new IllegalArgumentException(String.join(".", List.of(keys).subList(0, i + 1)) + " is not a hash");
            }
            parent = h;
        }
        throw new IllegalArgumentException("empty path");
    }

    private static String nested(List<String> keys, String valueText) {
        String v = valueText;
        for (int i = keys.size() - 1; i >= 0; i--) {
            v = "{ " + keys.get(i) + " => " + v + " }";
        }
        return v;
    }

    private static String indentOf(String text, int at, boolean deeper) {
        int lineStart = text.lastIndexOf('\n', at - 1) + 1;
        int i = lineStart;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return text.substring(lineStart, i) + (deeper ? "  " : "");
    }

    /** Character index of a 1-based line:column. */
    static int index(String text, Position p) {
        int idx = 0;
        for (int l = 1; l < p.line(); l++) {
            idx = text.indexOf('\n', idx) + 1;
        }
        return idx + p.column() - 1;
    }

    /** Index just past the value starting at {@code start}: a bracketed list or hash, a quoted or bare string. */
    static int endOf(String text, int start) {
        char c = text.charAt(start);
        if (c == '[' || c == '{') {
            int depth = 0;
            for (int i = start; i < text.length(); i++) {
                char d = text.charAt(i);
                if (d == '"') {
                    i = endOfQuoted(text, i) - 1;
                } else if (d == '#') {
                    int nl = text.indexOf('\n', i);
                    i = nl < 0 ? text.length() : nl;
                } else if (d == '[' || d == '{') {
                    depth++;
                } else if (d == ']' || d == '}') {
                    if (--depth == 0) {
                        return i + 1;
                    }
                }
            }
            return text.length();
        }
        if (c == '"') {
            return endOfQuoted(text, start);
        }
        int i = start;
        while (i < text.length() && " \t\r\n,;]}#".indexOf(text.charAt(i)) < 0) {
            i++;
        }
        return i;
    }

    private static int endOfQuoted(String text, int start) {
        for (int i = start + 1; i < text.length(); i++) {
            char d = text.charAt(i);
            if (d == '\\') {
                i++;
            } else if (d == '"') {
                return i + 1;
            }
        }
        return text.length();
    }
}
