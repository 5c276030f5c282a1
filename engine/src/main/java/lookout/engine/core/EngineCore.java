package lookout.engine.core;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import lookout.engine.api.Engine;
import lookout.engine.api.ReloadResult;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * What the audited views ({@link ActingEngine}) and the operator's apply ({@link ConfigApplier})
 * need of the engine beyond its facade: the unaudited in-memory apply, the running configuration,
 * the apply lock, the state directory's store, the unaudited commands. {@link DefaultEngine}
 * implements it; they depend on this interface, not on the class that makes them.
 *
 * <p>Concurrency: as {@link DefaultEngine}'s.
 */
interface EngineCore extends Engine {

    /** The running version, 0 before the first start. */
    long currentVersion();

    /** The running version, configuration and file, or null before the first start. */
    Running current();

    /** The in-memory apply behind every path, not audited: its callers are. */
    ReloadResult applyConfig(Config candidate);

    /** A candidate with problems: recorded as the last reload (and an event); nothing changes. */
    ReloadResult rejectProblems(ConfigResult candidate);

    /** Records a rejected reload for {@code problems}: the snapshot's last reload, and an event. */
    ReloadResult recordRejected(List<ConfigProblem> problems);

    /** A loader with the engine's environment. */
    ConfigLoader loader();

    /** The version file and backups of the state directory. */
    ConfigStore store();

    /** Serialises every apply. */
    ReentrantLock applyLock();

    /** The operator commands, unaudited. */
    EngineCommands commands();
}
