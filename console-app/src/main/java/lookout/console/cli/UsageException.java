package lookout.console.cli;

/** A command line that makes no sense; the message says why in one line. */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
