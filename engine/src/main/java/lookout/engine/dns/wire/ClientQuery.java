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
        return Header.opcode(flags);
    }

    /** Whether the client set CD (RFC 4035 §3.2.2): the upstream query carries it too. */
    public boolean checkingDisabled() {
        return Header.checkingDisabled(flags);
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
        if (!Header.isQuery(raw, len)) {
            return null;
        }
        int flags = Header.flags(raw);
        ClientQuery q = new ClientQuery();
        q.raw = raw;
        q.tcp = tcp;
        q.id = Header.id(raw);
        q.flags = flags;
        if (Message.u16(raw, 4) != 1) {
            throw new WireException("a query needs exactly one question");
        }
        StringBuilder sb = new StringBuilder(32);
        int pos = Message.readName(raw, len, 12, sb);
        if (pos + 4 > len) {
            throw new WireException("question cut short");
        }
        q.qname = sb.toString();
        q.qtype = Message.u16(raw, pos);
        q.qclass = Message.u16(raw, pos + 2);
        pos += 4;
        q.questionLength = pos - 12;
        int an = Message.u16(raw, 6);
        int ns = Message.u16(raw, 8);
        int ar = Message.u16(raw, 10);
        if (an == 0 && ns == 0 && ar == 0) {
            if (pos != len) {
                throw new WireException("trailing bytes after the question");
            }
            return q;
        }
        if (an == 0 && ns == 0 && ar == 1 && pos + 11 <= len && raw[pos] == 0
                && Message.u16(raw, pos + 1) == RrType.OPT) {
            // the usual EDNS query: one OPT record owned by the root (RFC 6891 §6.1.2)
            int rdlen = Message.u16(raw, pos + 9);
            if (pos + 11 + rdlen != len) {
                throw new WireException("OPT record length does not match the message");
            }
            String problem = Message.optionsProblem(raw, pos + 11, len);
            if (problem != null) {
                throw new WireException(problem);
            }
            q.edns = true;
            q.ednsUdpSize = Message.u16(raw, pos + 3);
            q.ednsVersion = raw[pos + 6] & 0xFF;
            q.ednsDo = (raw[pos + 7] & 0x80) != 0;
            return q;
        }
        // anything else: the general decoder (records in a query are unusual but legal)
        Message m = Message.decodeHeaderAndQuestion(raw, len);
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
