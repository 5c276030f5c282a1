package lookout.engine.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import lookout.engine.config.vscf.Position;
import lookout.engine.config.vscf.VNode;

/**
 * Collects problems while a candidate is bound and validated; every section binder reports here
 * and keeps going, so one run lists every error of a file.
 */
public final class ConfigProblems {

    private final List<ConfigProblem> problems = new ArrayList<>();

    /** Records {@code message} at {@code pos} for key path {@code path}. */
    public void add(Position pos, String path, String message) {
        problems.add(new ConfigProblem(pos.file(), pos.line(), pos.column(), path, message));
    }

    /** Records {@code message} at the start of {@code node}. */
    public void add(VNode node, String path, String message) {
        add(node.pos(), path, message);
    }

    /**
     * Records an unknown key, with a "did you mean" when one of {@code known} is within edit
     * distance 2 (or a case-insensitive/underscore variant).
     */
    public void unknownKey(VNode.Entry entry, String parentPath, Collection<String> known) {
        String path = parentPath.isEmpty() ? entry.key() : parentPath + "." + entry.key();
        String suggestion = closest(entry.key(), known);
        add(entry.keyPos(), path, "unknown key '" + path + "'"
                + (suggestion == null ? "; expected one of: " + String.join(", ", known)
                        : "; did you mean '" + suggestion + "'?"));
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    public int size() {
        return problems.size();
    }

    /** The problems in file order (stable for equal positions). */
    public List<ConfigProblem> list() {
        List<ConfigProblem> sorted = new ArrayList<>(problems);
        sorted.sort((a, b) -> {
            int c = a.file().compareTo(b.file());
            if (c != 0) {
                return c;
            }
            c = Integer.compare(a.line(), b.line());
            return c != 0 ? c : Integer.compare(a.column(), b.column());
        });
        return List.copyOf(sorted);
    }

    /** The closest of {@code known} to {@code key}, or null if none is close. */
    public static String closest(String key, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String norm = key.toLowerCase().replace('-', '_');
        for (String k : known) {
            int d = norm.equals(k.toLowerCase()) ? 0 : distance(norm, k.toLowerCase());
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        int limit = key.length() <= 4 ? 1 : 2;
        return bestDistance <= limit ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
