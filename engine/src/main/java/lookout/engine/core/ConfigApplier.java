package lookout.engine.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyOutcome.Status;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.EngineState;
import lookout.engine.api.ReloadResult;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigSource;

/**
 * The operator's apply, one path for the console, the control API and SIGHUP (docs/design/control.md
 * §Persistence): parse against the engine's file, refuse a text that serves nothing, refuse to
 * overwrite a file edited by hand, apply atomically, write back atomically with a numbered backup.
 *
 * <p>The order makes every failure leave things as they were: the new file is written and synced
 * beside the old one before the engine applies anything; only an applied configuration is
 * renamed into place; a configuration a service cannot take is rolled back by the engine and its
 * temporary file dropped. A kill at any point leaves the file wholly old or wholly new.
 *
 * <p>Concurrency: one apply at a time (the engine's {@code applyLock}, which every apply takes); runs on the caller's thread, never the
 * engine loop, and hops onto the loop only inside {@link EngineInternals#applyConfig}.
 */
final class ConfigApplier {

    private final EngineInternals engine;

    ConfigApplier(EngineInternals engine) {
        this.engine = engine;
    }

    /** {@link lookout.engine.api.Engine#applyText}. */
    ApplyOutcome applyText(String text, ApplyRequest request) {
        ReentrantLock lock = engine.applyLock();
        lock.lock();
        try {
            RunningConfig cur = engine.current();
            ApplyOutcome refused = precheck(cur, request);
            if (refused != null) {
                return refused;
            }
            ConfigSource src = cur.config().source();
            Path base = cur.file() != null ? cur.file().getParent() : src.baseDir();
            ConfigResult r = engine.loader().parse(text == null ? "" : text, src.name(), base);
            return decide(cur, r, text == null ? "" : text, request, true);
        } finally {
            lock.unlock();
        }
    }

    /** {@link lookout.engine.api.Engine#reloadFile}: the file's own text, so nothing is written back. */
    ApplyOutcome reloadFile(ApplyRequest request) {
        ReentrantLock lock = engine.applyLock();
        lock.lock();
        try {
            RunningConfig cur = engine.current();
            ApplyOutcome refused = precheck(cur, request);
            if (refused != null) {
                return refused;
            }
            if (cur.file() == null) {
                return outcome(Status.FAILED, cur, null, List.of(), "the engine runs on "
                        + cur.config().source().name() + ": there is no configuration file to reload", null);
            }
            // Loaded under the running configuration's own name, so problems name the file as it did.
            ConfigResult r = engine.loader().load(Path.of(cur.config().source().name()));
            return decide(cur, r, r.ok() ? r.config().source().text() : null, request, false);
        } finally {
            lock.unlock();
        }
    }

    private ApplyOutcome precheck(RunningConfig cur, ApplyRequest request) {
        if (cur == null || engine.state() != EngineState.RUNNING) {
            return new ApplyOutcome(Status.NOT_RUNNING, cur == null ? 0 : cur.version(), null, List.of(),
                    "the engine is " + engine.state().name().toLowerCase(java.util.Locale.ROOT)
                            + ": there is no running configuration to apply to",
                    cur == null ? null : cur.config().source().sha256(), null, null, null);
        }
        if (request.expectedVersion() != null && request.expectedVersion() != cur.version()) {
            return outcome(Status.VERSION_MISMATCH, cur, null, List.of(), "version " + request.expectedVersion()
                    + " was expected but version " + cur.version() + " is running (applied by someone else "
                    + "meanwhile): look at the running configuration first", null);
        }
        return null;
    }

