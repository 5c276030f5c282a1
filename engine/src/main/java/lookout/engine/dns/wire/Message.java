package lookout.engine.dns.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * A DNS message decoded from the wire: header, the one question, the three record sections (the
 * OPT pseudo-record is taken out and summarised in the EDNS fields). Decoding is strict: every
 * record must lie wholly inside the message, names must be well formed, compression pointers must
 * point backwards, and nothing may follow the last record. Decoding never throws anything but
 * {@link WireException}.
 */
public final class Message {

    public int id;
    public int flags;          // the 16 header flag bits, rcode in the low 4 bits
    public int qdCount;
    public String qname;
    public int qtype;
    public int qclass;
    /** Offset just past the question (the first record), for callers that stop there. */
    public int afterQuestion;
    public final List<Rr> answer = new ArrayList<>();
    public final List<Rr> authority = new ArrayList<>();
    public final List<Rr> additional = new ArrayList<>();
    public boolean edns;
    public int ednsUdpSize;
    public int ednsVersion;
    public int ednsExtRcode;   // upper 8 bits of the extended rcode
    public boolean ednsDo;

    // the header's flag bits, named where most callers look for them (Header holds them)
    public static final int QR = Header.QR;
    public static final int AA = Header.AA;
    public static final int TC = Header.TC;
    public static final int RD = Header.RD;
    public static final int RA = Header.RA;
    public static final int AD = Header.AD;
    public static final int CD = Header.CD;

    public boolean isResponse() {
        return (flags & QR) != 0;
    }

    public boolean truncated() {
        return (flags & TC) != 0;
    }

    public int opcode() {
        return Header.opcode(flags);
    }

    /** The full response code, with the EDNS extension (RFC 6891 §6.1.3). */
    public int rcode() {
        return (ednsExtRcode << 4) | (flags & 0xF);
    }

    /**
     * Decodes the header and the question only (QDCOUNT must be 0 or 1). The rest is decoded by
     * {@link #decodeRecords(byte[], int, Message)}.
     */
    public static Message decodeHeaderAndQuestion(byte[] m, int len) throws WireException {
        if (len < 12) {
            throw new WireException("message shorter than a header");
        }
        Message msg = new Message();
        msg.id = u16(m, 0);
        msg.flags = u16(m, 2);
        msg.qdCount = u16(m, 4);
        int pos = 12;
        if (msg.qdCount > 1) {
            throw new WireException("more than one question");
        }
        if (msg.qdCount == 1) {
            StringBuilder sb = new StringBuilder(32);
            pos = readName(m, len, pos, sb);
            if (pos + 4 > len) {
                throw new WireException("question cut short");
            }
            msg.qname = sb.toString();
            msg.qtype = u16(m, pos);
            msg.qclass = u16(m, pos + 2);
            pos += 4;
        }
        msg.afterQuestion = pos;
        return msg;
    }

    /** Decodes the answer, authority and additional sections that follow the question. */
    public static void decodeRecords(byte[] m, int len, Message msg) throws WireException {
        walk(m, len, msg, null);
    }

    /**
     * Checks the records after the question exactly as {@link #decodeRecords} does — it throws
     * for the same messages — but keeps no record: it notes in {@code scan} where each TTL lies
     * and what the cache needs to know (the answer's smallest TTL, the SOA's, a CNAME, the OPT
     * record). A reply that is kept as it came ({@link Encoded#ofReply}) is read this way.
     */
    public static void scanRecords(byte[] m, int len, Message msg, Scan scan) throws WireException {
        scan.reset();
        walk(m, len, msg, scan);
    }

    /** What {@link #scanRecords} learned of a reply's records; reused from reply to reply. */
    public static final class Scan {
        /** TTL offsets of the records but the OPT, in order; {@link #records} of them. */
        int[] ttlOffsets = new int[16];
        int records;
        /** Where the OPT record starts, -1 without one, and whether it is the last record. */
        int optStart;
        boolean optLast;
        /** Answer records, and the smallest TTL among them. */
        int answers;
        long minAnswerTtl;
        /** A CNAME or DNAME in the answer section (then the reply is decoded: its chain matters). */
        boolean aliases;
        /** The first SOA of the authority section: its TTL and its MINIMUM, -1 without one. */
        long soaTtl;
        long soaMinimum;
        /** Some TTL above 2^31 - 1, which RFC 2181 §8 reads as zero. */
        boolean hugeTtl;
        final byte[] scratch = new byte[532];
        int labels;
        final WireName.Labels count = (b, offset, length) -> {
            labels++;
            return true;
        };

        void reset() {
            records = 0;
            optStart = -1;
            optLast = false;
            answers = 0;
            minAnswerTtl = Long.MAX_VALUE;
            aliases = false;
            soaTtl = -1;
            soaMinimum = -1;
            hugeTtl = false;
        }

