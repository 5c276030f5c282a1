package lookout.engine.dns.wire;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A response encoded once (ID 0, no OPT record), ready to be stamped for any client: the cache
 * keeps these, so a cache hit is one array copy plus a few patched fields.
 *
 * @param wire       the message: header, question (lower case), records
 * @param ttlOffsets where each record's TTL sits in {@code wire}
 * @param rcode      the full response code (may exceed 15: needs an OPT record to carry it)
 */
public record Encoded(byte[] wire, int[] ttlOffsets, int rcode) {

    /**
     * Encodes a response. {@code flags} are the header flags (QR, AA, RA ...) without the rcode;
     * owner names are compressed against earlier names, RDATA is written as given.
     */
    public static Encoded encode(int flags, int rcode, String qname, int qtype, int qclass,
                                 List<Rr> an, List<Rr> ns, List<Rr> ar) {
        int size = 12 + 260 + bound(an) + bound(ns) + bound(ar);
        byte[] out = new byte[size];
        int[] ttlOffsets = new int[an.size() + ns.size() + ar.size()];
        put16(out, 2, (flags & ~0xF) | (rcode & 0xF));
        put16(out, 4, qname == null ? 0 : 1);
        put16(out, 6, an.size());
        put16(out, 8, ns.size());
        put16(out, 10, ar.size());
        int pos = 12;
        // hot path (local and DYNA answers): most owners are the question name itself, so the
        // question is written plainly and owners equal to it become a pointer to offset 12; the
        // suffix table for other names is built only when one turns up
        Map<String, Integer> names = null;
        boolean plainQname = qname != null && !qname.equals(".") && qname.indexOf('\\') < 0;
        if (qname != null) {
            if (plainQname) {
                pos = Names.toWire(qname, out, pos);
                if (pos < 0) {
                    throw new IllegalArgumentException("bad name " + qname);
                }
            } else {
                names = new HashMap<>();
                pos = writeName(qname, out, pos, names);
            }
            put16(out, pos, qtype);
            put16(out, pos + 2, qclass);
            pos += 4;
        } else {
            names = new HashMap<>();
        }
        int k = 0;
        for (int section = 0; section < 3; section++) {
            List<Rr> l = section == 0 ? an : section == 1 ? ns : ar;
            for (int i = 0, n = l.size(); i < n; i++) {
                Rr r = l.get(i);
                if (plainQname && r.name().equals(qname)) {
                    put16(out, pos, 0xC000 | 12);
                    pos += 2;
                } else {
                    if (names == null) {
                        names = qnameSuffixes(qname);
                    }
                    pos = writeName(r.name(), out, pos, names);
                }
                put16(out, pos, r.type());
                put16(out, pos + 2, r.cls());
                ttlOffsets[k++] = pos + 4;
                put32(out, pos + 4, r.ttl());
                put16(out, pos + 8, r.rdata().length);
                pos += 10;
                System.arraycopy(r.rdata(), 0, out, pos, r.rdata().length);
                pos += r.rdata().length;
            }
        }
        return new Encoded(java.util.Arrays.copyOf(out, pos), ttlOffsets, rcode);
    }

    /**
     * An upstream reply kept as it came, checked by {@link Message#scanRecords}: its bytes up to
     * its OPT record (our own goes in when it is stamped for a client), ID 0, the header flags of
     * a forwarded answer (QR, RA and the response code; RD and CD are each client's), TTLs above
     * 2^31 - 1 read as zero (RFC 2181 §8). Its compression pointers stay valid: nothing before the
     * OPT record moves, and every client's question has the same length as ours.
     */
    public static Encoded ofReply(byte[] m, int len, Message.Scan scan, int rcode) {
        int end = scan.optStart >= 0 ? scan.optStart : len;
        byte[] w = java.util.Arrays.copyOf(m, end);
        put16(w, 0, 0);
        put16(w, 2, Message.QR | Message.RA | (rcode & 0xF));
        if (scan.optStart >= 0) {
            put16(w, 10, Message.u16(w, 10) - 1);
        }
        int[] ttls = java.util.Arrays.copyOf(scan.ttlOffsets, scan.records);
        if (scan.hugeTtl) {
            for (int off : ttls) {
                if (Message.u32(w, off) > 0x7FFFFFFFL) {
                    put32(w, off, 0);
                }
            }
        }
        return new Encoded(w, ttls, rcode);
    }

