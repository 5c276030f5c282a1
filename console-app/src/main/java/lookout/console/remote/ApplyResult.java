package lookout.console.remote;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;

/**
 * The answer to {@code POST /api/v1/config} (a 200): applied or not (a dry run), the version, the
 * changes, and where the file went.
 *
 * @param applied whether the engine runs the text now (false for a dry run)
 * @param version the running version after the request
 * @param diff    what the text changes against the running configuration
 * @param saved   the configuration file written, or null (a dry run, or the embedded default)
 * @param backup  the backup of the previous content, or null
 */
public record ApplyResult(boolean applied, long version, ConfigDiff diff, String saved, String backup) {

    /** The options of an apply ({@code expectedVersion} 0: not checked). */
    public record Request(String text, boolean dryRun, boolean force, boolean confirmEmpty, long expectedVersion) {
        public Object body() {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("text", text);
            m.put("dryRun", dryRun);
            m.put("force", force);
            m.put("confirmEmpty", confirmEmpty);
            if (expectedVersion > 0) {
                m.put("expectedVersion", expectedVersion);
            }
            return m;
        }
    }

    /** Reads the answer's JSON tree. */
    public static ApplyResult of(Object tree) {
        List<ConfigDiff.Change> changes = new ArrayList<>();
        if (Json.member(tree, "diff") instanceof List<?> l) {
            for (Object o : l) {
                changes.add(change(o));
            }
        }
        return new ApplyResult(Json.bool(tree, "applied", false), Json.number(tree, "version", 0),
                new ConfigDiff(changes), Json.string(tree, "saved"), Json.string(tree, "backup"));
    }

    /** A change as the engine's {@code ConfigDiff.Change} JSON; a bare string is a change of that key path. */
    static ConfigDiff.Change change(Object o) {
        if (o instanceof String s) {
            String path = s.strip();
            int dot = path.indexOf('.');
            return new ConfigDiff.Change(dot > 0 ? path.substring(0, dot) : path, path, ConfigDiff.Kind.CHANGED, null, null);
        }
        try {
            return JsonRecords.read(o, ConfigDiff.Change.class);
        } catch (JsonRecords.ShapeException e) {
            String path = String.valueOf(Json.string(o, "path"));
            return new ConfigDiff.Change(path, path, ConfigDiff.Kind.CHANGED, null, null);
        }
    }

    /**
     * A {@code FILE:LINE:COLUMN: message} line back as a problem (the file name may hold colons; the
     * message may too, so the first {@code :LINE:COLUMN: } after the file wins).
     */
    public static ConfigProblem problem(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.*?):(\\d+):(\\d+): (.*)$", java.util.regex.Pattern.DOTALL)
                .matcher(line);
        if (m.matches()) {
            try {
                return new ConfigProblem(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), "",
                        m.group(4));
            } catch (NumberFormatException e) {
                // fall through: a position too large for an int
            }
        }
        return new ConfigProblem("", 1, 1, "", line);
    }

    /** The changes, one line each ({@code ~ resolver.cache_size: 1000 -> 2000}). */
    public List<String> lines() {
        return diff.changes().stream().map(Object::toString).toList();
    }

    /** "3 changes" / "1 change" / "no change". */
    public String count() {
        int n = diff.changes().size();
        return n == 0 ? "no change" : n + " change" + (n == 1 ? "" : "s");
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "applied=%s version=%d %s", applied, version, count());
    }
}
