package lookout.engine.dns.answer;

import java.util.List;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;

/**
 * An answer for one (name, type): from upstream, a local zone, the cache or a synthetic name.
 * Immutable; {@link #encoded} is the wire form for exactly {@code qname}, stamped per client by
 * {@link lookout.engine.dns.wire.Responses}. The decoded records are not kept for cached upstream
 * answers (half the heap per cache entry): {@link #answer()} and friends decode them again from
 * the wire when a search composition or a trace needs them.
 */
public final class Answer {

    /* Concurrency: immutable once built, but for the decoded records of an upstream answer, made
     * on first use (answer() and friends). Cached answers are shared by the engine loop only;
     * an answer built on a listener's thread (a fast-path trace) is handed to the engine loop
     * through a release/acquire array and decoded there. A race on the lazy decode could only
     * decode twice the same immutable bytes. */

    public final String qname;
    public final int qtype;
    public final int qclass;
    public final int rcode;
    public final boolean authoritative;
    public final Encoded encoded;
    private final long cacheTtl;
    private final long minAnswerTtl;
    /** Where the answer's CNAME chain leaves off, or null ({@link #danglingTarget}). */
    private final String danglingTarget;
    private final int cnameLinks;
    private List<Rr> answer;
    private List<Rr> authority;
    private List<Rr> additional;

    public Answer(String qname, int qtype, int qclass, int rcode, boolean authoritative, List<Rr> answer,
           List<Rr> authority, List<Rr> additional) {
        this(qname, qtype, qclass, rcode, authoritative, answer, authority, additional, true);
    }

    private Answer(String qname, int qtype, int qclass, int rcode, boolean authoritative, List<Rr> answer,
                   List<Rr> authority, List<Rr> additional, boolean keepRecords) {
        this.qname = qname;
        this.qtype = qtype;
        this.qclass = qclass;
        this.rcode = rcode;
        this.authoritative = authoritative;
        int flags = Message.QR | Message.RA | (authoritative ? Message.AA : 0);
        this.encoded = Encoded.encode(flags, rcode, qname, qtype, qclass, answer, authority, additional);
        this.cacheTtl = cacheTtl(rcode, answer, authority);
        long min = Long.MAX_VALUE;
        for (Rr r : answer) {
            min = Math.min(min, r.ttl());
        }
        this.minAnswerTtl = answer.isEmpty() ? cacheTtl : min;
        this.cnameLinks = links(qname, answer);
        this.danglingTarget = cnameLinks == 0 ? null : dangling(qname, qtype, rcode, answer, authority);
        if (keepRecords) {
            this.answer = List.copyOf(answer);
            this.authority = List.copyOf(authority);
            this.additional = List.copyOf(additional);
        }
    }

    /** A positive answer already encoded (DYNA draws): records decoded on demand, like upstream ones. */
    private Answer(String qname, int qtype, int qclass, boolean authoritative, Encoded encoded, long ttl) {
        this.qname = qname;
        this.qtype = qtype;
        this.qclass = qclass;
        this.rcode = RrType.NOERROR;
        this.authoritative = authoritative;
        this.encoded = encoded;
        this.cacheTtl = Math.min(ttl, 86_400);
        this.minAnswerTtl = ttl;
        this.danglingTarget = null;
        this.cnameLinks = 0;
    }

    /**
     * Addresses drawn by the pools, all owned by {@code qname} with one TTL: A for IPv4, AAAA for
     * IPv6, AA set, encoded straight to the wire (the per-query path of DYNA names).
     */
    public static Answer addresses(String qname, int qtype, int qclass, long ttl, List<java.net.InetAddress> addresses) {
        int flags = Message.QR | Message.RA | Message.AA;
        return new Answer(qname, qtype, qclass, true, Encoded.addresses(flags, qname, qtype, qclass, ttl, addresses), ttl);
    }

