package lookout.engine.config;

import java.util.List;

/**
 * What a candidate changes against the running configuration, per section and key path.
 */
public record ConfigDiff(List<Change> changes) {

    public ConfigDiff {
        changes = List.copyOf(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public enum Kind { ADDED, REMOVED, CHANGED }

    /**
     * @param section top-level section ({@code resolver}, {@code pva}, ...)
     * @param path    full key path, dot separated ({@code resolver.scopes.corp.servers})
     * @param kind    added, removed or changed
     * @param before  the old value as text, or null when added
     * @param after   the new value as text, or null when removed
     */
    public record Change(String section, String path, Kind kind, String before, String after) {
        @Override
        public String toString() {
            return switch (kind) {
                case ADDED -> "+ " + path + " = " + after;
                case REMOVED -> "- " + path + " (was " + before + ")";
                case CHANGED -> "~ " + path + ": " + before + " -> " + after;
            };
        }
    }
}