        /** Whether the reply can be kept as it came: no alias to follow, and no OPT record or the last one. */
        public boolean keepable() {
            return !aliases && (optStart < 0 || optLast);
        }

        public long minAnswerTtl() {
            return minAnswerTtl;
        }

        public int answers() {
            return answers;
        }

        public long soaTtl() {
            return soaTtl;
        }

        public long soaMinimum() {
            return soaMinimum;
        }

        private void ttlAt(int offset) {
            if (records == ttlOffsets.length) {
                ttlOffsets = java.util.Arrays.copyOf(ttlOffsets, records * 2);
            }
            ttlOffsets[records++] = offset;
        }
    }

    /** One pass over the records: decoded into {@code msg} when {@code scan} is null, else only checked and noted. */
    private static void walk(byte[] m, int len, Message msg, Scan scan) throws WireException {
        int an = u16(m, 6);
        int ns = u16(m, 8);
        int ar = u16(m, 10);
        int pos = msg.afterQuestion;
        StringBuilder sb = scan == null ? new StringBuilder(32) : null;
        boolean sawOpt = false;
        for (int section = 0; section < 3; section++) {
            int count = section == 0 ? an : section == 1 ? ns : ar;
            List<Rr> into = section == 0 ? msg.answer : section == 1 ? msg.authority : msg.additional;
            for (int i = 0; i < count; i++) {
                int start = pos;
                boolean root;
                if (scan == null) {
                    sb.setLength(0);
                    pos = readName(m, len, pos, sb);
                    root = sb.length() == 1 && sb.charAt(0) == '.';
                } else {
                    scan.labels = 0;
                    pos = WireName.readOrThrow(m, len, pos, scan.count, "the end of the message");
                    root = scan.labels == 0;
                }
                if (pos + 10 > len) {
                    throw new WireException("record header cut short");
                }
                int type = u16(m, pos);
                int cls = u16(m, pos + 2);
                long ttl = u32(m, pos + 4);
                int rdlen = u16(m, pos + 8);
                pos += 10;
                if (pos + rdlen > len) {
                    throw new WireException("record data runs past the end of the message");
                }
                if (type == RrType.OPT) {
                    if (section != 2 || sawOpt || !root) {
                        throw new WireException("misplaced or repeated OPT record");
                    }
                    sawOpt = true;
                    msg.edns = true;
                    msg.ednsUdpSize = cls;
                    msg.ednsExtRcode = (int) (ttl >>> 24) & 0xFF;
                    msg.ednsVersion = (int) (ttl >>> 16) & 0xFF;
                    msg.ednsDo = (ttl & 0x8000) != 0;
                    checkOptions(m, pos, rdlen);
                    pos += rdlen;
                    if (scan != null) {
                        scan.optStart = start;
                        scan.optLast = section == 2 && i == count - 1;
                    }
                    continue;
                }
                if (scan == null) {
                    byte[] rdata = decodeRdata(m, len, pos, rdlen, type);
                    // most owners are the question's name: share that string instead of a copy per record
                    String owner = msg.qname != null && msg.qname.contentEquals(sb) ? msg.qname : sb.toString();
                    into.add(new Rr(owner, type, cls, ttl > 0x7FFFFFFFL ? 0 : ttl, rdata));
                } else {
                    rdataInto(m, len, pos, rdlen, type, scan.scratch);
                    long t = ttl > 0x7FFFFFFFL ? 0 : ttl;
                    scan.hugeTtl |= ttl > 0x7FFFFFFFL;
                    scan.ttlAt(pos - 6);
                    if (section == 0) {
                        scan.answers++;
                        scan.minAnswerTtl = Math.min(scan.minAnswerTtl, t);
                        scan.aliases |= type == RrType.CNAME || type == 39; // DNAME
                    } else if (section == 1 && type == RrType.SOA && scan.soaTtl < 0 && rdlen >= 22) {
                        scan.soaTtl = t;
                        scan.soaMinimum = u32(m, pos + rdlen - 4);
                    }
                }
                pos += rdlen;
            }
        }
        if (pos != len) {
            throw new WireException("trailing bytes after the last record");
        }
    }

    private static void checkOptions(byte[] m, int pos, int rdlen) throws WireException {
        String problem = optionsProblem(m, pos, pos + rdlen);
        if (problem != null) {
            throw new WireException(problem);
        }
    }

    /**
     * What is wrong with the EDNS options in {@code m[pos, end)} (RFC 6891 §6.1.2: code, length,
     * data, filling the OPT record's RDATA exactly), or null when they are well formed. One check
     * for every reader of an OPT record: replies, client queries and the listeners' fast read.
     */
    public static String optionsProblem(byte[] m, int pos, int end) {
        while (pos < end) {
            if (pos + 4 > end) {
                return "EDNS option header cut short";
            }
            pos += 4 + u16(m, pos + 2);
            if (pos > end) {
                return "EDNS option runs past its record";
            }
        }
        return null;
    }

