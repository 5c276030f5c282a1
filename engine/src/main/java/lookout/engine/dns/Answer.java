package lookout.engine.dns;

import java.util.List;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;

/**
 * An answer for one (name, type): from upstream, a local zone, the cache or a synthetic name.
 * Immutable once built; {@link #encoded} is the wire form for exactly {@code qname}, stamped per
 * client by {@link lookout.engine.dns.wire.Responses}.
 */
final class Answer {

    final String qname;
    final int qtype;
    final int qclass;
    final int rcode;
    final boolean authoritative;
    final List<Rr> answer;
    final List<Rr> authority;
    final List<Rr> additional;
    final Encoded encoded;

    Answer(String qname, int qtype, int qclass, int rcode, boolean authoritative, List<Rr> answer,
           List<Rr> authority, List<Rr> additional) {
        this.qname = qname;
        this.qtype = qtype;
        this.qclass = qclass;
        this.rcode = rcode;
        this.authoritative = authoritative;
        this.answer = List.copyOf(answer);
        this.authority = List.copyOf(authority);
        this.additional = List.copyOf(additional);
        int flags = Message.QR | Message.RA | (authoritative ? Message.AA : 0);
        this.encoded = Encoded.encode(flags, rcode, qname, qtype, qclass, this.answer, this.authority, this.additional);
    }

    boolean nxdomain() {
        return rcode == RrType.NXDOMAIN;
    }

    /**
     * How long it may be cached: positive, the smallest answer TTL; negative (RFC 2308 §5),
     * min(SOA TTL, SOA MINIMUM) of the authority SOA, and not at all without one.
     */
    long cacheTtl() {
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
                    long minimum = lookout.engine.dns.wire.Message.u32(r.rdata(), r.rdata().length - 4);
                    return Math.min(Math.min(r.ttl(), minimum), 10_800);
                }
            }
        }
        return 0;
    }

    /** The smallest TTL of the answer section, 0 when empty (for the search CNAME). */
    long minAnswerTtl() {
        long min = Long.MAX_VALUE;
        for (Rr r : answer) {
            min = Math.min(min, r.ttl());
        }
        return answer.isEmpty() ? cacheTtl() : min;
    }
}
