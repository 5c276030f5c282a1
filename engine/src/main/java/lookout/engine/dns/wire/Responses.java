package lookout.engine.dns.wire;

import java.nio.charset.StandardCharsets;

/**
 * Stamps a response for one client: its ID, RD/CD bits, the question exactly as the client spelled
 * it, TTLs counted down, an OPT record when the client sent EDNS (with an extended error when
 * given), cut to the client's size with TC set.
 */
public final class Responses {

    /** Our own EDNS0 UDP payload size, to clients and upstreams (DNS flag day 2020). */
    public static final int OUR_PAYLOAD = 1232;

    private Responses() {
    }

    /** What we know of the client's question, from {@link ClientQuery}. */
    public static byte[] stamp(Encoded e, ClientQuery q, long elapsedSeconds, int edeCode, String edeText) {
        byte[] w = e.wire();
        boolean opt = q.edns;
        byte[] ede = opt && edeCode >= 0 ? edeOption(edeCode, edeText) : null;
        int optLen = opt ? 11 + (ede == null ? 0 : ede.length) : 0;
        int full = w.length + optLen;
        int qEnd = 12 + q.questionLength;
        if (full > q.maxSize()) {
            // RFC 1035 §4.2.1 / RFC 2181 §9: cut to header + question + OPT, TC set
            byte[] t = new byte[qEnd + optLen];
            System.arraycopy(w, 0, t, 0, Math.min(qEnd, w.length));
            Encoded.put16(t, 6, 0);
            Encoded.put16(t, 8, 0);
            Encoded.put16(t, 10, 0);
            t[2] |= (byte) (Message.TC >>> 8);
            finishHeader(t, q, e.rcode(), opt, ede, qEnd);
            return t;
        }
        byte[] r = new byte[full];
        System.arraycopy(w, 0, r, 0, w.length);
        if (elapsedSeconds > 0) {
            for (int off : e.ttlOffsets()) {
                long ttl = Message.u32(r, off) - elapsedSeconds;
                Encoded.put32(r, off, Math.max(0, ttl));
            }
        }
        finishHeader(r, q, e.rcode(), opt, ede, w.length);
        return r;
    }

    private static void finishHeader(byte[] r, ClientQuery q, int rcode, boolean opt, byte[] ede, int optAt) {
        Encoded.put16(r, 0, q.id);
        int flags = Message.u16(r, 2) & ~(Message.RD | Message.CD);
        flags |= q.flags & (Message.RD | Message.CD);
        Encoded.put16(r, 2, flags);
        // the question as the client spelled it (DNS 0x20)
        System.arraycopy(q.raw, 12, r, 12, Math.min(q.questionLength, r.length - 12));
        if (opt) {
            Encoded.put16(r, 10, Message.u16(r, 10) + 1);
            int p = optAt;
            r[p] = 0;
            Encoded.put16(r, p + 1, RrType.OPT);
            Encoded.put16(r, p + 3, OUR_PAYLOAD);
            r[p + 5] = (byte) (rcode >>> 4);
            r[p + 6] = 0;
            Encoded.put16(r, p + 7, q.ednsDo ? 0x8000 : 0);
            Encoded.put16(r, p + 9, ede == null ? 0 : ede.length);
            if (ede != null) {
                System.arraycopy(ede, 0, r, p + 11, ede.length);
            }
        }
    }

    /** RFC 8914 Extended DNS Error option. */
    private static byte[] edeOption(int code, String text) {
        byte[] t = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        byte[] o = new byte[6 + t.length];
        Encoded.put16(o, 0, 15);
        Encoded.put16(o, 2, 2 + t.length);
        Encoded.put16(o, 4, code);
        System.arraycopy(t, 0, o, 6, t.length);
        return o;
    }

    /** A response with no records: errors (SERVFAIL, REFUSED, FORMERR, NOTIMP, BADVERS). */
    public static byte[] error(ClientQuery q, int rcode, int edeCode, String edeText) {
        int flags = Message.QR | Message.RA | (q.opcode() << 11);
        Encoded e;
        if (q.qname != null) {
            e = Encoded.encode(flags, rcode, q.qname, q.qtype, q.qclass, java.util.List.of(), java.util.List.of(),
                    java.util.List.of());
        } else {
            e = Encoded.encode(flags, rcode, null, 0, 0, java.util.List.of(), java.util.List.of(), java.util.List.of());
        }
        return stamp(e, q, 0, edeCode, edeText);
    }

    /** A minimal FORMERR when even the question could not be read: header only, ID echoed. */
    public static byte[] formerrHeaderOnly(byte[] raw, int len) {
        byte[] r = new byte[12];
        r[0] = raw[0];
        r[1] = raw[1];
        int flags = Message.QR | (Message.u16(raw, 2) & (0x7800 | Message.RD)) | RrType.FORMERR;
        Encoded.put16(r, 2, flags);
        return r;
    }
}
