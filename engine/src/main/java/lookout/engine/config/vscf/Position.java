package lookout.engine.config.vscf;

/** Where a value starts: file name as given, 1-based line and column (column counts characters). */
public record Position(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
