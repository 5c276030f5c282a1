package lookout.engine.config;

import java.util.List;

/** The outcome of parsing and validating a candidate: a config, or the problems (never both). */
public record ConfigResult(Config config, List<ConfigProblem> problems) {

    public ConfigResult {
        problems = List.copyOf(problems);
        if ((config == null) == problems.isEmpty()) {
            throw new IllegalArgumentException("a result holds a config or problems");
        }
    }

    public boolean ok() {
        return config != null;
    }
}
