package lookout.engine.api;

import java.nio.file.Path;
import java.util.List;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;

/**
 * What became of a configuration text given to {@link Engine#applyText} or re-read by
 * {@link Engine#reloadFile}: applied (and saved), valid in a dry run, or refused for a reason
 * that changed nothing.
 *
 * @param status        what happened
 * @param version       the running version afterwards (the new one when applied)
 * @param diff          what the text changes against the running configuration (empty when it was not read)
 * @param problems      FILE:LINE:COLUMN problems of an invalid text
 * @param message       one line for an operator: what happened, or why not
 * @param runningSha256 SHA-256 of the running configuration's text before this request
 * @param onDiskSha256  SHA-256 of the configuration file as it was on disk (null when there is none)
 * @param saved         the file the text was written to, or null (dry run, refused, no file: the
 *                      embedded default applies in memory only)
 * @param backup        the numbered copy of the file's previous content in {@code STATE_DIR/backups},
 *                      or null
 */
public record ApplyOutcome(Status status, long version, ConfigDiff diff, List<ConfigProblem> problems,
                           String message, String runningSha256, String onDiskSha256, Path saved, Path backup) {

    public enum Status {
        /** Applied to every service (and written back when the engine runs on a file). */
        APPLIED,
        /** A dry run of a text that would apply: nothing changed. */
        VALID,
        /** The text has problems (FILE:LINE:COLUMN); nothing changed. */
        INVALID,
        /** Valid, but a service could not take it (a port in use, say): every service went back. */
        FAILED,
        /** The file on disk is not the running configuration (edited by hand): refused unless forced. */
        EDITED_ON_DISK,
        /** {@link ApplyRequest#expectedVersion} is not the running version: refused. */
        VERSION_MISMATCH,
        /** The text would remove every service (empty or truncated): refused unless confirmed. */
        WOULD_REMOVE_EVERYTHING,
        /** The engine is not running. */
        NOT_RUNNING
    }

    public ApplyOutcome {
        problems = List.copyOf(problems);
        diff = diff == null ? new ConfigDiff(List.of()) : diff;
    }

    public boolean applied() {
        return status == Status.APPLIED;
    }

    /** The reasons it was not applied, one line each (problems as FILE:LINE:COLUMN, else the message). */
    public List<String> reasons() {
        if (!problems.isEmpty()) {
            return problems.stream().map(Object::toString).toList();
        }
        return List.of(message);
    }
}