    /** An upstream reply kept as it came ({@link Encoded#ofReply}): records decoded on demand. */
    private Answer(String qname, int qtype, int qclass, int rcode, Encoded encoded, long cacheTtl, long minAnswerTtl) {
        this.qname = qname;
        this.qtype = qtype;
        this.qclass = qclass;
        this.rcode = rcode;
        this.authoritative = false;
        this.encoded = encoded;
        this.cacheTtl = cacheTtl;
        this.minAnswerTtl = minAnswerTtl;
        this.danglingTarget = null;
        this.cnameLinks = 0;
    }

    /**
     * An upstream reply without CNAMEs, kept on the wire as it came (neither decoded into records
     * nor encoded again: the forwarding path's largest cost before), with what
     * {@link Message#scanRecords} learned of it.
     */
    public static Answer upstreamWire(String qname, int qtype, int qclass, int rcode, Encoded encoded, Message.Scan scan) {
        long ttl;
        if (rcode == RrType.NOERROR && scan.answers() > 0) {
            ttl = Math.min(scan.minAnswerTtl(), 86_400);
        } else if ((rcode == RrType.NXDOMAIN || rcode == RrType.NOERROR) && scan.soaTtl() >= 0) {
            ttl = Math.min(Math.min(scan.soaTtl(), scan.soaMinimum()), 10_800);
        } else {
            ttl = 0;
        }
        return new Answer(qname, qtype, qclass, rcode, encoded, ttl, scan.answers() > 0 ? scan.minAnswerTtl() : ttl);
    }

    /** An upstream answer: encoded once, records dropped (decoded again on demand). */
    public static Answer upstream(String qname, int qtype, int qclass, int rcode, List<Rr> answer, List<Rr> authority,
                           List<Rr> additional) {
        return new Answer(qname, qtype, qclass, rcode, false, answer, authority, additional, false);
    }

    public List<Rr> answer() {
        decode();
        return answer;
    }

    public List<Rr> authority() {
        decode();
        return authority;
    }

    public List<Rr> additional() {
        decode();
        return additional;
    }

    private void decode() {
        if (answer != null) {
            return;
        }
        byte[] w = encoded.wire();
        try {
            Message m = Message.decodeHeaderAndQuestion(w, w.length);
            Message.decodeRecords(w, w.length, m);
            answer = List.copyOf(m.answer);
            authority = List.copyOf(m.authority);
            additional = List.copyOf(m.additional);
        } catch (WireException e) {
            // our own encoding always decodes; keep the answer usable regardless
            answer = List.of();
            authority = List.of();
            additional = List.of();
        }
    }

    /**
     * RFC 1034 §4.3.2 step 3a: the name this answer's CNAME chain (from {@code qname}) leads to
     * when the answer stops there — no record of the asked type for it, and it is no NODATA or
     * NXDOMAIN of that name (NOERROR without an SOA) — so that whoever answers the client must go
     * on from it: a local zone's CNAME out of its zone, a DYNC's CNAME, an upstream's cut chain.
     * Null when there is nothing to follow (no CNAME, a whole chain, the type CNAME or ANY asked).
     */
    public String danglingTarget() {
        return danglingTarget;
    }

    /** How many CNAMEs the answer's chain from {@code qname} holds (0: none). */
    public int cnameLinks() {
        return cnameLinks;
    }

    /** The CNAMEs followed from {@code qname} through {@code answer} (at most one per record: a loop stops it). */
    private static int links(String qname, List<Rr> answer) {
        int links = 0;
        String name = qname;
        for (int hop = 0; hop < answer.size(); hop++) {
            Rr next = null;
            for (Rr r : answer) {
                if (r.type() == RrType.CNAME && r.name().equals(name)) {
                    next = r;
                    break;
                }
            }
            if (next == null) {
                break;
            }
            links++;
            name = Message.nameAt(next.rdata(), 0);
        }
        return links;
    }

    private static String dangling(String qname, int qtype, int rcode, List<Rr> answer, List<Rr> authority) {
        if (qtype == RrType.CNAME || qtype == RrType.ANY || rcode != RrType.NOERROR) {
            return null;
        }
        for (Rr r : authority) {
            if (r.type() == RrType.SOA) {
                return null; // NODATA for the chain's target: a whole answer
            }
        }
        String name = qname;
        for (int hop = 0; hop < answer.size(); hop++) {
            String from = name;
            for (Rr r : answer) {
                if (r.type() == RrType.CNAME && r.name().equals(from)) {
                    name = Message.nameAt(r.rdata(), 0);
                    break;
                }
            }
            if (name.equals(from)) {
                break;
            }
        }
        for (Rr r : answer) {
            if (r.type() == qtype && r.name().equals(name)) {
                return null;
            }
        }
        return name;
    }