    private ApplyOutcome decide(RunningConfig cur, ConfigResult r, String text, ApplyRequest request,
                                boolean writeBack) {
        ConfigLoader loader = engine.loader();
        String runningName = cur.config().source().name();
        if (!r.ok()) {
            if (!request.dryRun()) {
                engine.recordRejected(r.problems());
            }
            int n = r.problems().size();
            return outcome(Status.INVALID, cur, null, r.problems(), n + (n == 1 ? " problem" : " problems")
                    + "; the running configuration stays version " + cur.version(), null);
        }
        Config candidate = r.config();
        if (!request.confirmEmpty() && loader.servesNothing(candidate) && !loader.servesNothing(cur.config())) {
            String why = ConfigLoader.servesNothingMessage() + ". Refused: confirm to apply it anyway";
            if (!request.dryRun()) {
                engine.recordRejected(List.of(new ConfigProblem(runningName, 1, 1, "", why)));
            }
            return outcome(Status.WOULD_REMOVE_EVERYTHING, cur, null, List.of(), why, null);
        }
        ConfigDiff diff = ConfigLoader.diff(cur.config(), candidate);
        Path file = writeBack ? cur.file() : null;
        byte[] previous = null;
        String onDisk = null;
        if (file != null) {
            try {
                previous = ConfigStore.read(file);
            } catch (IOException e) {
                return outcome(Status.FAILED, cur, diff, List.of(), "cannot read " + file + ": " + reason(e)
                        + "; nothing applied", null);
            }
            onDisk = previous == null ? null : ConfigStore.sha256(previous);
            String running = cur.config().source().sha256();
            if (onDisk != null && !onDisk.equals(running) && !request.force()) {
                return outcome(Status.EDITED_ON_DISK, cur, diff, List.of(), file + " was changed on disk since the "
                        + "engine loaded it (sha256 on disk " + onDisk.substring(0, 12) + ", running "
                        + running.substring(0, 12) + "): refused so that the edit is not lost; reload the file, "
                        + "or force to overwrite it", onDisk);
            }
        }
        if (request.dryRun()) {
            int n = diff.changes().size();
            return outcome(Status.VALID, cur, diff, List.of(), "valid: " + n + (n == 1 ? " change" : " changes")
                    + "; nothing applied (dry run)", onDisk);
        }
        AtomicFiles.Pending pending = null;
        if (file != null) {
            try {
                pending = AtomicFiles.prepare(file, text.getBytes(StandardCharsets.UTF_8), null);
            } catch (IOException | RuntimeException e) {
                return outcome(Status.FAILED, cur, diff, List.of(), "cannot write " + file + ": " + reason(e)
                        + "; nothing applied", onDisk);
            }
        }
        ReloadResult res;
        try {
            res = engine.applyConfig(candidate);
        } catch (RuntimeException e) {
            if (pending != null) {
                pending.abort();
            }
            throw e;
        }
        if (!res.applied()) {
            if (pending != null) {
                pending.abort();
            }
            return new ApplyOutcome(Status.FAILED, res.version(), res.diff(), List.of(), res.failure(),
                    cur.config().source().sha256(), onDisk, null, null);
        }
        return saved(cur, res, file, pending, previous, onDisk);
    }

    /** The candidate runs: put the file in place (backup first), and say what became of it. */
    private ApplyOutcome saved(RunningConfig cur, ReloadResult res, Path file, AtomicFiles.Pending pending,
                               byte[] previous, String onDisk) {
        String applied = "configuration version " + res.version() + " applied";
        if (pending == null) {
            String where = cur.file() == null ? " in memory only (the engine runs on "
                    + cur.config().source().name() + ", no file)" : " from " + cur.file();
            return new ApplyOutcome(Status.APPLIED, res.version(), res.diff(), List.of(), applied + where,
                    cur.config().source().sha256(), onDisk, null, null);
        }
        Path backup = null;
        String note = "";
        if (previous != null) {
            try {
                backup = engine.store().backup(file, previous);
            } catch (IOException | RuntimeException e) {
                note = " (no backup of the previous file: " + reason(e) + ")";
            }
        }
        try {
            pending.commit();
        } catch (IOException | RuntimeException e) {
            return new ApplyOutcome(Status.APPLIED, res.version(), res.diff(), List.of(), applied + " but NOT saved: "
                    + file + ": " + reason(e) + "; the file still holds the previous configuration",
                    cur.config().source().sha256(), onDisk, null, backup);
        }
        return new ApplyOutcome(Status.APPLIED, res.version(), res.diff(), List.of(), applied + " and saved to " + file
                + (backup == null ? "" : " (previous in " + backup + ")") + note, cur.config().source().sha256(),
                onDisk, file, backup);
    }

    private static ApplyOutcome outcome(Status status, RunningConfig cur, ConfigDiff diff,
                                        List<ConfigProblem> problems, String message, String onDisk) {
        return new ApplyOutcome(status, cur.version(), diff, problems, message, cur.config().source().sha256(),
                onDisk, null, null);
    }

    /** An I/O failure as an operator reads it. */
    static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException a) {
            return "permission denied" + (a.getFile() == null ? "" : " (" + a.getFile() + ")");
        }
        if (e instanceof java.nio.file.NoSuchFileException n) {
            return "no such file or directory" + (n.getFile() == null ? "" : " (" + n.getFile() + ")");
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() == null ? "" : " (" + f.getFile() + ")");
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "input/output error" : m;
    }
}
