package lookout.engine.health;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;

/**
 * A small reader of gdnsd's vscf syntax for the {@code admin_state} file (a hash of
 * {@code glob => STATE[/TTL]}): {@code key => value} or {@code key = value}, {@code [ lists ]},
 * {@code { hashes }}, {@code #} comments, optional commas and semicolons, quoted or bare strings.
 * The top level is an implicit hash, as in gdnsd. The full configuration reader lives in
 * {@code config}; this one keeps forced states independent of it.
 */
public final class MiniVscf {

    /** A syntax error with its position. */
    public static final class SyntaxError extends Exception {
        public SyntaxError(Position pos, String message) {
            super(pos + ": " + message);
        }
    }

    private final String text;
    private final String file;
    private int at;
    private int line = 1;
    private int col = 1;

    private MiniVscf(String text, String file) {
        this.text = text;
        this.file = file;
    }

    /** Parses {@code text} (named {@code file} in positions) as an implicit top-level hash. */
    public static VNode.Hash parse(String text, String file) throws SyntaxError {
        MiniVscf p = new MiniVscf(text, file);
        VNode.Hash h = p.hashBody(p.pos(), true);
        p.skip();
        if (p.at < p.text.length()) {
            throw new SyntaxError(p.pos(), "unexpected '" + p.text.charAt(p.at) + "'");
        }
        return h;
    }

    private Position pos() {
        return new Position(file, line, col);
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void advance() {
        if (text.charAt(at) == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        at++;
    }

    private void skip() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == '#') {
                while (at < text.length() && text.charAt(at) != '\n') {
                    advance();
                }
            } else if (Character.isWhitespace(c) || c == ',' || c == ';') {
                advance();
            } else {
                return;
            }
        }
    }

    private VNode.Hash hashBody(Position start, boolean top) throws SyntaxError {
        List<VNode.Entry> entries = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while (true) {
            skip();
            if (at >= text.length()) {
                if (!top) {
                    throw new SyntaxError(pos(), "unterminated hash (missing '}')");
                }
                break;
            }
            if (peek() == '}') {
                if (top) {
                    throw new SyntaxError(pos(), "unexpected '}'");
                }
                advance();
                break;
            }
            Position kp = pos();
            VNode.Scalar key = scalar();
            skip();
            if (peek() == '=') {
                advance();
                if (peek() == '>') {
                    advance();
                }
            } else {
                throw new SyntaxError(pos(), "expected '=>' after key '" + key.value() + "'");
            }
            skip();
            VNode value = value();
            if (keys.contains(key.value())) {
                throw new SyntaxError(kp, "duplicate key '" + key.value() + "'");
            }
            keys.add(key.value());
            entries.add(new VNode.Entry(key.value(), kp, value));
        }
        return new VNode.Hash(entries, start);
    }

    private VNode value() throws SyntaxError {
        Position p = pos();
        char c = peek();
        if (c == '{') {
            advance();
            return hashBody(p, false);
        }
        if (c == '[') {
            advance();
            List<VNode> items = new ArrayList<>();
            while (true) {
                skip();
                if (at >= text.length()) {
                    throw new SyntaxError(pos(), "unterminated list (missing ']')");
                }
                if (peek() == ']') {
                    advance();
                    return new VNode.Array(items, p);
                }
                items.add(value());
            }
        }
        return scalar();
    }

    private VNode.Scalar scalar() throws SyntaxError {
        Position p = pos();
        StringBuilder sb = new StringBuilder();
        if (peek() == '"') {
            advance();
            while (true) {
                if (at >= text.length()) {
                    throw new SyntaxError(p, "unterminated quoted string");
                }
                char c = peek();
                advance();
                if (c == '"') {
                    return new VNode.Scalar(sb.toString(), true, p);
                }
                if (c == '\\' && at < text.length()) {
                    c = peek();
                    advance();
                }
                sb.append(c);
            }
        }
        while (at < text.length()) {
            char c = peek();
            if (Character.isWhitespace(c) || "{}[],;=#\"".indexOf(c) >= 0) {
                break;
            }
            sb.append(c);
            advance();
        }
        if (sb.length() == 0) {
            throw new SyntaxError(p, at >= text.length() ? "unexpected end of file" : "unexpected '" + peek() + "'");
        }
        return new VNode.Scalar(sb.toString(), false, p);
    }
}
