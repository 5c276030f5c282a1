package lookout.engine.dns.wire;

/**
 * A query read for the listeners' fast path, without objects: the usual shape only — one
 * question in class IN, opcode QUERY, no records but at most one EDNS version 0 OPT owned by the
 * root, a name of uncompressed labels whose bytes all read as themselves in presentation form
 * (letters are lower-cased into {@link #name}). Anything else is not read here
 * ({@link #read} returns false) and takes the general path ({@link ClientQuery#decode}), which
 * also answers every malformed query with the error it deserves: this reader only ever declines.
 *
 * <p>Mutable and reused: one instance per listener socket, used on its loop only.
 */
public final class PlainQuery {

    /** Longest query read here; a longer one takes the general path. */
    public static final int MAX_LENGTH = 1024;

    /** The query's bytes (copied in by the caller); valid up to {@link #length}. */
    public final byte[] raw = new byte[MAX_LENGTH];
    public int length;
    /** The question name in wire form, lower-cased; valid up to {@link #nameLength}. */
    public final byte[] name = new byte[255];
    public int nameLength;
    public int hash;
    public int id;
    public int flags;
    public int qtype;
    /** Bytes of the question section (name, type, class) from offset 12. */
    public int questionLength;
    public boolean edns;
    public int ednsUdpSize;
    public boolean ednsDo;

    /** Reads the {@link #length} bytes in {@link #raw}; false when the query is not of the usual shape. */
    public boolean read() {
        byte[] m = raw;
        int len = length;
        if (len < 17 || len > MAX_LENGTH) {
            return false;
        }
        int f = Message.u16(m, 2);
        // a response, or an opcode other than QUERY; one question, no answer or authority records
        if ((f & (Message.QR | 0x7800)) != 0 || Message.u16(m, 4) != 1 || Message.u16(m, 6) != 0
                || Message.u16(m, 8) != 0) {
            return false;
        }
        int ar = Message.u16(m, 10);
        if (ar > 1) {
            return false;
        }
        int pos = 12;
        int n = 0;
        int h = 1;
        while (true) {
            if (pos >= len) {
                return false;
            }
            int l = m[pos] & 0xFF;
            if (l == 0) {
                pos++;
                break;
            }
            // compression pointers and extended label types: the general path
            if (l > 63 || pos + 1 + l > len || n + 1 + l > 254) {
                return false;
            }
            name[n++] = (byte) l;
            h = 31 * h + l;
            for (int i = pos + 1, end = pos + 1 + l; i < end; i++) {
                int c = m[i] & 0xFF;
                if (c >= 'A' && c <= 'Z') {
                    c += 32;
                } else if (c <= 0x20 || c >= 0x7F || c == '.' || c == '\\') {
                    return false; // escaped in presentation form (Names.appendLabel)
                }
                name[n++] = (byte) c;
                h = 31 * h + c;
            }
            pos += 1 + l;
        }
        if (pos + 4 > len || Message.u16(m, pos + 2) != RrType.IN) {
            return false;
        }
        int t = Message.u16(m, pos);
        pos += 4;
        questionLength = pos - 12;
        if (ar == 0) {
            if (pos != len) {
                return false;
            }
            edns = false;
        } else {
            // RFC 6891 §6.1.2: OPT owned by the root; version 0 only (others are answered BADVERS)
            if (pos + 11 > len || m[pos] != 0 || Message.u16(m, pos + 1) != RrType.OPT || m[pos + 6] != 0
                    || pos + 11 + Message.u16(m, pos + 9) != len) {
                return false;
            }
            for (int o = pos + 11; o < len; ) {
                if (o + 4 > len) {
                    return false;
                }
                o += 4 + Message.u16(m, o + 2);
                if (o > len) {
                    return false;
                }
            }
            edns = true;
            ednsUdpSize = Message.u16(m, pos + 3);
            ednsDo = (m[pos + 7] & 0x80) != 0;
        }
        id = Message.u16(m, 0);
        flags = f;
        qtype = t;
        nameLength = n;
        hash = 31 * h + t;
        return true;
    }

    /** How big an answer may be: as {@link ClientQuery#maxSize} over UDP. */
    public int maxSize() {
        return edns ? Math.max(512, Math.min(ednsUdpSize, 65535)) : 512;
    }
}
