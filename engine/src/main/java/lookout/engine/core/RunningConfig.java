package lookout.engine.core;

import java.nio.file.Path;
import lookout.engine.config.Config;

/**
 * The configuration the engine runs, with its version and the file it came from (null: the
 * embedded default or a text never saved). Immutable; replaced whole on every apply.
 */
record RunningConfig(long version, Config config, Path file) {
}
