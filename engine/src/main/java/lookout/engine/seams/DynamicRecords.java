package lookout.engine.seams;

import java.net.InetAddress;
import java.util.List;

/**
 * The seam between local zones and weighted pools: how a {@code DYNA}/{@code DYNC} record is
 * answered (gdnsd plugin_weighted semantics, SPEC §Weighted pools). Implemented by the pools
 * service, called by the resolver on the engine loop. Must not block.
 *
 * <p>An instance is used by one thread: the engine loop's own, or one made for an answer loop by
 * {@link #forAnswerLoop()}.
 */
public interface DynamicRecords {

    /**
     * Draws an answer for {@code resource}.
     *
     * @param resource     the name after {@code weighted!}
     * @param qtype        the query type (1 = A, 28 = AAAA, anything else)
     * @param recordTtl    the record's TTL (the cap)
     * @param recordMinTtl the record's minimum TTL (the floor; half the TTL when the record gives none)
     * @return the answer; never null
     */
    Answer answer(String resource, int qtype, long recordTtl, long recordMinTtl);

    /**
     * An instance for one other thread (a resolver answer loop; callable from it), answering from the
     * same published pool states with a random source and scratch space of its own. The default,
     * this instance, is right only for an implementation without state (a test's fixed answers).
     */
    default DynamicRecords forAnswerLoop() {
        return this;
    }

    /**
     * @param addresses the selected addresses of the asked family, shuffled (empty: NODATA)
     * @param cname     the selected CNAME target (fully qualified) for a CNAME resource, else null
     * @param ttl       the TTL to answer with, already capped and floored
     * @param failover  true when the resource is below up_thresh and answered as if all were UP
     */
    record Answer(List<InetAddress> addresses, String cname, long ttl, boolean failover) {
        public Answer {
            addresses = List.copyOf(addresses);
        }
    }
}
