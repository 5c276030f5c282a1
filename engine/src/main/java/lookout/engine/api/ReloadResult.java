package lookout.engine.api;

import java.time.Instant;
import java.util.List;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;

/**
 * The outcome of {@link Engine#apply}: applied (with the diff), rejected for problems in the file
 * (with them), or failed while applying (with {@code failure}: a service could not take the new
 * configuration, so every service went back to the running one). Only an applied result changes
 * the version.
 *
 * @param failure why the apply was rolled back, or null
 */
public record ReloadResult(boolean applied, long version, Instant at, ConfigDiff diff, List<ConfigProblem> problems,
                           String failure) {

    public ReloadResult {
        problems = List.copyOf(problems);
    }

    public ReloadResult(boolean applied, long version, Instant at, ConfigDiff diff, List<ConfigProblem> problems) {
        this(applied, version, at, diff, problems, null);
    }

    public static ReloadResult rejected(long runningVersion, Instant at, List<ConfigProblem> problems) {
        return new ReloadResult(false, runningVersion, at, new ConfigDiff(List.of()), problems, null);
    }

    /** A valid configuration that a service failed to apply: rolled back, the running version stays. */
    public static ReloadResult failed(long runningVersion, Instant at, ConfigDiff diff, String failure) {
        return new ReloadResult(false, runningVersion, at, diff, List.of(), failure);
    }

    /** The reasons it was not applied, one line each (problems as FILE:LINE:COLUMN, or the failure). */
    public List<String> reasons() {
        if (failure != null) {
            return List.of(failure);
        }
        return problems.stream().map(Object::toString).toList();
    }
}
