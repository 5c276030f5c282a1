package lookout.engine.dns.wire;

/**
 * A client's query, decoded leniently enough to answer it (FORMERR needs the ID and question) and
 * strictly enough to refuse junk.
 */
public final class ClientQuery {

    public byte[] raw;
    public int id;
    public int flags;
    public String qname;
    public int qtype;
    public int qclass;
    /** Bytes of the question section (name + type + class) in {@link #raw} from offset 12. */
    public int questionLength;
    public boolean edns;
    public int ednsUdpSize;
    public int ednsVersion;
    public boolean ednsDo;
    /** Over TCP the whole 65 535 bytes are available. */
    public boolean tcp;

    public int opcode() {
        return (flags >>> 11) & 0xF;
    }

    /** How big an answer may be (RFC 6891 §6.2.3/§6.2.5: at least 512, at most our own buffer). */
    public int maxSize() {
        if (tcp) {
            return 65535;
        }
        if (!edns) {
            return 512;
        }
        return Math.max(512, Math.min(ednsUdpSize, 65535));
    }

    /**
     * Decodes a query. Returns null for anything not worth an answer (shorter than a header, or a
     * response); throws {@link WireException} for a query that deserves FORMERR, with {@link #id}
     * set.
     */
    public static ClientQuery decode(byte[] raw, int len, boolean tcp) throws WireException {
        if (len < 12) {
            return null;
        }
        Message m = Message.decodeHeaderAndQuestion(raw, len);
        if (m.isResponse()) {
            return null;
        }
        ClientQuery q = new ClientQuery();
        q.raw = raw;
        q.tcp = tcp;
        q.id = m.id;
        q.flags = m.flags;
        if (m.qdCount != 1) {
            throw new WireException("a query needs exactly one question");
        }
        q.qname = m.qname;
        q.qtype = m.qtype;
        q.qclass = m.qclass;
        q.questionLength = m.afterQuestion - 12;
        Message.decodeRecords(raw, len, m);
        q.edns = m.edns;
        q.ednsUdpSize = m.ednsUdpSize;
        q.ednsVersion = m.ednsVersion;
        q.ednsDo = m.ednsDo;
        return q;
    }

    /** A query built locally (the console's resolve box): no client bytes. */
    public static ClientQuery local(String qname, int qtype) {
        ClientQuery q = new ClientQuery();
        byte[] name = Names.toWire(qname);
        q.raw = new byte[12 + name.length + 4];
        System.arraycopy(name, 0, q.raw, 12, name.length);
        Encoded.put16(q.raw, 12 + name.length, qtype);
        Encoded.put16(q.raw, 14 + name.length, RrType.IN);
        q.flags = Message.RD;
        q.qname = qname;
        q.qtype = qtype;
        q.qclass = RrType.IN;
        q.questionLength = name.length + 4;
        q.tcp = true;
        return q;
    }
}