    /** RDATA with names decompressed, for the RFC 1035 types that may carry compressed names. */
    private static byte[] decodeRdata(byte[] m, int len, int pos, int rdlen, int type) throws WireException {
        byte[] out = new byte[532];
        int n = rdataInto(m, len, pos, rdlen, type, out);
        return n < 0 ? java.util.Arrays.copyOfRange(m, pos, pos + rdlen) : java.util.Arrays.copyOf(out, n);
    }

    /**
     * Checks RDATA and writes it into {@code out} (at least 532 bytes) with its names
     * decompressed: its length there, or -1 for RDATA that carries no name and is taken as it is.
     */
    private static int rdataInto(byte[] m, int len, int pos, int rdlen, int type, byte[] out) throws WireException {
        int end = pos + rdlen;
        switch (type) {
            case RrType.NS, RrType.CNAME, RrType.PTR, 3, 4, 7, 8, 9, 39 -> {
                return copyName(m, end, pos, out, 0, true);
            }
            case RrType.MX, 18, 21 -> {
                if (rdlen < 3) {
                    throw new WireException("MX record too short");
                }
                out[0] = m[pos];
                out[1] = m[pos + 1];
                return copyName(m, end, pos + 2, out, 2, true);
            }
            case RrType.SOA -> {
                int[] next = new int[1];
                int o = copyName(m, end, pos, out, 0, next);
                o = copyName(m, end, next[0], out, o, next);
                if (next[0] + 20 != end) {
                    throw new WireException("SOA record has the wrong length");
                }
                System.arraycopy(m, next[0], out, o, 20);
                return o + 20;
            }
            case RrType.A -> {
                if (rdlen != 4) {
                    throw new WireException("A record is not 4 bytes");
                }
                return -1;
            }
            case RrType.AAAA -> {
                if (rdlen != 16) {
                    throw new WireException("AAAA record is not 16 bytes");
                }
                return -1;
            }
            default -> {
                return -1;
            }
        }
    }

    /** Copies one (possibly compressed) name that must end exactly at {@code end}. */
    private static int copyName(byte[] m, int end, int pos, byte[] out, int o, boolean mustFill) throws WireException {
        int[] next = new int[1];
        int r = copyName(m, end, pos, out, o, next);
        if (mustFill && next[0] != end) {
            throw new WireException("name does not fill its record");
        }
        return r;
    }

    /** Copies the name at {@code pos}, decompressed, into {@code out} at {@code o}; {@code next[0]}: the offset after it. */
    private static int copyName(byte[] m, int end, int pos, byte[] out, int o, int[] next) throws WireException {
        Copy c = new Copy(out, o);
        next[0] = WireName.readOrThrow(m, end, pos, c, "its bounds");
        out[c.at] = 0;
        return c.at + 1;
    }

    /** Copies labels as they come, length byte first: a name decompressed. */
    private static final class Copy implements WireName.Labels {
        private final byte[] out;
        int at;

        Copy(byte[] out, int at) {
            this.out = out;
            this.at = at;
        }

        @Override
        public boolean label(byte[] m, int offset, int length) {
            out[at++] = (byte) length;
            System.arraycopy(m, offset, out, at, length);
            at += length;
            return true;
        }
    }

    /**
     * Reads a possibly compressed name at {@code pos} into {@code sb} (presentation form, lower
     * case); returns the offset after the name in its original place.
     */
    public static int readName(byte[] m, int len, int pos, StringBuilder sb) throws WireException {
        int after = WireName.readOrThrow(m, len, pos, (b, offset, length) -> {
            Names.appendLabel(sb, b, offset, length);
            return true;
        }, "the end of the message");
        if (sb.length() == 0) {
            sb.append('.');
        }
        return after;
    }

    /** Reads an uncompressed name from RDATA already decompressed (zone data, cached records). */
    public static String nameAt(byte[] rdata, int pos) {
        StringBuilder sb = new StringBuilder();
        try {
            readName(rdata, rdata.length, pos, sb);
        } catch (WireException e) {
            return "?";
        }
        return sb.toString();
    }

    public static int u16(byte[] m, int off) {
        return ((m[off] & 0xFF) << 8) | (m[off + 1] & 0xFF);
    }

    public static long u32(byte[] m, int off) {
        return ((long) (m[off] & 0xFF) << 24) | ((m[off + 1] & 0xFF) << 16) | ((m[off + 2] & 0xFF) << 8) | (m[off + 3] & 0xFF);
    }
}
