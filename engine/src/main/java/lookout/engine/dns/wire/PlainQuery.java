package lookout.engine.dns.wire;

/**
 * A query read for the listeners' fast path, without objects: the usual shape only — one
 * question in class IN, opcode QUERY, no records but at most one EDNS version 0 OPT owned by the
 * root, a name of uncompressed labels whose bytes all read as themselves in presentation form
 * (letters are lower-cased into {@link #name}). Anything else is not read here
 * ({@link #read} returns false) and takes the general path ({@link ClientQuery#decode}), which
 * also answers every malformed query with the error it deserves: this reader only ever declines.
 */
public final class PlainQuery {

    /* Concurrency: mutable and reused — one instance per UDP listener, touched by its reader
     * thread only (the fast path reads into it and answers from it before the next datagram). */

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
    private final Lowered labels = new Lowered();

    /** Reads the {@link #length} bytes in {@link #raw}; false when the query is not of the usual shape. */
    public boolean read() {
        byte[] m = raw;
        int len = length;
        if (len < 17 || len > MAX_LENGTH) {
            return false;
        }
        int f = Header.flags(m);
        // a response, or an opcode other than QUERY; one question, no answer or authority records
        if ((f & Message.QR) != 0 || Header.opcode(f) != Header.OPCODE_QUERY || Message.u16(m, 4) != 1 || Message.u16(m, 6) != 0
                || Message.u16(m, 8) != 0) {
            return false;
        }
        int ar = Message.u16(m, 10);
        if (ar > 1) {
            return false;
        }
        // uncompressed labels only: a pointer, or a byte escaped in presentation form, declines
        labels.n = 0;
        labels.h = 1;
        int pos = WireName.read(m, len, Header.LENGTH, false, labels);
        if (pos < 0) {
            return false;
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
            if (Message.optionsProblem(m, pos + 11, len) != null) {
                return false;
            }
            edns = true;
            ednsUdpSize = Message.u16(m, pos + 3);
            ednsDo = (m[pos + 7] & 0x80) != 0;
        }
        id = Header.id(m);
        flags = f;
        qtype = t;
        nameLength = labels.n;
        hash = 31 * labels.h + t;
        return true;
    }

    /**
     * The name's labels as {@link WireName} reads them: copied lower-cased into {@link #name},
     * hashed on the way, declined when a byte would need an escape in presentation form (the
     * memo's key must be the name the decoded path would have read). Allocation-free: one per reader.
     */
    private final class Lowered implements WireName.Labels {
        int n;
        int h;

        @Override
        public boolean label(byte[] m, int offset, int length) {
            name[n++] = (byte) length;
            h = 31 * h + length;
            for (int i = offset, end = offset + length; i < end; i++) {
                int c = m[i] & 0xFF;
                if (c >= 'A' && c <= 'Z') {
                    c += 32;
                } else if (c <= 0x20 || c >= 0x7F || c == '.' || c == '\\') {
                    return false; // escaped in presentation form (Names.appendLabel)
                }
                name[n++] = (byte) c;
                h = 31 * h + c;
            }
            return true;
        }
    }

    /**
     * The question name in presentation form, lower case, fully qualified: the string
     * {@link ClientQuery#decode} reads for it (no label here needs an escape, so each length byte
     * becomes a dot). Allocates; the listeners keep what they build from it.
     */
    public String qname() {
        if (nameLength == 0) {
            return ".";
        }
        // {@link #name} holds the labels without the root's empty one: as long as the text
        byte[] p = new byte[nameLength];
        int at = 0;
        for (int i = 0; i < nameLength; ) {
            int l = name[i];
            System.arraycopy(name, i + 1, p, at, l);
            at += l;
            p[at++] = '.';
            i += l + 1;
        }
        return new String(p, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** How big an answer may be: as {@link ClientQuery#maxSize} over UDP. */
    public int maxSize() {
        return edns ? Math.max(512, Math.min(ednsUdpSize, 65535)) : 512;
    }
}
