package lookout.engine.config.vscf;

/**
 * A syntax error in vscf text: where it is and what was expected there. The parser stops at the
 * first one, as gdnsd's does, because everything after an unbalanced bracket is guesswork.
 */
public final class VscfSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    private final Position position;

    public VscfSyntaxException(Position position, String message) {
        super(message);
        this.position = position;
    }

    public Position position() {
        return position;
    }

    @Override
    public String toString() {
        return position + ": " + getMessage();
    }
}
