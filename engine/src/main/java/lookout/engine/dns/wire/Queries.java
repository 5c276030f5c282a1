package lookout.engine.dns.wire;

/** Builds the queries Lookout sends upstream: RD set, one question, our own EDNS0 OPT (payload 1232). */
public final class Queries {

    private Queries() {
    }

    public static byte[] upstream(int id, String qname, int qtype, int qclass, boolean cd) {
        byte[] name = Names.toWire(qname);
        byte[] q = new byte[12 + name.length + 4 + 11];
        Encoded.put16(q, 0, id);
        Encoded.put16(q, 2, Message.RD | (cd ? Message.CD : 0));
        Encoded.put16(q, 4, 1);
        Encoded.put16(q, 10, 1);
        System.arraycopy(name, 0, q, 12, name.length);
        int p = 12 + name.length;
        Encoded.put16(q, p, qtype);
        Encoded.put16(q, p + 2, qclass);
        p += 4;
        q[p] = 0;
        Encoded.put16(q, p + 1, RrType.OPT);
        Encoded.put16(q, p + 3, Responses.OUR_PAYLOAD);
        return q;
    }
}
