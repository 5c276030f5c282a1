package lookout.engine.config.vscf;

/**
 * A syntax error in vscf text: where it is and what was expected there. The parser stops at the
 * first one, as gdnsd's does, because everything after an unbalanced bracket is guesswork.
 */
public final class VscfSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    private final Position position;
    private final String path;

    public VscfSyntaxException(Position position, String message) {
        this(position, "", message);
    }

    /** @param path the key path the parser was in ({@code resolver.scopes}), or empty at the top */
    public VscfSyntaxException(Position position, String path, String message) {
        super(message);
        this.position = position;
        this.path = path;
    }

    /** The key path the error is in, dot separated, list items as {@code [i]}; empty at the top level. */
    public String path() {
        return path;
    }

    public Position position() {
        return position;
    }

    @Override
    public String toString() {
        return position + ": " + getMessage();
    }
}
