package lookout.engine.pva.server;

/**
 * What to do with one received search datagram under the unicast-forwarding rules of seed 002
 * §5. Pure: the listener supplies what it knows about the datagram, this decides.
 *
 * <p>The four receive rules, all kept (§5: "an implementation MUST keep all of them"):
 * <ol>
 *   <li>an ORIGIN_TAG is accepted only on loopback, addressed to the forwarding group;</li>
 *   <li>at most one ORIGIN_TAG per datagram;</li>
 *   <li>an already forwarded message is never forwarded again;</li>
 *   <li>datagrams with a multicast source address are ignored.</li>
 * </ol>
 * and a forwarded search whose reply address is all-zero is dropped (it lost its UDP source).
 */
public final class ForwardingRules {

    private ForwardingRules() {
    }

    /** Why a datagram was dropped; {@link #label} names the metric label. */
    public enum Drop {
        TAG_NOT_LOOPBACK_GROUP("tag_not_loopback_group"),
        MULTIPLE_TAGS("multiple_tags"),
        REFORWARD("reforward"),
        MULTICAST_SOURCE("multicast_source"),
        ZERO_REPLY_ADDRESS("zero_reply_address");

        public final String label;

        Drop(String label) {
            this.label = label;
        }
    }

    /**
     * The verdict: answer the search, forward it to the other servers on this host (and not answer
     * it here — this server receives its own forwarded copy on the group like every other server),
     * or drop it for a rule.
     */
    public record Verdict(Action action, Drop drop) {
        static final Verdict ANSWER = new Verdict(Action.ANSWER, null);
        static final Verdict FORWARD = new Verdict(Action.FORWARD, null);

        static Verdict drop(Drop why) {
            return new Verdict(Action.DROP, why);
        }
    }

    public enum Action { ANSWER, FORWARD, DROP }

    /**
     * @param multicastSource    the datagram's source address is a multicast address
     * @param originTags         ORIGIN_TAG messages in the datagram before the SEARCH
     * @param onLoopbackToGroup  arrived on loopback addressed to 224.0.0.128 / ff02::42:1
     * @param toOwnUnicast       addressed to one of this host's own unicast addresses
     * @param unicastFlag        the SEARCH's Unicast flag (0x80)
     * @param replyAddressAny    the SEARCH's reply address is all-zero (or ::ffff:0.0.0.0)
     * @param forwardingEnabled  this server forwards at all (the group could be joined)
     */
    public static Verdict decide(boolean multicastSource, int originTags, boolean onLoopbackToGroup,
                                 boolean toOwnUnicast, boolean unicastFlag, boolean replyAddressAny,
                                 boolean forwardingEnabled) {
        if (multicastSource) {
            return Verdict.drop(Drop.MULTICAST_SOURCE);                 // rule 4
        }
        if (originTags > 1) {
            return Verdict.drop(Drop.MULTIPLE_TAGS);                    // rule 2
        }
        if (originTags == 1) {
            if (!onLoopbackToGroup) {
                return Verdict.drop(Drop.TAG_NOT_LOOPBACK_GROUP);       // rule 1
            }
            if (unicastFlag) {
                // §5 step 2: the forwarder clears Unicast; a tagged search still carrying it asks
                // to be forwarded again.
                return Verdict.drop(Drop.REFORWARD);                    // rule 3
            }
            if (replyAddressAny) {
                return Verdict.drop(Drop.ZERO_REPLY_ADDRESS);
            }
            return Verdict.ANSWER;
        }
        if (toOwnUnicast && forwardingEnabled) {
            return Verdict.FORWARD;
        }
        return Verdict.ANSWER;
    }
}