    /** Every field as kept by {@link #CACHED}: records decoded again on demand. */
    private Answer(String qname, int qtype, int qclass, int rcode, boolean authoritative, Encoded encoded, long cacheTtl,
                   long minAnswerTtl, String danglingTarget, int cnameLinks) {
        this.qname = qname;
        this.qtype = qtype;
        this.qclass = qclass;
        this.rcode = rcode;
        this.authoritative = authoritative;
        this.encoded = encoded;
        this.cacheTtl = cacheTtl;
        this.minAnswerTtl = minAnswerTtl;
        this.danglingTarget = danglingTarget;
        this.cnameLinks = cnameLinks;
    }

    /**
     * The form the cache keeps an answer in: one array, no object per answer (see
     * {@link DnsCache}), read back into an equal answer (its records decoded from the wire when
     * asked for, as an upstream answer's are). A cache hit for a plain query is stamped from it
     * without making the answer: {@link #stampCached}.
     */
    public static final DnsCache.Codec<Answer> CACHED = new CacheForm();

    // the cached form: flags (1: AA, 2: qname other than the key's, 4: a dangling target),
    // rcode (2), qtype (2), qclass (2), cache TTL (8), least answer TTL (8), CNAME links (2),
    // wire length (4), TTL count (2), the TTL offsets (2 each: a message is at most 65 535
    // bytes, RFC 1035 §4.2.2), the wire, then the qname and the dangling target when flagged
    // (length 2, UTF-8)
    private static final int F_AA = 1;
    private static final int F_QNAME = 2;
    private static final int F_DANGLING = 4;
    private static final int WIRE_LENGTH_AT = 25;
    private static final int TTLS_AT = 31;

    private static final class CacheForm implements DnsCache.Codec<Answer> {
        @Override
        public int size(DnsCache.Key key, Answer a) {
            return TTLS_AT + 2 * a.encoded.ttlOffsets().length + a.encoded.wire().length
                    + (a.qname.equals(key.name()) ? 0 : 2 + utf8(a.qname).length)
                    + (a.danglingTarget == null ? 0 : 2 + utf8(a.danglingTarget).length);
        }

        @Override
        public void write(DnsCache.Key key, Answer a, byte[] to, int at) {
            boolean ownQname = !a.qname.equals(key.name());
            int[] ttls = a.encoded.ttlOffsets();
            byte[] wire = a.encoded.wire();
            to[at] = (byte) ((a.authoritative ? F_AA : 0) | (ownQname ? F_QNAME : 0) | (a.danglingTarget == null ? 0 : F_DANGLING));
            Encoded.put16(to, at + 1, a.encoded.rcode());
            Encoded.put16(to, at + 3, a.qtype);
            Encoded.put16(to, at + 5, a.qclass);
            put64(to, at + 7, a.cacheTtl);
            put64(to, at + 15, a.minAnswerTtl);
            Encoded.put16(to, at + 23, a.cnameLinks);
            Encoded.put32(to, at + WIRE_LENGTH_AT, wire.length);
            Encoded.put16(to, at + 29, ttls.length);
            int p = at + TTLS_AT;
            for (int off : ttls) {
                Encoded.put16(to, p, off);
                p += 2;
            }
            System.arraycopy(wire, 0, to, p, wire.length);
            p += wire.length;
            if (ownQname) {
                p = text(a.qname, to, p);
            }
            if (a.danglingTarget != null) {
                text(a.danglingTarget, to, p);
            }
        }

