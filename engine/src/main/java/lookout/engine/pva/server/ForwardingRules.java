package lookout.engine.pva.server;

/**
 * What to do with one received search datagram under the unicast-forwarding rules of seed 002
 * §5. Pure: the listener supplies what it knows about the datagram, this decides.
 *
 * <p>The four receive rules, all kept (§5: "an implementation MUST keep all of them"):
 * <ol>
 *   <li>an ORIGIN_TAG is accepted only on loopback, addressed to the forwarding group;</li>
 *   <li>at most one ORIGIN_TAG per datagram;</li>
 *   <li>an already forwarded message is never forwarded again (it is answered, not forwarded);</li>
 *   <li>datagrams with a multicast source address are ignored.</li>
 * </ol>
 * and a forwarded search whose reply address is all-zero is dropped (it lost its UDP source).
 *
 * <p>Forwarding exists for the other PVA servers sharing the port on this host (§5): a unicast
 * reaches one process only. So a search sent to one of this host's own addresses is answered here
 * directly, and forwarded as well only when another process listens on the port; this server's own
 * forwarded copy, coming back on the group, is dropped at once — the original was answered.
 */
public final class ForwardingRules {

    private ForwardingRules() {
    }

    /** Why a datagram was dropped; {@link #label} names the metric label. */
    public enum Drop {
        TAG_NOT_LOOPBACK_GROUP("tag_not_loopback_group"),
        MULTIPLE_TAGS("multiple_tags"),
        MULTICAST_SOURCE("multicast_source"),
        ZERO_REPLY_ADDRESS("zero_reply_address"),
        /** This server's own forwarded copy, back from the group: the original was answered already. */
        OWN_COPY("own_forwarded_copy");

        public final String label;

        Drop(String label) {
            this.label = label;
        }
    }

    public enum Action { ANSWER, ANSWER_AND_FORWARD, DROP }

    /**
     * The verdict: answer the search, answer it and forward it to the other servers on this host,
     * or drop it for a rule.
     *
     * @param notReforwarded a forwarded search still asking to be forwarded (its Unicast flag
     *                       set): answered, and not forwarded again (rule 3)
     */
    public record Verdict(Action action, Drop drop, boolean notReforwarded) {
        static final Verdict ANSWER = new Verdict(Action.ANSWER, null, false);
        static final Verdict ANSWER_NOT_REFORWARDED = new Verdict(Action.ANSWER, null, true);
        static final Verdict ANSWER_AND_FORWARD = new Verdict(Action.ANSWER_AND_FORWARD, null, false);

        static Verdict drop(Drop why) {
            return new Verdict(Action.DROP, why, false);
        }
    }

    /**
     * @param multicastSource    the datagram's source address is a multicast address
     * @param originTags         ORIGIN_TAG messages in the datagram before the SEARCH
     * @param onLoopbackToGroup  arrived on loopback addressed to 224.0.0.128 / ff02::42:1
     * @param fromOwnForwarder   sent by this server's own forwarding socket (its own copy)
     * @param toOwnUnicast       addressed to one of this host's own unicast addresses
     * @param unicastFlag        the SEARCH's Unicast flag (0x80)
     * @param replyAddressAny    the SEARCH's reply address is all-zero (or ::ffff:0.0.0.0)
     * @param forwardingEnabled  this server forwards at all (the group could be joined)
     * @param othersOnPort       another process has a socket on the search port (or it is not known)
     */
    public static Verdict decide(boolean multicastSource, int originTags, boolean onLoopbackToGroup,
                                 boolean fromOwnForwarder, boolean toOwnUnicast, boolean unicastFlag,
                                 boolean replyAddressAny, boolean forwardingEnabled, boolean othersOnPort) {
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
            if (fromOwnForwarder) {
                return Verdict.drop(Drop.OWN_COPY);
            }
            if (replyAddressAny) {
                return Verdict.drop(Drop.ZERO_REPLY_ADDRESS);
            }
            // rule 3: a forwarded search is answered and never forwarded again; one still carrying
            // the Unicast flag (§5 step 2 clears it) is asking for that, and is refused it
            return unicastFlag ? Verdict.ANSWER_NOT_REFORWARDED : Verdict.ANSWER;
        }
        if (toOwnUnicast && forwardingEnabled && othersOnPort) {
            return Verdict.ANSWER_AND_FORWARD;
        }
        return Verdict.ANSWER;
    }
}
