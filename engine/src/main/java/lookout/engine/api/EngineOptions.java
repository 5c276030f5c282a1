package lookout.engine.api;

import java.nio.file.Path;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * How an engine is built, as opposed to what it runs ({@link lookout.engine.config.Config}).
 *
 * @param scheduler   the clock and timers; null for a real event loop
 * @param random      every random choice (weighted draws, DNS IDs, GUIDs); null for a secure source
 * @param environment where {@code EPICS_PVA_*} variables are read
 * @param stateDirOverride when set, replaces {@code state_dir} (tests point it at a temp folder)
 */
public record EngineOptions(Scheduler scheduler, RandomGenerator random, Map<String, String> environment,
                            Path stateDirOverride) {

    public EngineOptions {
        environment = environment == null ? Map.of() : Map.copyOf(environment);
    }

    /** Real time, secure randomness, the process environment. */
    public static EngineOptions defaults() {
        return new EngineOptions(null, null, System.getenv(), null);
    }

    /** Virtual time and a seeded random source, no environment: what tests use. */
    public static EngineOptions forTest(Scheduler scheduler, RandomGenerator random, Path stateDir) {
        return new EngineOptions(scheduler, random, Map.of(), stateDir);
    }
}
