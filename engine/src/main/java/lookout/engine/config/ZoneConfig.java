package lookout.engine.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * One entry of the {@code zones} section: a zone answered locally.
 *
 * @param origin     the zone's name, fully qualified, lower case
 * @param sourceName where its text came from (a file path, or the config file for inline text)
 * @param text       the RFC 1035 zone-file text
 * @param line       line in {@code sourceName} where the text starts (1 for a file)
 * @param directory  where the text's relative {@code $INCLUDE} names point from: the zone file's
 *                   directory, or the configuration file's for inline text (null: the working one)
 * @param includes   the files its {@code $INCLUDE}s name (and theirs), read when the configuration
 *                   was loaded, by {@link #includePath}: parsing does no I/O, and an edited
 *                   included file makes the zone differ on reload like an edited zone file
 */
public record ZoneConfig(String origin, String sourceName, String text, int line, String directory,
                         Map<String, Include> includes) {

    public ZoneConfig {
        includes = Map.copyOf(includes);
    }

    /** A zone without {@code $INCLUDE}s. */
    public ZoneConfig(String origin, String sourceName, String text, int line) {
        this(origin, sourceName, text, line, null, Map.of());
    }

    /** An included file's text, or why it could not be read ({@code text} null). */
    public record Include(String text, String error) {
    }

    /**
     * Where {@code $INCLUDE name} read in {@code directory} points (a relative name is relative to
     * it; null: the working directory).
     */
    public static String includePath(String directory, String name) {
        try {
            Path p = Path.of(name);
            if (p.isAbsolute() || directory == null) {
                return p.toAbsolutePath().normalize().toString();
            }
            return Path.of(directory).resolve(p).toAbsolutePath().normalize().toString();
        } catch (InvalidPathException e) {
            return name;
        }
    }

    /** The directory an included file's own relative {@code $INCLUDE}s point from. */
    public static String directoryOf(String path) {
        try {
            Path parent = Path.of(path).getParent();
            return parent == null ? null : parent.toString();
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
