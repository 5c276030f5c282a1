package lookout.engine.dns.listen;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import lookout.engine.config.Cidr;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.RrType;

/**
 * Engine loop: the client messages the listeners did not settle themselves — every TCP query, and
 * the UDP ones their fast path did not answer. Each is judged by {@link Admission} against the
 * allow list as it is now, then refused, answered FORMERR/NOTIMP/BADVERS, dropped, or asked of the
 * resolver; what it comes to is counted here (malformed, denied). Never throws: a bad packet is a
 * counted drop or FORMERR, and a bug is counted apart ({@link #internalErrors}).
 */
public final class Intake {

    /* Concurrency: engine loop only, every field and method; the listeners hop here
     * (Scheduler.execute/run) with what they read. */

    private static final Logger LOG = System.getLogger("lookout.engine.dns");

    /** Where admitted questions go: the resolver, which answers each exactly once (maybe later). */
    @FunctionalInterface
    public interface Questions {
        void ask(ClientQuery q, Reply reply, Object client);

        /**
         * A UDP query of the usual shape ({@link PlainQuery}), admitted, answered from the cache
         * straight into {@code out} exactly as {@link #ask} would answer it, and counted as
         * {@link #ask} counts a cache hit. Returns the answer's length, or -1 — nothing counted,
         * nothing sent — when {@link #ask} would do anything else with it (a local zone, a
         * synthetic name, search candidates, a miss, a CNAME to follow, an answer to cut).
         * Engine loop only: the cache is its. The default declines every query.
         *
         * @param key the question as the cache names it ({@code q}'s name, type, class IN)
         */
        default int answerCached(PlainQuery q, DnsCache.Key key, byte[] out) {
            return -1;
        }
    }

    private final Questions resolver;
    private List<Cidr> allow;
    /** The last client {@link #cached} found on {@link #allow} (cleared with it). */
    private InetAddress allowedLast;
    private long malformed;
    private long denied;
    private long internalErrors;

    public Intake(Questions resolver, List<Cidr> allow) {
        this.resolver = resolver;
        this.allow = allow;
    }

    /** The allow list from now on (a reload). */
    public void allow(List<Cidr> now) {
        this.allow = now;
        this.allowedLast = null;
    }

    /** Whether {@code client} may ask. */
    public boolean allowed(InetSocketAddress client) {
        return client != null && Admission.allows(allow, client.getAddress());
    }

    /**
     * One client message. Returns true when the question went to the resolver, which answers it
     * exactly once (maybe later); false when it was settled here, answered or dropped.
     */
    public boolean message(byte[] m, InetSocketAddress sender, boolean tcp, Reply reply) {
        try {
            Admission.Decision d = Admission.judge(m, m.length, allowed(sender), tcp, null);
            return act(d, m, sender, tcp, reply);
        } catch (RuntimeException e) {
            // a bug, not bad input: counted apart so that tests and operators can tell
            internalErrors++;
            LOG.log(Level.WARNING, "resolver: question failed", e);
            return false;
        }
    }

    /**
     * A UDP query of the usual shape ({@link PlainQuery}) that the engine loop's own listener read
     * and could answer from the cache without decoding it ({@link Questions#answerCached}): the
     * answer's length in {@code out}, or -1 when it is not such a question, and then nothing was
     * counted and {@link #decoded}/{@link #message} take it as ever. Admitted as {@link Admission}
     * admits a question for the resolver — {@link PlainQuery} read only opcode QUERY, EDNS version
     * 0 at most and class IN — so what is left to check is the allow list as it is now (anything
     * else is refused by the general path, and counted there) and the meta types.
     */
    public int cached(PlainQuery q, DnsCache.Key key, InetSocketAddress sender, byte[] out) {
        if (Admission.isMeta(q.qtype) || !allowedNow(sender.getAddress())) {
            return -1;
        }
        return resolver.answerCached(q, key, out);
    }

    /** Whether the allow list takes {@code a}; dnsperf-like clients ask from one address, remembered. */
    private boolean allowedNow(InetAddress a) {
        if (a == null) {
            return false;
        }
        if (a.equals(allowedLast)) {
            return true;
        }
        if (!Admission.allows(allow, a)) {
            return false;
        }
        allowedLast = a;
        return true;
    }

    /** A UDP query a listener decoded already and handed on; judged again (the allow list may have changed). */
    public boolean decoded(ClientQuery q, InetSocketAddress sender, Reply reply) {
        try {
            return act(Admission.judge(q, allowed(sender), null), q.raw, sender, false, reply);
        } catch (RuntimeException e) {
            internalErrors++;
            LOG.log(Level.WARNING, "resolver: question failed", e);
            return false;
        }
    }

    private boolean act(Admission.Decision d, byte[] m, InetSocketAddress sender, boolean tcp, Reply reply) {
        ClientQuery q = d.query();
        switch (d.verdict()) {
            case ANSWER_HERE, RESOLVE -> {
                resolver.ask(q, reply, new ClientId(sender, tcp));
                return true;
            }
            case REFUSE -> {
                denied++;
                reply.send(Responses.error(q, RrType.REFUSED, -1, null));
            }
            case DROP_DENIED -> denied++;
            case FORMERR -> {
                malformed++;
                reply.send(Responses.formerrHeaderOnly(m, m.length));
            }
            case DROP_MALFORMED -> malformed++;
            case NOT_IMPLEMENTED -> reply.send(Responses.error(q, RrType.NOTIMP, -1, null));
            case BAD_VERSION -> reply.send(Responses.error(q, RrType.BADVERS, -1, null));
            default -> throw new IllegalStateException("verdict " + d.verdict());
        }
        return false;
    }

    /** A client refused before it asked anything (a TCP connection from outside the allow list). */
    void countDenied() {
        denied++;
    }

    /** A broken TCP stream (a reset, an error): counted with the malformed messages. */
    void countMalformed() {
        malformed++;
    }

    /** Client messages dropped or answered FORMERR. */
    public long malformed() {
        return malformed;
    }

    /** Clients outside {@code resolver.allow}. */
    public long denied() {
        return denied;
    }

    /** Exceptions caught while handling a client message: 0 unless there is a bug. */
    public long internalErrors() {
        return internalErrors;
    }
}
