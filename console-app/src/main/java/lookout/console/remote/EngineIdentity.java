package lookout.console.remote;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * {@code GET /api/v1/engine}: which engine answers, and what this client's token may do there.
 *
 * @param product       always {@code lookout}
 * @param version       the engine's version
 * @param engine        the engine's name (host name by default)
 * @param configFile    its configuration file, or null for the embedded default
 * @param configVersion the running configuration's version
 * @param state         the lifecycle state ({@code RUNNING} ...)
 * @param startedAt     when it started, or null
 * @param role          {@code operator}, {@code viewer} or {@code anonymous}
 * @param writable      whether this client may write (an operator token)
 */
public record EngineIdentity(String product, String version, String engine, String configFile, long configVersion,
                             String state, Instant startedAt, String role, boolean writable) {

    /** Reads the identity, or null when the tree is not one (the caller says "not a Lookout engine"). */
    static EngineIdentity of(Object tree) {
        if (!"lookout".equals(Json.string(tree, "product"))) {
            return null;
        }
        Instant started = null;
        String s = Json.string(tree, "startedAt");
        if (s != null) {
            try {
                started = Instant.parse(s);
            } catch (DateTimeParseException e) {
                started = null;
            }
        }
        String role = Json.string(tree, "role");
        return new EngineIdentity("lookout", orEmpty(Json.string(tree, "version")), orEmpty(Json.string(tree, "engine")),
                Json.string(tree, "configFile"), Json.number(tree, "configVersion", 0), orEmpty(Json.string(tree, "state")),
                started, role == null ? "anonymous" : role, Json.bool(tree, "writable", false));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** {@code NAME (FILE)}, or {@code NAME (embedded default)}: what a window title shows. */
    public String describe() {
        String name = engine.isEmpty() ? "Lookout engine" : engine;
        return name + " (" + (configFile == null ? "embedded default" : configFile) + ")";
    }
}
