package lookout.engine.config.vscf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A parser for gdnsd's configuration language, vscf, written from gdnsd 3.8's
 * {@code libgdnsd/vscf.rl} grammar so that a gdnsd file means the same thing here:
 *
 * <ul>
 *   <li>the top level is an implicit hash ({@code key => value ...}); gdnsd also allows one
 *       top-level {@code [ list ]}, which {@link #parseDocument} returns and {@link #parse}
 *       rejects because a Lookout configuration is always a hash;</li>
 *   <li>{@code key => value} or {@code key = value}; one optional comma after every entry or item;</li>
 *   <li>whitespace is space, tab, newline and comments from {@code #} or {@code ;} to the end
 *       of the line; we also take carriage return as whitespace (gdnsd would make it part of a
 *       bare string), so that files edited on Windows parse;</li>
 *   <li>bare strings are any run of characters other than whitespace and
 *       <code>{ } [ ] ; # , " = \</code>, not starting with {@code $}; quoted strings
 *       {@code "..."} may span lines;</li>
 *   <li>escapes in both: {@code \NNN} (three decimal digits, 000 to 255) is that character code,
 *       a backslash before any other character (newline included) is that character;</li>
 *   <li>duplicate keys in one hash are errors;</li>
 *   <li>{@code $include{path}} as a value (the file's whole content) or in place of an entry
 *       (the file's hash merged into the enclosing one); single files only, no globs.</li>
 * </ul>
 *
 * <p>Every key and value keeps its {@link Position}. The parser stops at the first syntax error,
 * as gdnsd's does, and reports where it is and what it expected there.
 */
public final class VscfParser {

    /** Deepest nesting of lists and hashes (a guard against stack exhaustion on hostile input). */
    public static final int MAX_DEPTH = 64;

    /** Deepest chain of {@code $include}s (a guard against include loops). */
    public static final int MAX_INCLUDE_DEPTH = 8;

    private final String text;
    private final String file;
    private final IncludeResolver includes;
    private final int includeDepth;
    private int pos;
    private int line = 1;
    private int column = 1;
    /** Keys (and {@code [i]} list indexes) from the top to the value being parsed, for errors. */
    private final List<String> keyPath = new ArrayList<>();

    private VscfParser(String text, String file, IncludeResolver includes, int includeDepth) {
        this.text = text;
        this.file = file;
        this.includes = includes;
        this.includeDepth = includeDepth;
    }

    /** Parses a configuration without {@code $include} support. */
    public static VNode.Hash parse(String text, String file) throws VscfSyntaxException {
        return parse(text, file, IncludeResolver.NONE);
    }

    /** Parses a configuration: its top level must be a hash. */
    public static VNode.Hash parse(String text, String file, IncludeResolver includes) throws VscfSyntaxException {
        VNode root = parseDocument(text, file, includes);
        if (root instanceof VNode.Hash h) {
            return h;
        }
        throw new VscfSyntaxException(root.pos(), "",
                "expected 'key => value' entries at the top level, found a [ list ]");
    }

    /** Parses any vscf document: an implicit top-level hash, or one top-level list. */
    public static VNode parseDocument(String text, String file, IncludeResolver includes) throws VscfSyntaxException {
        return new VscfParser(text, file, includes, 0).document();
    }

    private VNode document() throws VscfSyntaxException {
        skipWhitespace();
        if (!atEnd() && peek() == '[') {
            Position open = here();
            advance();
            VNode.Array list = arrayBody(open, 1);
            skipWhitespace();
            if (!atEnd()) {
                throw error("expected end of file after the top-level list, found " + describeNext());
            }
            return list;
        }
        List<VNode.Entry> entries = new ArrayList<>();
        hashBody(entries, null, 0);
        return new VNode.Hash(entries, new Position(file, 1, 1));
    }

    // ------------------------------------------------------------------ containers

    /** Entries up to the matching '}' ({@code open} non-null) or to end of file (top level). */
    private void hashBody(List<VNode.Entry> entries, Position open, int depth) throws VscfSyntaxException {
        Map<String, Position> seen = new HashMap<>();
        while (true) {
            skipWhitespace();
            if (atEnd()) {
                if (open == null) {
                    return;
                }
                throw error("expected '}' to close the hash opened at line " + open.line() + ", column "
                        + open.column() + ", found end of file");
            }
            char c = peek();
            if (c == '}') {
                if (open == null) {
                    throw error("unexpected '}': no hash is open here");
                }
                advance();
                return;
            }
            if (c == '$') {
                mergeInclude(entries, seen);
            } else {
                if (!startsString(c)) {
                    throw error("expected a key, found " + describeNext());
                }
                Position keyPos = here();
                String key = string();
                skipWhitespace();
                if (atEnd() || peek() != '=') {
                    throw error("expected '=>' or '=' after key '" + key + "', found " + describeNext());
                }
                advance();
                if (!atEnd() && peek() == '>') {
                    advance();
                }
                skipWhitespace();
                keyPath.add(key);
                VNode value = value(depth, "the value of '" + key + "'");
                keyPath.remove(keyPath.size() - 1);
                Position first = seen.putIfAbsent(key, keyPos);
                if (first != null) {
                    throw fail(keyPos, "duplicate key '" + key + "' (first at line "
                            + first.line() + ", column " + first.column() + ")");
                }
                entries.add(new VNode.Entry(key, keyPos, value));
            }
            skipWhitespace();
            if (!atEnd() && peek() == ',') {
                advance();
            }
        }
    }

    private VNode.Array arrayBody(Position open, int depth) throws VscfSyntaxException {
        List<VNode> items = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (atEnd()) {
                throw error("expected ']' to close the list opened at line " + open.line() + ", column "
                        + open.column() + ", found end of file");
            }
            if (peek() == ']') {
                advance();
                return new VNode.Array(items, open);
            }
            keyPath.add("[" + items.size() + "]");
            items.add(value(depth, "a list item"));
            keyPath.remove(keyPath.size() - 1);
            skipWhitespace();
            if (!atEnd() && peek() == ',') {
                advance();
            }
        }
    }

    private VNode value(int depth, String what) throws VscfSyntaxException {
        if (atEnd()) {
            throw error("expected " + what + " (a string, a [ list ] or a { hash }), found end of file");
        }
        char c = peek();
        if (c == '[' || c == '{') {
            if (depth >= MAX_DEPTH) {
                throw error("lists and hashes nested deeper than " + MAX_DEPTH + " levels");
            }
            Position open = here();
            advance();
            if (c == '[') {
                return arrayBody(open, depth + 1);
            }
            List<VNode.Entry> entries = new ArrayList<>();
            hashBody(entries, open, depth + 1);
            return new VNode.Hash(entries, open);
        }
        if (c == '$') {
            Position at = here();
            IncludeResolver.Included inc = includeDirective();
            return includedDocument(inc, at);
        }
        if (startsString(c)) {
            Position p = here();
            boolean quoted = c == '"';
            return new VNode.Scalar(string(), quoted, p);
        }
        throw error("expected " + what + " (a string, a [ list ] or a { hash }), found " + describeNext());
    }

    // ------------------------------------------------------------------ $include

    private IncludeResolver.Included includeDirective() throws VscfSyntaxException {
        Position at = here();
        if (!text.startsWith("$include{", pos)) {
            throw error("unknown directive: a bare string cannot start with '$' and the only directive is "
                    + "$include{file} (quote the string if you meant it)");
        }
        for (int i = 0; i < "$include{".length(); i++) {
            advance();
        }
        skipWhitespace();
        if (atEnd() || !startsString(peek())) {
            throw error("expected a file name after '$include{', found " + describeNext());
        }
        String path = string();
        skipWhitespace();
        if (atEnd() || peek() != '}') {
            throw error("expected '}' to close '$include{', found " + describeNext());
        }
        advance();
        if (includeDepth >= MAX_INCLUDE_DEPTH) {
            throw fail(at, "$include nested deeper than " + MAX_INCLUDE_DEPTH
                    + " files (does a file include itself?)");
        }
        return includes.read(path, file, at);
    }

    private VNode includedDocument(IncludeResolver.Included inc, Position at) throws VscfSyntaxException {
        return new VscfParser(inc.text(), inc.name(), includes, includeDepth + 1).document();
    }

    private void mergeInclude(List<VNode.Entry> entries, Map<String, Position> seen) throws VscfSyntaxException {
        Position at = here();
        IncludeResolver.Included inc = includeDirective();
        VNode root = includedDocument(inc, at);
        if (!(root instanceof VNode.Hash h)) {
            throw fail(at, "included file '" + inc.name()
                    + "' is a [ list ]; only a hash can be merged into a hash");
        }
        for (VNode.Entry e : h.entries()) {
            Position first = seen.putIfAbsent(e.key(), e.keyPos());
            if (first != null) {
                throw fail(at, "included file '" + inc.name() + "' repeats key '" + e.key()
                        + "' (first at " + first + ")");
            }
            entries.add(e);
        }
    }

    // ------------------------------------------------------------------ strings

    /** Characters of a bare string (besides escapes), per vscf.rl's {@code chr}. */
    static boolean isBareChar(char c) {
        switch (c) {
            case '{', '}', '[', ']', ';', '#', ' ', '\t', '\n', '\r', ',', '"', '=', '\\':
                return false;
            default:
                return true;
        }
    }

    private static boolean startsString(char c) {
        return c == '"' || c == '\\' || (c != '$' && isBareChar(c));
    }

    private String string() throws VscfSyntaxException {
        StringBuilder sb = new StringBuilder();
        if (peek() == '"') {
            Position open = here();
            advance();
            while (true) {
                if (atEnd()) {
                    throw fail(open, "unterminated quoted string: expected '\"' before end of file");
                }
                char c = peek();
                if (c == '"') {
                    advance();
                    return sb.toString();
                }
                if (c == '\\') {
                    escape(sb);
                } else {
                    sb.append(c);
                    advance();
                }
            }
        }
        while (!atEnd()) {
            char c = peek();
            if (c == '\\') {
                escape(sb);
            } else if (isBareChar(c)) {
                sb.append(c);
                advance();
            } else {
                break;
            }
        }
        return sb.toString();
    }

    /** gdnsd's dns_unescape: {@code \NNN} decimal 000-255, else the next character itself. */
    private void escape(StringBuilder sb) throws VscfSyntaxException {
        Position at = here();
        advance();
        if (atEnd()) {
            throw fail(at, "a '\\' at end of file escapes nothing");
        }
        char c = peek();
        if (c >= '0' && c <= '9') {
            int value = 0;
            StringBuilder digits = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                if (atEnd() || peek() < '0' || peek() > '9') {
                    throw fail(at, "expected three decimal digits after '\\' (\\NNN, 000 to 255), found '\\"
                            + digits + "'");
                }
                digits.append(peek());
                value = value * 10 + (peek() - '0');
                advance();
            }
            if (value > 255) {
                throw fail(at, "escape '\\" + digits + "' is out of range: expected 000 to 255");
            }
            sb.append((char) value);
            return;
        }
        sb.append(c);
        advance();
    }

    // ------------------------------------------------------------------ scanning

    private void skipWhitespace() {
        while (!atEnd()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                advance();
            } else if (c == '#' || c == ';') {
                while (!atEnd() && peek() != '\n') {
                    advance();
                }
            } else {
                return;
            }
        }
    }

    private boolean atEnd() {
        return pos >= text.length();
    }

    private char peek() {
        return text.charAt(pos);
    }

    private void advance() {
        if (text.charAt(pos) == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
        pos++;
    }

    private Position here() {
        return new Position(file, line, column);
    }

    private VscfSyntaxException error(String message) {
        return fail(here(), message);
    }

    private VscfSyntaxException fail(Position at, String message) {
        StringBuilder path = new StringBuilder();
        for (String k : keyPath) {
            if (path.length() > 0 && !k.startsWith("[")) {
                path.append('.');
            }
            path.append(k);
        }
        return new VscfSyntaxException(at, path.toString(), message);
    }

    private String describeNext() {
        if (atEnd()) {
            return "end of file";
        }
        char c = peek();
        if (c < 0x20 || c == 0x7f) {
            return String.format("character U+%04X", (int) c);
        }
        return "'" + c + "'";
    }
}
