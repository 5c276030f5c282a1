package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.util.Set;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.upstream.FailureKind;

/**
 * What {@link Resolver} tells about the questions it answers, as netty's
 * {@code DnsQueryLifecycleObserver} is told about queries: the resolver decides (the next attempt,
 * a demotion, giving up, the answer) and says what it decided here; an observer records — counters,
 * per-upstream statistics and latency, demotion and restoration events, attempt records, traces —
 * and decides nothing. {@link ResolverAccounting} is the one implementation.
 *
 * <p>Concurrency: every call comes on the engine loop, in the order things happened.
 */
interface ResolutionObserver {

    /** A client question arrived (the console's included). */
    void asked();

    /** A local zone or a synthetic name answered a question or a search candidate. */
    void answeredLocally();

    /** The cache answered a question or a search candidate (seed 000 §4.6.4: no attempt spent). */
    void answeredFromCache();

    /** A transaction's query went out. */
    void sent(Attempt a);

    /**
     * seed 000 §4.6.2: a transaction failed with {@code kind} ({@code detail} for people); it spent
     * an attempt, and {@code demoted} says whether its server was demoted for it.
     */
    void failed(Resolution r, Attempt a, FailureKind kind, String detail, boolean demoted, long now);

    /** A UDP reply with TC ended the transaction (seed 000 §4.6.3: the mark stays; §4.7: TCP may follow). */
    void truncated(Resolution r, Attempt a, long now);

    /**
     * A matching NOERROR or NXDOMAIN reply ended the transaction; {@code spent} is false for a
     * search candidate's NXDOMAIN that moves the question on (seed 000 §4.6.4).
     */
    void replied(Resolution r, Attempt a, int rcode, boolean spent, long now);

    /**
     * seed 000 §4.6.3: {@code server} is marked for 30 s for a failure of {@code kind}
     * ({@code detail} for people; {@code renewed}: it was marked already and the mark moved forward).
     */
    void demoted(InetSocketAddress server, FailureKind kind, String detail, boolean renewed, long now);

    /** {@code server}'s mark is gone: cleared by a reply, or expired ({@code how} says which). */
    void restored(InetSocketAddress server, String how, long now);

    /** Live reload: only these addresses are configured now (marks of the others are gone). */
    void configured(Set<InetSocketAddress> servers);

    /** The answer is completed along a CNAME chain of {@code links} CNAMEs (RFC 1034 §4.3.2 step 3a). */
    void chained(Resolution r, int links);

    /** RFC 8767: every attempt failed and an answer that expired {@code expiredSeconds} ago is given. */
    void stale(Resolution r, long expiredSeconds);

    /** The question is answered with {@code a}, which came from {@code source}. */
    void answered(Resolution r, Answer a, String source, long now);

    /** The question is answered SERVFAIL: unavailable, or refused at the in-flight ceiling ({@code capacity}). */
    void unavailable(Resolution r, boolean capacity, String why, long now);
}
