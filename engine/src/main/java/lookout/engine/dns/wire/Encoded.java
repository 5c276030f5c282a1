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

    /** Length of the question name in {@code wire} (it starts at offset 12). */
    public int qnameLength() {
        int p = 12;
        while (p < wire.length && wire[p] != 0) {
            p += (wire[p] & 0xFF) + 1;
        }
        return p + 1 - 12;
    }

    /**
     * Encodes a response. {@code flags} are the header flags (QR, AA, RA ...) without the rcode;
     * owner names are compressed against earlier names, RDATA is written as given.
     */
    public static Encoded encode(int flags, int rcode, String qname, int qtype, int qclass,
                                 List<Rr> an, List<Rr> ns, List<Rr> ar) {
        int size = 12 + 260;
        for (List<Rr> l : List.of(an, ns, ar)) {
            for (Rr r : l) {
                size += 10 + 258 + r.rdata().length;
            }
        }
        byte[] out = new byte[size];
        int[] ttlOffsets = new int[an.size() + ns.size() + ar.size()];
        Map<String, Integer> names = new HashMap<>();
        put16(out, 2, (flags & ~0xF) | (rcode & 0xF));
        put16(out, 4, qname == null ? 0 : 1);
        put16(out, 6, an.size());
        put16(out, 8, ns.size());
        put16(out, 10, ar.size());
        int pos = 12;
        if (qname != null) {
            pos = writeName(qname, out, pos, names);
            put16(out, pos, qtype);
            put16(out, pos + 2, qclass);
            pos += 4;
        }
        int k = 0;
        for (List<Rr> l : List.of(an, ns, ar)) {
            for (Rr r : l) {
                pos = writeName(r.name(), out, pos, names);
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

    static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    static void put32(byte[] b, int off, long v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }
}
