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
            finishHeader(t, q.id, q.flags, q.raw, q.questionLength, q.ednsDo, e.rcode(), opt, ede, qEnd);
            return t;
        }
        byte[] r = new byte[full];
        System.arraycopy(w, 0, r, 0, w.length);
        if (elapsedSeconds > 0) {
            for (int off : e.ttlOffsets()) {
                lowerTtl(r, off, elapsedSeconds);
            }
        }
        finishHeader(r, q.id, q.flags, q.raw, q.questionLength, q.ednsDo, e.rcode(), opt, ede, w.length);
        return r;
    }

    /** The client's ID, RD/CD bits and spelling of the question; our OPT at {@code optAt} when it sent EDNS. */
    private static void finishHeader(byte[] r, int id, int queryFlags, byte[] query, int questionLength, boolean ednsDo,
                                     int rcode, boolean opt, byte[] ede, int optAt) {
        Encoded.put16(r, 0, id);
        int flags = Message.u16(r, 2) & ~(Message.RD | Message.CD);
        flags |= queryFlags & (Message.RD | Message.CD);
        Encoded.put16(r, 2, flags);
        // the question as the client spelled it (DNS 0x20)
        System.arraycopy(query, 12, r, 12, Math.min(questionLength, r.length - 12));
        if (opt) {
            Encoded.put16(r, 10, Message.u16(r, 10) + 1);
            putOpt(r, optAt, rcode, ednsDo, ede);
        }
    }

    /** Our OPT record at {@code p}: payload size, extended RCODE, DO echoed, an EDE option if any. */
    private static void putOpt(byte[] r, int p, int rcode, boolean ednsDo, byte[] ede) {
        r[p] = 0;
        Encoded.put16(r, p + 1, RrType.OPT);
        Encoded.put16(r, p + 3, OUR_PAYLOAD);
        r[p + 5] = (byte) (rcode >>> 4);
        r[p + 6] = 0;
        Encoded.put16(r, p + 7, ednsDo ? 0x8000 : 0);
        Encoded.put16(r, p + 9, ede == null ? 0 : ede.length);
        if (ede != null) {
            System.arraycopy(ede, 0, r, p + 11, ede.length);
        }
    }

    /**
     * {@link #stamp} for a query read by {@link PlainQuery}, into {@code out}: the answer's
     * length, or -1 when it does not fit the client (then {@link #stamp} cuts it).
     */
    public static int stampInto(byte[] out, Encoded e, PlainQuery q) {
        return stampInto(out, e, q, 0);
    }

    /**
     * {@link #stampInto(byte[], Encoded, PlainQuery)} with each TTL lowered by
     * {@code elapsedSeconds} (never below 0), as {@link #stamp} lowers them: a cache hit.
     */
    public static int stampInto(byte[] out, Encoded e, PlainQuery q, long elapsedSeconds) {
        byte[] w = e.wire();
        int full = copyInto(out, w, 0, w.length, e.rcode(), q);
        if (full >= 0 && elapsedSeconds > 0) {
            for (int off : e.ttlOffsets()) {
                lowerTtl(out, off, elapsedSeconds);
            }
        }
        return full;
    }

    /**
     * {@link #stampInto(byte[], Encoded, PlainQuery)} for an encoded response kept elsewhere than
     * in an {@link Encoded} ({@code length} bytes of {@code from} at {@code at}, e.g. a cache
     * entry's): the answer's length in {@code out}, or -1 when it does not fit the client. TTLs
     * are left as they are: {@link #lowerTtl} each.
     */
    public static int copyInto(byte[] out, byte[] from, int at, int length, int rcode, PlainQuery q) {
        int full = length + (q.edns ? 11 : 0);
        if (full > q.maxSize() || full > out.length || length < 12 + q.questionLength) {
            return -1;
        }
        System.arraycopy(from, at, out, 0, length);
        finishHeader(out, q.id, q.flags, q.raw, q.questionLength, q.ednsDo, rcode, q.edns, null, length);
        return full;
    }

    /** The TTL at {@code offset} lowered by {@code elapsedSeconds}, never below 0 (a cache hit). */
    public static void lowerTtl(byte[] r, int offset, long elapsedSeconds) {
        Encoded.put32(r, offset, Math.max(0, Message.u32(r, offset) - elapsedSeconds));
    }

    /**
     * A pool's draw for a query read by {@link PlainQuery}, into {@code out}, exactly as
     * {@link Encoded#addresses} encodes and {@link #stamp} stamps it (authoritative, each record's
     * owner a pointer to the question): the answer's length, or -1 when no address is of the asked
     * family ({@link RrType#carries}: NODATA) or the answer does not fit the client.
     */
    public static int addressesInto(byte[] out, PlainQuery q, java.util.List<java.net.InetAddress> all, long ttl) {
        int count = 0;
        int rdata = 0;
        for (int i = 0, n = all.size(); i < n; i++) {
            java.net.InetAddress x = all.get(i);
            if (RrType.carries(q.qtype, x)) {
                count++;
                rdata += 12 + (x instanceof java.net.Inet4Address ? 4 : 16);
            }
        }
        int full = 12 + q.questionLength + rdata + (q.edns ? 11 : 0);
        if (count == 0 || full > q.maxSize() || full > out.length) {
            return -1;
        }
        Encoded.put16(out, 0, q.id);
        Encoded.put16(out, 2, Message.QR | Message.AA | Message.RA | (q.flags & (Message.RD | Message.CD)));
        Encoded.put16(out, 4, 1);
        Encoded.put16(out, 6, count);
        Encoded.put16(out, 8, 0);
        Encoded.put16(out, 10, q.edns ? 1 : 0);
        System.arraycopy(q.raw, 12, out, 12, q.questionLength);
        int pos = 12 + q.questionLength;
        for (int i = 0, n = all.size(); i < n; i++) {
            java.net.InetAddress x = all.get(i);
            if (RrType.carries(q.qtype, x)) {
                byte[] ip = x.getAddress();
                Encoded.put16(out, pos, 0xC000 | 12); // the question's name
                Encoded.put16(out, pos + 2, ip.length == 4 ? RrType.A : RrType.AAAA);
                Encoded.put16(out, pos + 4, RrType.IN);
                Encoded.put32(out, pos + 6, ttl);
                Encoded.put16(out, pos + 10, ip.length);
                System.arraycopy(ip, 0, out, pos + 12, ip.length);
                pos += 12 + ip.length;
            }
        }
        if (q.edns) {
            putOpt(out, pos, RrType.NOERROR, q.ednsDo, null);
        }
        return full;
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
