package lookout.engine.core;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.Engine;
import lookout.engine.api.ReloadResult;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * What the engine's own helpers — the audited views of {@link ActingEngine} and the persistence
 * path of {@link ConfigApplier} — need of the engine beyond its public facade. Implemented by
 * {@link DefaultEngine}; declared here so that the helpers depend on this interface and the engine
 * on them, never both ways (no class cycle).
 */
interface EngineInternals extends Engine {

    /** The running version (0 before the first start). */
    long currentVersion();

    /** The running configuration, its version and its file; null before the start. */
    RunningConfig current();

    /** Applies a validated candidate on the engine loop, all or nothing ({@link Engine#apply(Config)}). */
    ReloadResult applyConfig(Config candidate);

    /** Records a candidate rejected for its problems (event, last reload); nothing changes. */
    ReloadResult rejectProblems(ConfigResult candidate);

    /** {@link #rejectProblems} for problems found before parsing (a refused text). */
    ReloadResult recordRejected(List<ConfigProblem> problems);

    /** The loader the engine parses configuration text with (its environment). */
    ConfigLoader loader();

    /** The persistence path, unaudited: parse, check, apply and write back {@code text}. */
    ApplyOutcome saveAndApply(String text, ApplyRequest request);

    /** The persistence path, unaudited: apply the configuration file's own text (nothing written back). */
    ApplyOutcome reloadFromFile(ApplyRequest request);

    /** Where applied configurations, backups and the version live. */
    ConfigStore store();

    /** One apply-and-save at a time, whoever asks. */
    ReentrantLock applyLock();

    /** The operator commands, unaudited (the audited view wraps them). */
    EngineCommands commands();
}
