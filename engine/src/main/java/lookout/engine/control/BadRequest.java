package lookout.engine.control;

/** A request the API cannot make sense of: answered 400 with this message, nothing done. */
public final class BadRequest extends Exception {

    public BadRequest(String message) {
        super(message, null, false, false);
    }
}
