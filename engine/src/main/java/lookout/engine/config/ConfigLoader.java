package lookout.engine.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * Parses and validates configuration text (gdnsd's vscf syntax) into a {@link Config}, or into
 * the list of problems, each with FILE:LINE:COLUMN. Never throws for bad input.
 *
 * <p>SKELETON: the config work replaces the bodies; the signatures are the contract.
 */
public final class ConfigLoader {

    /** Name used in errors for the embedded default configuration. */
    public static final String EMBEDDED_NAME = "<embedded default>";

    private final Map<String, String> environment;

    /** @param environment where {@code EPICS_PVA_*} variables are read when a key is absent */
    public ConfigLoader(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public Map<String, String> environment() {
        return environment;
    }

    /** Parses {@code text} named {@code name}; relative paths resolve against {@code baseDir}. */
    public ConfigResult parse(String text, String name, Path baseDir) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Reads and parses a file; an unreadable file is one problem at line 1, column 1. */
    public ConfigResult load(Path file) {
        throw new UnsupportedOperationException("skeleton");
    }

    /** The embedded default: loopback only, demo zone with a weighted pool, own PVA server on. */
    public ConfigResult embeddedDefault() {
        throw new UnsupportedOperationException("skeleton");
    }

    /** Added, removed and changed keys, per section. */
    public static ConfigDiff diff(Config before, Config after) {
        throw new UnsupportedOperationException("skeleton");
    }
}
