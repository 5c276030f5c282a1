package lookout.engine.pva.wire;

/**
 * CMD_CONNECTION_VALIDATED: the server's verdict on the handshake, a PVA Status (0xFF alone means
 * OK; otherwise a type — 1 warning, 2 error, 3 fatal — a message and a stack trace string).
 *
 * @param statusType -1 for OK, else the status type
 * @param message    empty for OK
 */
public record ConnectionValidated(int statusType, String message) implements PvaMessage {

    public static final ConnectionValidated OK = new ConnectionValidated(-1, "");

    public boolean ok() {
        // A warning still validates the connection.
        return statusType < 0 || statusType == 1;
    }

    static ConnectionValidated decode(WireReader r) throws WireReader.Malformed {
        int type = r.u8("status type");
        if (type == 0xFF) {
            return OK;
        }
        String msg = r.string("status message");
        if (r.remaining() > 0) {
            r.string("status stack trace");
        }
        return new ConnectionValidated(type, msg);
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(Pva.FLAG_SERVER, Pva.CMD_CONNECTION_VALIDATED);
        if (statusType < 0) {
            w.u8(0xFF);
        } else {
            w.u8(statusType);
            w.string(message);
            w.string("");
        }
        w.patchLength(h);
    }
}
