package lookout.engine.dns.wire;

/**
 * The 12-byte message header (RFC 1035 §4.1.1) read in place, by name: services ask whether a
 * message is a query or what its opcode is here, never by masking bytes themselves.
 */
public final class Header {

    /** Bytes of a header; a message shorter than that is no DNS message. */
    public static final int LENGTH = 12;
    /** OPCODE of a standard query (RFC 1035 §4.1.1). */
    public static final int OPCODE_QUERY = 0;
    /** Flag bits (RFC 1035 §4.1.1, RFC 4035 §3.2 for AD and CD). */
    public static final int QR = 0x8000;
    public static final int AA = 0x0400;
    public static final int TC = 0x0200;
    public static final int RD = 0x0100;
    public static final int RA = 0x0080;
    public static final int AD = 0x0020;
    public static final int CD = 0x0010;

    private Header() {
    }

    /** True when {@code m[0, length)} holds a whole header (it may still be no query). */
    public static boolean complete(byte[] m, int length) {
        return length >= LENGTH;
    }

    /** True when {@code m[0, length)} holds a header with QR clear: a query, however badly formed. */
    public static boolean isQuery(byte[] m, int length) {
        return complete(m, length) && (flags(m) & QR) == 0;
    }

    /** The message ID. */
    public static int id(byte[] m) {
        return ((m[0] & 0xFF) << 8) | (m[1] & 0xFF);
    }

    /** The 16 flag bits (QR, OPCODE, AA, TC, RD, RA, Z, AD, CD, RCODE). */
    public static int flags(byte[] m) {
        return ((m[2] & 0xFF) << 8) | (m[3] & 0xFF);
    }

    /** The OPCODE of header flags {@code flags}. */
    public static int opcode(int flags) {
        return (flags >>> 11) & 0xF;
    }

    /** Whether header flags {@code flags} have CD set (RFC 4035 §3.2.2: passed upstream as asked). */
    public static boolean checkingDisabled(int flags) {
        return (flags & CD) != 0;
    }
}
