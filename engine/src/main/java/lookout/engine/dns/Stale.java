package lookout.engine.dns;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;

/** RFC 8767 serve-stale: which expired answers may be given, and how they go out. */
final class Stale {

    /** RFC 8767 §4: the TTL of stale data in a response. */
    static final long TTL = 30;
    /** RFC 8914 INFO-CODE 3: Stale Answer. */
    static final int EDE_STALE_ANSWER = 3;

    private Stale() {
    }

    /** Only a positive answer is served stale: never an expired NXDOMAIN or NODATA. */
    static boolean servable(Answer a) {
        return a.rcode == RrType.NOERROR && !a.answer().isEmpty();
    }

    /** {@code a} with every TTL at most {@value #TTL} s (not authoritative: it is no fresh data). */
    static Answer capped(Answer a) {
        return new Answer(a.qname, a.qtype, a.qclass, a.rcode, false, capped(a.answer()), capped(a.authority()),
                List.of());
    }

    private static List<Rr> capped(List<Rr> records) {
        List<Rr> out = new ArrayList<>(records.size());
        for (Rr r : records) {
            out.add(r.ttl() > TTL ? r.withTtl(TTL) : r);
        }
        return out;
    }
}