    /**
     * A positive answer of addresses owned by the question name (A for IPv4, AAAA for IPv6, one
     * TTL), each owner a pointer to the question: the same bytes {@link #encode} gives for those
     * records, without building them.
     */
    public static Encoded addresses(int flags, String qname, int qtype, int qclass, long ttl,
                                    List<java.net.InetAddress> addresses) {
        int n = addresses.size();
        boolean plain = qname.length() > 1 && qname.endsWith(".") && qname.indexOf('\\') < 0;
        int rdata = 0;
        for (int i = 0; i < n; i++) {
            rdata += 12 + (addresses.get(i) instanceof java.net.Inet4Address ? 4 : 16);
        }
        // a plain fully qualified name takes its length + 1 on the wire: the exact size, no copy
        // (this runs once per DYNA answer)
        byte[] out = new byte[12 + (plain ? qname.length() + 1 : 256) + 4 + rdata];
        int[] ttlOffsets = new int[n];
        put16(out, 2, flags & ~0xF);
        put16(out, 4, 1);
        put16(out, 6, n);
        int pos;
        if (qname.equals(".") || qname.indexOf('\\') >= 0) {
            pos = writeName(qname, out, 12, new HashMap<>());
        } else {
            pos = Names.toWire(qname, out, 12);
            if (pos < 0) {
                throw new IllegalArgumentException("bad name " + qname);
            }
        }
        put16(out, pos, qtype);
        put16(out, pos + 2, qclass);
        pos += 4;
        for (int i = 0; i < n; i++) {
            byte[] ip = addresses.get(i).getAddress();
            put16(out, pos, 0xC000 | 12);
            put16(out, pos + 2, ip.length == 4 ? RrType.A : RrType.AAAA);
            put16(out, pos + 4, RrType.IN);
            ttlOffsets[i] = pos + 6;
            put32(out, pos + 6, ttl);
            put16(out, pos + 10, ip.length);
            System.arraycopy(ip, 0, out, pos + 12, ip.length);
            pos += 12 + ip.length;
        }
        return new Encoded(pos == out.length ? out : java.util.Arrays.copyOf(out, pos), ttlOffsets, 0);
    }

    private static int bound(List<Rr> l) {
        int size = 0;
        for (int i = 0, n = l.size(); i < n; i++) {
            size += 10 + 258 + l.get(i).rdata().length;
        }
        return size;
    }

    /**
     * The compression table {@link #writeName} would have built for a plain (escape-free) question
     * name at offset 12: each suffix sits at 12 + its index in the presentation form.
     */
    private static Map<String, Integer> qnameSuffixes(String qname) {
        Map<String, Integer> names = new HashMap<>();
        if (qname.equals(".")) {
            return names;
        }
        int i = 0;
        while (i < qname.length()) {
            names.put(qname.substring(i), 12 + i);
            int dot = qname.indexOf('.', i);
            if (dot < 0) {
                break;
            }
            i = dot + 1;
        }
        return names;
    }

    private static int writeName(String name, byte[] out, int pos, Map<String, Integer> names) {
        String n = name;
        while (n != null && !n.equals(".")) {
            Integer at = names.get(n);
            if (at != null) {
                put16(out, pos, 0xC000 | at);
                return pos + 2;
            }
            if (pos < 0x3FFF) {
                names.put(n, pos);
            }
            String parent = Names.parent(n);
            // one label: everything of n before the parent
            int labelChars = n.length() - (parent.equals(".") ? 0 : parent.length());
            String label = n.substring(0, labelChars);
            int end = Names.toWire(label, out, pos);
            if (end < 0) {
                throw new IllegalArgumentException("bad name " + name);
            }
            pos = end - 1; // drop the root terminator written after the single label
            n = parent;
        }
        out[pos] = 0;
        return pos + 1;
    }

    public static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    public static void put32(byte[] b, int off, long v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
