package lookout.engine.config;

/**
 * One configuration error: where (file, 1-based line and column), which key path, and a message
 * saying what was expected. {@link #toString()} is the {@code FILE:LINE:COLUMN: message} form that
 * {@code lookout --check-config} prints.
 */
public record ConfigProblem(String file, int line, int column, String path, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
