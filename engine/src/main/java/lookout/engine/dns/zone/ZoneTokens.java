package lookout.engine.dns.zone;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 1035 §5.1 master-file text as entries of tokens: comments ({@code ;}) dropped, parentheses
 * joining lines, quoted strings kept whole, backslash escapes kept for the parser to read; an
 * entry whose line begins with a blank has the previous owner. Every token keeps its line and
 * column, so a problem is reported where it is. Pure, no state.
 */
final class ZoneTokens {

    private ZoneTokens() {
    }

    /** One token and where it stands in the text (1-based). */
    record Token(String text, int line, int column, boolean quoted) {
    }

    /** One entry: its tokens, and whether its line began with a blank (the owner is the previous one). */
    record Entry(List<Token> tokens, boolean blankOwner) {
    }

    /** Where tokenizing problems go (unbalanced parentheses, an unterminated string). */
    interface Problems {
        void at(int line, int column, String message);
    }

    /** The entries of {@code text} in order; each problem found on the way goes to {@code problems}. */
    static List<Entry> read(String text, Problems problems) {
        List<Entry> entries = new ArrayList<>();
        int line = 1;
        int col = 1;
        int depth = 0;
        List<Token> cur = new ArrayList<>();
        boolean curBlank = false;
        boolean atLineStart = true;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\n') {
                if (depth == 0) {
                    if (!cur.isEmpty()) {
                        entries.add(new Entry(cur, curBlank));
                        cur = new ArrayList<>();
                    }
                    atLineStart = true;
                }
                line++;
                col = 1;
                i++;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r') {
                if (atLineStart && depth == 0 && cur.isEmpty()) {
                    curBlank = true;
                }
                atLineStart = false;
                i++;
                col++;
                continue;
            }
            if (atLineStart && depth == 0 && cur.isEmpty()) {
                curBlank = false;
            }
            atLineStart = false;
            if (c == ';') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                    col++;
                }
                continue;
            }
            if (c == '(') {
                depth++;
                i++;
                col++;
                continue;
            }
            if (c == ')') {
                if (depth == 0) {
                    problems.at(line, col, "')' without '('");
                } else {
                    depth--;
                }
                i++;
                col++;
                continue;
            }
            int startCol = col;
            StringBuilder sb = new StringBuilder();
            if (c == '"') {
                i++;
                col++;
                boolean closed = false;
                while (i < n) {
                    char d = text.charAt(i);
                    if (d == '\\' && i + 1 < n) {
                        sb.append(d).append(text.charAt(i + 1));
                        i += 2;
                        col += 2;
                        continue;
                    }
                    if (d == '"') {
                        closed = true;
                        i++;
                        col++;
                        break;
                    }
                    if (d == '\n') {
                        break;
                    }
                    sb.append(d);
                    i++;
                    col++;
                }
                if (!closed) {
                    problems.at(line, startCol, "unterminated quoted string");
                }
                cur.add(new Token(sb.toString(), line, startCol, true));
                continue;
            }
            while (i < n) {
                char d = text.charAt(i);
                if (d == ' ' || d == '\t' || d == '\r' || d == '\n' || d == ';' || d == '(' || d == ')' || d == '"') {
                    break;
                }
                if (d == '\\' && i + 1 < n) {
                    sb.append(d).append(text.charAt(i + 1));
                    i += 2;
                    col += 2;
                    continue;
                }
                sb.append(d);
                i++;
                col++;
            }
            cur.add(new Token(sb.toString(), line, startCol, false));
        }
        if (depth > 0) {
            problems.at(line, col, "'(' not closed before the end of the zone");
        }
        if (!cur.isEmpty()) {
            entries.add(new Entry(cur, curBlank));
        }
        return entries;
    }

}
