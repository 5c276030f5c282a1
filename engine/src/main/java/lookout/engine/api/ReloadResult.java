package lookout.engine.api;

import java.time.Instant;
import java.util.List;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;

/**
 * The outcome of {@link Engine#apply}: applied (with the diff) or rejected (with the problems;
 * nothing changed).
 */
public record ReloadResult(boolean applied, long version, Instant at, ConfigDiff diff, List<ConfigProblem> problems) {

    public ReloadResult {
        problems = List.copyOf(problems);
    }

    public static ReloadResult rejected(long runningVersion, Instant at, List<ConfigProblem> problems) {
        return new ReloadResult(false, runningVersion, at, new ConfigDiff(List.of()), problems);
    }
}
