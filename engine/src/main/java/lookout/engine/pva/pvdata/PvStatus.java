package lookout.engine.pva.pvdata;

/**
 * The Status of an operation reply (pvAccess protocol "Status"): OK is the single byte 0xFF;
 * anything else is its type (1 warning, 2 error, 3 fatal), a message and a call-stack string.
 *
 * @param type    {@link #OK_TYPE}, {@link #WARNING}, {@link #ERROR} or {@link #FATAL}
 * @param message for a person; empty for OK
 * @param stack   the call stack the peer may show (Lookout sends an empty one)
 */
public record PvStatus(int type, String message, String stack) {

    public static final int OK_TYPE = 0;
    public static final int WARNING = 1;
    public static final int ERROR = 2;
    public static final int FATAL = 3;

    public static final PvStatus OK = new PvStatus(OK_TYPE, "", "");

    public static PvStatus error(String message) {
        return new PvStatus(ERROR, message, "");
    }

    public boolean ok() {
        return type == OK_TYPE || type == WARNING;
    }

    public void encode(PvWriter w) {
        if (type == OK_TYPE && message.isEmpty() && stack.isEmpty()) {
            w.u8(0xFF);
            return;
        }
        w.u8(type);
        w.string(message);
        w.string(stack);
    }

    public static PvStatus decode(PvReader r) throws PvDataException {
        int t = r.u8("status");
        if (t == 0xFF) {
            return OK;
        }
        if (t > FATAL) {
            throw new PvDataException("status type " + t);
        }
        return new PvStatus(t, r.string("status message"), r.string("status stack"));
    }
}
