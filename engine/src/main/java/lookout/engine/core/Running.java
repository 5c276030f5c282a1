package lookout.engine.core;

import java.nio.file.Path;
import lookout.engine.config.Config;

/**
 * The running version, its configuration and the file it is written back to (null: none), as
 * other threads than the engine loop see it.
 */
record Running(long version, Config config, Path file) {
}