        @Override
        public Answer read(DnsCache.Key key, byte[] b, int at, int length) {
            int flags = b[at];
            int rcode = Message.u16(b, at + 1);
            int ttlCount = Message.u16(b, at + 29);
            int[] ttls = new int[ttlCount];
            int p = at + TTLS_AT;
            for (int i = 0; i < ttlCount; i++, p += 2) {
                ttls[i] = Message.u16(b, p);
            }
            int wireLength = (int) Message.u32(b, at + WIRE_LENGTH_AT);
            byte[] wire = java.util.Arrays.copyOfRange(b, p, p + wireLength);
            p += wireLength;
            String qname = key.name();
            if ((flags & F_QNAME) != 0) {
                int n = Message.u16(b, p);
                qname = new String(b, p + 2, n, java.nio.charset.StandardCharsets.UTF_8);
                p += 2 + n;
            }
            String dangling = null;
            if ((flags & F_DANGLING) != 0) {
                dangling = new String(b, p + 2, Message.u16(b, p), java.nio.charset.StandardCharsets.UTF_8);
            }
            return new Answer(qname, Message.u16(b, at + 3), Message.u16(b, at + 5), rcode, (flags & F_AA) != 0,
                    new Encoded(wire, ttls, rcode), get64(b, at + 7), get64(b, at + 15), dangling, Message.u16(b, at + 23));
        }

        private static byte[] utf8(String s) {
            return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        private static int text(String s, byte[] to, int at) {
            byte[] t = utf8(s);
            Encoded.put16(to, at, t.length);
            System.arraycopy(t, 0, to, at + 2, t.length);
            return at + 2 + t.length;
        }

        private static void put64(byte[] b, int at, long v) {
            Encoded.put32(b, at, v >>> 32);
            Encoded.put32(b, at + 4, v & 0xFFFF_FFFFL);
        }

        private static long get64(byte[] b, int at) {
            return (Message.u32(b, at) << 32) | Message.u32(b, at + 4);
        }
    }

    /**
     * A cache hit for a plain query answered from the cached form at {@code at} of {@code blob}
     * without making the answer: the same bytes {@link lookout.engine.dns.wire.Responses#stampInto}
     * gives for it, into {@code out}; their length, or -1 when the answer has a CNAME to follow or
     * does not fit the client (then the resolver has the question).
     */
    public static int stampCached(byte[] out, byte[] blob, int at, PlainQuery q, long elapsedSeconds) {
        if ((blob[at] & F_DANGLING) != 0) {
            return -1;
        }
        int ttlCount = Message.u16(blob, at + 29);
        int wireAt = at + TTLS_AT + 2 * ttlCount;
        int full = Responses.copyInto(out, blob, wireAt, (int) Message.u32(blob, at + WIRE_LENGTH_AT),
                Message.u16(blob, at + 1), q);
        if (full >= 0 && elapsedSeconds > 0) {
            for (int i = 0, p = at + TTLS_AT; i < ttlCount; i++, p += 2) {
                Responses.lowerTtl(out, Message.u16(blob, p), elapsedSeconds);
            }
        }
        return full;
    }

    public boolean nxdomain() {
        return rcode == RrType.NXDOMAIN;
    }

    /**
     * How long it may be cached: positive, the smallest answer TTL (at most a day); negative
     * (RFC 2308 §5), min(SOA TTL, SOA MINIMUM) of the authority SOA (at most 3 h), and not at all
     * without one.
     */
    public long cacheTtl() {
        return cacheTtl;
    }

    /** The smallest TTL of the answer section, the negative TTL when empty (for the search CNAME). */
    public long minAnswerTtl() {
        return minAnswerTtl;
    }

    private static long cacheTtl(int rcode, List<Rr> answer, List<Rr> authority) {
        if (rcode == RrType.NOERROR && !answer.isEmpty()) {
            long min = Long.MAX_VALUE;
            for (Rr r : answer) {
                min = Math.min(min, r.ttl());
            }
            return Math.min(min, 86_400);
        }
        if (rcode == RrType.NXDOMAIN || (rcode == RrType.NOERROR && answer.isEmpty())) {
            for (Rr r : authority) {
                if (r.type() == RrType.SOA && r.rdata().length >= 20) {
                    long minimum = Message.u32(r.rdata(), r.rdata().length - 4);
                    return Math.min(Math.min(r.ttl(), minimum), 10_800);
                }
            }
        }
        return 0;
    }
}
