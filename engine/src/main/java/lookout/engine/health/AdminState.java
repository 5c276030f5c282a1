package lookout.engine.health;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;

/**
 * The contents of gdnsd's {@code admin_state} file: {@code glob => STATE[/TTL]} entries in file
 * order (plugins/mon.c {@code admin_process_hash}). Keys are fnmatch(3) globs over monitor names
 * ({@code 192.0.2.1/up}, {@code lb01.example.org./my_cn_check}); later entries win. Immutable.
 */
public record AdminState(List<Entry> entries) {

    /** One forced state; {@code ttl} null when the entry gives none (then gdnsd's maximum). */
    public record Entry(String glob, boolean down, Long ttl) {
        public String value() {
            return (down ? "DOWN" : "UP") + (ttl == null ? "" : "/" + ttl);
        }

        public long effectiveTtl() {
            return ttl == null ? ServiceTypeConfig.TTL_MAX : ttl;
        }
    }

    public AdminState {
        entries = List.copyOf(entries);
    }

    public static AdminState empty() {
        return new AdminState(List.of());
    }

    /**
     * Parses {@code text}; returns the state, or throws with gdnsd's message. The whole file is
     * rejected on the first bad entry (seed/SPEC: a bad file is ignored whole).
     */
    public static AdminState parse(String text, String file) throws IllegalArgumentException {
        VNode.Hash h;
        try {
            h = VscfParser.parse(text, file);
        } catch (VscfSyntaxException e) {
            throw new IllegalArgumentException("admin_state: Loading file '" + file + "' failed: " + e);
        }
        List<Entry> out = new ArrayList<>();
        for (VNode.Entry e : h.entries()) {
            if (!(e.value() instanceof VNode.Scalar s)) {
                throw new IllegalArgumentException(e.keyPos() + ": admin_state: value for '" + e.key() + "' must be a simple string!");
            }
            Entry parsed = parseValue(e.key(), s.value());
            if (parsed == null) {
                throw new IllegalArgumentException(s.pos() + ": admin_state: value for '" + e.key()
                        + "' must be of the form STATE[/TTL] (where STATE is 'UP' or 'DOWN', and the optional TTL is an unsigned integer in the range 0 - "
                        + ServiceTypeConfig.TTL_MAX + ")");
            }
            try {
                globPattern(e.key());
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(e.keyPos() + ": admin_state: glob-parsing error on '" + e.key() + "'");
            }
            out.add(parsed);
        }
        return new AdminState(out);
    }

    /** gdnsd_mon_parse_sttl: {@code UP} or {@code DOWN} (any case), then nothing or {@code /TTL}. */
    public static Entry parseValue(String glob, String value) {
        String v = value;
        boolean down;
        String rest;
        if (v.regionMatches(true, 0, "UP", 0, 2)) {
            down = false;
            rest = v.substring(2);
        } else if (v.regionMatches(true, 0, "DOWN", 0, 4)) {
            down = true;
            rest = v.substring(4);
        } else {
            return null;
        }
        if (rest.isEmpty()) {
            return new Entry(glob, down, null);
        }
        if (rest.charAt(0) != '/' || rest.length() == 1) {
            return null;
        }
        String digits = rest.substring(1);
        if (digits.length() > 10 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        long ttl = Long.parseLong(digits);
        if (ttl > ServiceTypeConfig.TTL_MAX) {
            return null;
        }
        return new Entry(glob, down, ttl);
    }

    /**
     * The forced state of each of {@code monitors} (by desc) that some entry matches; later
     * entries win.
     */
    public Map<String, Entry> resolve(Collection<String> monitors) {
        Map<String, Entry> out = new LinkedHashMap<>();
        for (Entry e : entries) {
            Pattern p = globPattern(e.glob());
            for (String m : monitors) {
                if (p.matcher(m).matches()) {
                    out.put(m, e);
                }
            }
        }
        return out;
    }

    /** Globs that match none of {@code monitors} (gdnsd warns about them). */
    public List<String> unmatched(Collection<String> monitors) {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            Pattern p = globPattern(e.glob());
            if (monitors.stream().noneMatch(m -> p.matcher(m).matches())) {
                out.add(e.glob());
            }
        }
        return out;
    }

    /** This state with {@code glob} set to {@code entry} (moved to the end, so that it wins). */
    public AdminState with(Entry entry) {
        List<Entry> l = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.glob().equals(entry.glob())) {
                l.add(e);
            }
        }
        l.add(entry);
        return new AdminState(l);
    }

    /** This state without the entry for exactly {@code glob}. */
    public AdminState without(String glob) {
        List<Entry> l = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.glob().equals(glob)) {
                l.add(e);
            }
        }
        return new AdminState(l);
    }

    /** The file text for these entries (vscf, one entry a line). */
    public String render() {
        StringBuilder sb = new StringBuilder("# gdnsd admin_state: glob => UP|DOWN[/TTL]; later entries win.\n"
                + "# Written by Lookout; edits by hand are picked up within a second.\n");
        for (Entry e : entries) {
            sb.append('"').append(e.glob().replace("\\", "\\\\").replace("\"", "\\\"")).append("\" => ")
                    .append(e.value()).append('\n');
        }
        return sb.toString();
    }

    /** The compiled glob of an admin_state key. */
    public static Pattern resolvePattern(String glob) {
        return globPattern(glob);
    }

    /** fnmatch(3) without flags: {@code *}, {@code ?}, {@code [set]}, {@code [!set]}, backslash escapes. */
    static Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '\\' -> {
                    if (i + 1 < glob.length()) {
                        re.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
                    } else {
                        re.append("\\\\");
                    }
                }
                case '[' -> {
                    int j = i + 1;
                    if (j < glob.length() && (glob.charAt(j) == '!' || glob.charAt(j) == '^')) {
                        j++;
                    }
                    if (j < glob.length() && glob.charAt(j) == ']') {
                        j++;
                    }
                    while (j < glob.length() && glob.charAt(j) != ']') {
                        j++;
                    }
                    if (j >= glob.length()) {
                        re.append("\\[");
                    } else {
                        String body = glob.substring(i + 1, j);
                        StringBuilder set = new StringBuilder("[");
                        int k = 0;
                        if (body.startsWith("!") || body.startsWith("^")) {
                            set.append('^');
                            k = 1;
                        }
                        for (; k < body.length(); k++) {
                            char b = body.charAt(k);
                            if (b == '\\' || b == '[' || b == ']' || b == '&' || b == '^') {
                                set.append('\\');
                            }
                            set.append(b);
                        }
                        set.append(']');
                        re.append(set);
                        i = j;
                    }
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
