package lookout.engine.dns.wire;

/**
 * Domain names in presentation form: lower case, fully qualified (trailing dot), with {@code \.},
 * {@code \\} and {@code \DDD} escapes for label bytes that are not plain printable ASCII. The root
 * is {@code "."}. Pure functions, no state.
 */
public final class Names {

    private Names() {
    }

    /** Appends one wire label to {@code sb} in presentation form, lower-cased. */
    static void appendLabel(StringBuilder sb, byte[] msg, int off, int len) {
        for (int i = 0; i < len; i++) {
            int c = msg[off + i] & 0xFF;
            if (c >= 'A' && c <= 'Z') {
                sb.append((char) (c + 32));
            } else if (c == '.' || c == '\\') {
                sb.append('\\').append((char) c);
            } else if (c <= 0x20 || c >= 0x7F) {
                sb.append('\\');
                if (c < 100) {
                    sb.append('0');
                }
                if (c < 10) {
                    sb.append('0');
                }
                sb.append(c);
            } else {
                sb.append((char) c);
            }
        }
        sb.append('.');
    }

    /**
     * Writes {@code name} (presentation form) as uncompressed wire labels into {@code out} at
     * {@code pos}; returns the new position, or -1 when the name is not valid (label over 63
     * bytes, name over 255 bytes, empty label, bad escape) or does not fit.
     */
    public static int toWire(String name, byte[] out, int pos) {
        int start = pos;
        if (name.equals(".")) {
            if (pos >= out.length) {
                return -1;
            }
            out[pos] = 0;
            return pos + 1;
        }
        int n = name.length();
        int i = 0;
        while (i < n) {
            int lenPos = pos++;
            int len = 0;
            while (i < n) {
                char c = name.charAt(i);
                if (c == '.') {
                    i++;
                    break;
                }
                int b;
                if (c == '\\') {
                    if (i + 1 >= n) {
                        return -1;
                    }
                    char d = name.charAt(i + 1);
                    if (d >= '0' && d <= '9') {
                        if (i + 3 >= n) {
                            return -1;
                        }
                        int v = (d - '0') * 100 + (name.charAt(i + 2) - '0') * 10 + (name.charAt(i + 3) - '0');
                        if (v > 255 || !Character.isDigit(name.charAt(i + 2)) || !Character.isDigit(name.charAt(i + 3))) {
                            return -1;
                        }
                        b = v;
                        i += 4;
                    } else {
                        b = d;
                        i += 2;
                    }
                } else {
                    if (c > 0xFF) {
                        return -1;
                    }
                    b = c;
                    i++;
                }
                if (pos >= out.length) {
                    return -1;
                }
                out[pos++] = (byte) b;
                len++;
            }
            if (len == 0 || len > 63) {
                return -1;
            }
            out[lenPos] = (byte) len;
        }
        if (pos >= out.length) {
            return -1;
        }
        out[pos++] = 0;
        return pos - start > 255 ? -1 : pos;
    }

    /** The wire form of {@code name}, or null when invalid. */
    public static byte[] toWire(String name) {
        byte[] buf = new byte[256];
        int end = toWire(name, buf, 0);
        if (end < 0) {
            return null;
        }
        byte[] r = new byte[end];
        System.arraycopy(buf, 0, r, 0, end);
        return r;
    }

    /** True when {@code name} equals {@code suffix} or lies below it (both presentation form). */
    public static boolean isAtOrBelow(String name, String suffix) {
        if (suffix.equals(".")) {
            return true;
        }
        if (!name.endsWith(suffix)) {
            return false;
        }
        int cut = name.length() - suffix.length();
        if (cut == 0) {
            return true;
        }
        // the character before the suffix must be an unescaped dot
        if (name.charAt(cut - 1) != '.') {
            return false;
        }
        int backslashes = 0;
        for (int j = cut - 2; j >= 0 && name.charAt(j) == '\\'; j--) {
            backslashes++;
        }
        return backslashes % 2 == 0;
    }

    /** The parent of {@code name}, or null for the root. */
    public static String parent(String name) {
        if (name.equals(".")) {
            return null;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\') {
                i++;
                if (i < name.length() && Character.isDigit(name.charAt(i))) {
                    i += 2;
                }
            } else if (c == '.') {
                String rest = name.substring(i + 1);
                return rest.isEmpty() ? "." : rest;
            }
        }
        return ".";
    }

    /** Number of labels ({@code "."} has 0). */
    public static int labelCount(String name) {
        int count = 0;
        String n = name;
        while (n != null && !n.equals(".")) {
            count++;
            n = parent(n);
        }
        return count;
    }

    /** Lower-cases and makes fully qualified; null when {@code text} is not a usable name. */
    public static String normalize(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String t = text.toLowerCase(java.util.Locale.ROOT);
        if (!t.endsWith(".") || (t.endsWith("\\.") && !t.endsWith("\\\\."))) {
            t = t + ".";
        }
        if (t.equals(".")) {
            return t;
        }
        return toWire(t) == null ? null : t;
    }
}
