package lookout.engine.dns.wire;

/** A message that cannot be parsed; thrown by the codec, caught by every caller (a counted drop). */
public final class WireException extends Exception {

    public WireException(String message) {
        super(message, null, false, false);
    }
}
