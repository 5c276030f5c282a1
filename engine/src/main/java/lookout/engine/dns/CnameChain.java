package lookout.engine.dns;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.wire.Rr;

/**
 * The CNAME chain a client's answer is completed along (RFC 1034 §4.3.2 step 3a: copy the CNAME
 * into the answer, change the name to its target, start again): the records of each link so far,
 * the names met (a loop is a name met twice), the CNAMEs counted against the limit of
 * {@value #MAX_LINKS}, and whether every link came from this server's own zones (then the answer
 * is authoritative). The client gets the whole chain, then the target's records — or its NXDOMAIN
 * or NODATA with its SOA.
 */
final class CnameChain {

    /* Concurrency: one per question, the engine loop's. */

    /** CNAMEs followed for one answer, at most (the local zones chase as many inside one zone). */
    static final int MAX_LINKS = 8;

    private final List<Rr> records = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private int links;
    private boolean authoritative = true;

    /** A chain from {@code first}, the name the question asked (or its search candidate). */
    CnameChain(String first) {
        names.add(first);
    }

    /**
     * Adds link {@code a} — an answer whose chain stops at {@link Answer#danglingTarget()} —
     * with its TTLs lowered by {@code elapsed} seconds (a cached one). Returns null when the chain
     * may go on to that target, else why not: a loop, or more than {@value #MAX_LINKS} CNAMEs.
     */
    String add(Answer a, long elapsed) {
        links += a.cnameLinks();
        authoritative &= a.authoritative;
        for (Rr r : a.answer()) {
            records.add(elapsed > 0 ? r.withTtl(Math.max(0, r.ttl() - elapsed)) : r);
        }
        if (links > MAX_LINKS) {
            return "a CNAME chain longer than " + MAX_LINKS + " links";
        }
        String target = a.danglingTarget();
        for (Rr r : a.answer()) {
            if (r.type() == lookout.engine.dns.wire.RrType.CNAME && !names.add(r.name()) && !r.name().equals(a.qname)) {
                return "a CNAME loop at " + r.name();
            }
        }
        if (!names.add(target)) {
            return "a CNAME loop at " + target;
        }
        return null;
    }

    /**
     * The answer for the first name: the chain, then {@code last}'s records (its TTLs lowered by
     * {@code elapsed}), with {@code last}'s response code and authority (the target's NXDOMAIN or
     * NODATA with its SOA), authoritative when every link was.
     */
    Answer answer(String qname, int qtype, int qclass, Answer last, long elapsed) {
        List<Rr> an = new ArrayList<>(records.size() + last.answer().size());
        an.addAll(records);
        for (Rr r : last.answer()) {
            an.add(elapsed > 0 ? r.withTtl(Math.max(0, r.ttl() - elapsed)) : r);
        }
        List<Rr> ns = new ArrayList<>(last.authority().size());
        for (Rr r : last.authority()) {
            ns.add(elapsed > 0 ? r.withTtl(Math.max(0, r.ttl() - elapsed)) : r);
        }
        return new Answer(qname, qtype, qclass, last.rcode, authoritative && last.authoritative, an, ns, List.of());
    }

    /** How many CNAMEs the chain holds so far. */
    int links() {
        return links;
    }
}
