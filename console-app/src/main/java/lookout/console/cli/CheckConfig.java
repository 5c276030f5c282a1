package lookout.console.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;

/**
 * {@code lookout --check-config FILE}: the same parse and validation a live reload runs, with the
 * same environment ({@code EPICS_PVA_*}), without starting anything. No JavaFX, no sockets.
 */
public final class CheckConfig {

    private CheckConfig() {
    }

    /**
     * Validates {@code file}. Valid: one line {@code FILE: OK (sha256 …)} on {@code out}, returns 0.
     * Invalid: each problem as {@code FILE:LINE:COLUMN: message} on {@code err} (compiler style,
     * so editors jump to it), returns 1. A file that configures no service (empty, comment-only,
     * truncated) is a problem too: a reload of it would be refused, and a start on it would serve
     * nothing.
     */
    public static int run(Path file, Map<String, String> environment, PrintStream out, PrintStream err) {
        ConfigLoader loader = new ConfigLoader(environment);
        ConfigResult result = loader.load(file);
        if (result.ok() && loader.servesNothing(result.config())) {
            err.println(file + ":1:1: " + ConfigLoader.servesNothingMessage());
            err.flush();
            return 1;
        }
        if (result.ok()) {
            out.println(file + ": OK (sha256 " + result.config().source().shortHash() + ")");
            out.flush();
            return 0;
        }
        for (ConfigProblem p : result.problems()) {
            err.println(p);
        }
        err.flush();
        return 1;
    }
}
