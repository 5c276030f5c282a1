package lookout.engine.dns.listen;

import java.net.InetAddress;
import java.util.List;
import java.util.function.Predicate;
import lookout.engine.config.Cidr;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Header;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;

/**
 * The one admission check for a client message, used by the listeners' fast path and by the engine
 * loop alike: whether the client may ask (the {@code resolver.allow} list; never an open resolver),
 * whether the message is a query at all, whether we implement what it asks (opcode QUERY; EDNS
 * version 0, RFC 6891 §6.1.3; no meta type, RFC 6895 §3.1), and — for a listener that can — whether
 * it may be answered right there (class IN, and the listener's own test: a local zone holds it).
 * Pure: the facts in, a {@link Verdict} out; counting and answering are the caller's.
 */
public final class Admission {

    /** What becomes of a client message. */
    public enum Verdict {
        /** A local question the listener answers on its own thread (the fast path). */
        ANSWER_HERE,
        /** A question for the resolver: cache, local zones, search candidates, upstream. */
        RESOLVE,
        /** A client outside {@code resolver.allow} with a readable query: REFUSED, counted denied. */
        REFUSE,
        /** A client outside {@code resolver.allow} with nothing readable to refuse: dropped, counted denied. */
        DROP_DENIED,
        /** A query that cannot be read past its header: FORMERR with the header only, counted malformed. */
        FORMERR,
        /** No query at all (shorter than a header, or a response): dropped, counted malformed. */
        DROP_MALFORMED,
        /** An opcode other than QUERY, or a meta type (OPT, AXFR, IXFR, TKEY ...): NOTIMP. */
        NOT_IMPLEMENTED,
        /** EDNS version above 0 (RFC 6891 §6.1.3): BADVERS. */
        BAD_VERSION
    }

    /**
     * A verdict with the query as decoded (null when it could not be read): whoever acts on the
     * verdict needs not decode again.
     */
    public record Decision(Verdict verdict, ClientQuery query) {
    }

    private static final Decision DROP_DENIED = new Decision(Verdict.DROP_DENIED, null);
    private static final Decision FORMERR = new Decision(Verdict.FORMERR, null);
    private static final Decision DROP_MALFORMED = new Decision(Verdict.DROP_MALFORMED, null);

    private Admission() {
    }

    /**
     * The verdict on the client message {@code m[0, length)}. {@code allowed}: whether the client is
     * on the allow list ({@link #allows}; a listener may remember its last client). {@code here}:
     * whether the caller would answer a local question itself (null: never, as on the engine loop).
     * Never throws for any bytes.
     */
    public static Decision judge(byte[] m, int length, boolean allowed, boolean tcp, Predicate<ClientQuery> here) {
        if (!allowed) {
            // refused only when there is a query to refuse; junk from outside is not worth an answer
            if (Header.isQuery(m, length)) {
                try {
                    ClientQuery q = ClientQuery.decode(m, length, tcp);
                    if (q != null) {
                        return new Decision(Verdict.REFUSE, q);
                    }
                } catch (WireException e) {
                    // not even a query: nothing to refuse
                }
            }
            return DROP_DENIED;
        }
        ClientQuery q;
        try {
            q = ClientQuery.decode(m, length, tcp);
        } catch (WireException e) {
            // only a query (a header with QR clear) is decoded far enough to fail: it gets FORMERR
            return FORMERR;
        }
        if (q == null) {
            return DROP_MALFORMED;
        }
        return judge(q, true, here);
    }

    /** The verdict on a query decoded already (a listener's, handed on), with {@code allowed} as it is now. */
    public static Decision judge(ClientQuery q, boolean allowed, Predicate<ClientQuery> here) {
        if (!allowed) {
            return new Decision(Verdict.REFUSE, q);
        }
        if (q.opcode() != Header.OPCODE_QUERY) {
            return new Decision(Verdict.NOT_IMPLEMENTED, q);
        }
        if (q.edns && q.ednsVersion > 0) {
            return new Decision(Verdict.BAD_VERSION, q); // RFC 6891 §6.1.3
        }
        if (isMeta(q.qtype)) {
            // meta types (OPT, AXFR, IXFR, TKEY, ...) are not forwarded
            return new Decision(Verdict.NOT_IMPLEMENTED, q);
        }
        if (here != null && q.qclass == RrType.IN && here.test(q)) {
            return new Decision(Verdict.ANSWER_HERE, q);
        }
        return new Decision(Verdict.RESOLVE, q);
    }

    /** RFC 6895 §3.1: OPT and the meta types 128–254 (ANY, 255, is a question, not a meta type). */
    public static boolean isMeta(int qtype) {
        return qtype == RrType.OPT || (qtype >= 128 && qtype <= 255 && qtype != RrType.ANY);
    }

    /** Whether {@code allow} takes {@code client} (an IPv4 client of a dual-stack socket arrives as IPv4 already). */
    public static boolean allows(List<Cidr> allow, InetAddress client) {
        if (client == null) {
            return false;
        }
        for (Cidr c : allow) {
            if (c.contains(client)) {
                return true;
            }
        }
        return false;
    }
}
