package lookout.console.configpane;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import lookout.engine.config.ConfigDiff;

/**
 * Says a configuration diff in an operator's words: "scope corp: server 192.0.2.55 added",
 * "weight of pubwww/dc1/a changed 10 → 20", "PVA addr_list: 10.0.0.255 added". Lists are compared
 * element by element, so a one-server change reads as one server, not as a whole new list.
 */
public final class PlainDiff {

    private PlainDiff() {
    }

    public static List<String> describe(ConfigDiff diff) {
        List<String> out = new ArrayList<>();
        for (ConfigDiff.Change c : diff.changes()) {
            out.addAll(describe(c));
        }
        if (out.isEmpty()) {
            out.add("No changes: the candidate is the same as the running configuration.");
        }
        return out;
    }

    static List<String> describe(ConfigDiff.Change c) {
        String what = subject(c.path());
        List<String> out = new ArrayList<>();
        switch (c.kind()) {
            case ADDED -> out.add(what + " added: " + c.after());
            case REMOVED -> out.add(what + " removed (was " + c.before() + ")");
            case CHANGED -> {
                List<String> before = listItems(c.before());
                List<String> after = listItems(c.after());
                if (isWeightedItem(c.path(), before) && isWeightedItem(c.path(), after)) {
                    // gdnsd weighted item "name => [ address, weight ]": say which half changed
                    if (!before.get(0).equals(after.get(0))) {
                        out.add("address of " + what + " changed " + before.get(0) + " → " + after.get(0));
                    }
                    if (!before.get(1).equals(after.get(1))) {
                        out.add("weight of " + what + " changed " + before.get(1) + " → " + after.get(1));
                    }
                } else if (before != null && after != null) {
                    Set<String> added = new LinkedHashSet<>(after);
                    before.forEach(added::remove);
                    Set<String> removed = new LinkedHashSet<>(before);
                    after.forEach(removed::remove);
                    String noun = noun(c.path());
                    added.forEach(a -> out.add(what + ": " + noun + " " + a + " added"));
                    removed.forEach(r -> out.add(what + ": " + noun + " " + r + " removed"));
                    if (added.isEmpty() && removed.isEmpty()) {
                        out.add(what + ": same " + noun + "s in a new order: " + c.after());
                    }
                } else {
                    String verb = c.path().endsWith(".weight") || isWeight(c) ? "weight of " : "";
                    out.add(verb + what + " changed " + c.before() + " → " + c.after());
                }
            }
        }
        return out;
    }

    private static boolean isWeightedItem(String path, List<String> l) {
        return path.startsWith("plugins.weighted.") && l != null && l.size() == 2 && l.get(1).matches("\\d+");
    }

    private static boolean isWeight(ConfigDiff.Change c) {
        // gdnsd weighted items are "name => [ address, weight ]": a changed weight reads as a 2-list.
        return c.section().equals("plugins") && c.before() != null && c.before().matches("\\d+")
                && c.after() != null && c.after().matches("\\d+");
    }

    /** "resolver.scopes.corp.servers" → "resolver scope corp servers"; keeps the path readable. */
    static String subject(String path) {
        String[] p = path.split("\\.");
        if (p.length >= 3 && p[0].equals("resolver") && p[1].equals("scopes")) {
            return "resolver scope " + p[2] + (p.length > 3 ? " " + String.join(".", List.of(p).subList(3, p.length)) : "");
        }
        if (p.length >= 2 && p[0].equals("pva")) {
            return "PVA " + String.join(".", List.of(p).subList(1, p.length));
        }
        if (p.length >= 3 && p[0].equals("plugins") && p[1].equals("weighted")) {
            return "pool " + String.join("/", List.of(p).subList(2, p.length));
        }
        return path;
    }

    private static String noun(String path) {
        if (path.endsWith("servers")) {
            return "server";
        }
        if (path.endsWith("addr_list") || path.endsWith("name_servers")) {
            return "address";
        }
        if (path.endsWith("domains") || path.endsWith("search")) {
            return "domain";
        }
        if (path.endsWith("watch")) {
            return "PV";
        }
        return "entry";
    }

    /** Items of a "[ a, b ]" value, or null when the text is not a list. */
    static List<String> listItems(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (!t.startsWith("[") || !t.endsWith("]")) {
            return null;
        }
        String inner = t.substring(1, t.length() - 1).strip();
        List<String> items = new ArrayList<>();
        if (inner.isEmpty()) {
            return items;
        }
        for (String s : inner.split("[,\\s]+")) {
            if (!s.isBlank()) {
                items.add(s.strip());
            }
        }
        return items;
    }
}
