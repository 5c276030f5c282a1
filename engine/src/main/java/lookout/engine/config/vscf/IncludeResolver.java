package lookout.engine.config.vscf;

/**
 * Reads the file named by {@code $include{path}}. The parser resolves nothing itself so that it
 * stays pure: {@link lookout.engine.config.ConfigLoader} decides what a relative path means.
 */
@FunctionalInterface
public interface IncludeResolver {

    /** The included text and the name it is reported under. */
    record Included(String name, String text) {
    }

    /**
     * @param path        the path as written
     * @param includingFile the name of the file holding the directive
     * @param at          where the directive is, for errors
     */
    Included read(String path, String includingFile, Position at) throws VscfSyntaxException;

    /** Rejects every include (text without a file behind it). */
    IncludeResolver NONE = (path, includingFile, at) -> {
        throw new VscfSyntaxException(at, "$include is not available here (no file system location)");
    };
}
