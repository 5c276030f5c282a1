package lookout.engine.pva.pvdata;

/**
 * Input that is truncated, inconsistent or beyond a limit: the message cannot be decoded, and a
 * TCP stream carrying it cannot be trusted further. Carries no stack trace (it is an expected
 * outcome of hostile input, counted, never logged with a trace).
 */
public final class PvDataException extends Exception {

    public PvDataException(String reason) {
        super(reason, null, false, false);
    }
}
