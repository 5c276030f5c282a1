package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import lookout.engine.pva.server.ForwardingRules.Action;
import lookout.engine.pva.server.ForwardingRules.Drop;
import lookout.engine.pva.server.ForwardingRules.Verdict;
import org.junit.jupiter.api.Test;

/** The table of seed 002 §5, every row. */
class ForwardingRulesTest {

    /** Arguments in the order of {@link ForwardingRules#decide}, named. */
    private static Verdict decide(boolean multicastSource, int tags, boolean loopbackGroup, boolean ownForwarder,
                                  boolean toOwnUnicast, boolean unicastFlag, boolean replyAny, boolean forwarding,
                                  boolean others) {
        return ForwardingRules.decide(multicastSource, tags, loopbackGroup, ownForwarder, toOwnUnicast, unicastFlag,
                replyAny, forwarding, others);
    }

    @Test
    void plainBroadcastSearchIsAnswered() {
        assertThat(decide(false, 0, false, false, false, true, true, true, true).action()).isEqualTo(Action.ANSWER);
    }

    @Test
    void searchToOwnAddressIsAnsweredAndForwardedOnlyWhenSomeoneElseListens() {
        assertThat(decide(false, 0, false, false, true, true, true, true, true).action())
                .isEqualTo(Action.ANSWER_AND_FORWARD);
        // alone on the port: answered directly, nobody to forward to
        assertThat(decide(false, 0, false, false, true, true, true, true, false).action()).isEqualTo(Action.ANSWER);
        // forwarding off
        assertThat(decide(false, 0, false, false, true, true, true, false, true).action()).isEqualTo(Action.ANSWER);
    }

    @Test
    void forwardedSearchOnLoopbackGroupIsAnswered() {
        Verdict v = decide(false, 1, true, false, false, false, false, true, true);
        assertThat(v.action()).isEqualTo(Action.ANSWER);
        assertThat(v.notReforwarded()).isFalse();
    }

    @Test
    void ownForwardedCopyIsDroppedAtOnce() {
        assertThat(decide(false, 1, true, true, false, false, false, true, true).drop()).isEqualTo(Drop.OWN_COPY);
    }

    @Test
    void ruleOneTagOnlyOnLoopbackGroup() {
        assertThat(decide(false, 1, false, false, true, false, false, true, true).drop())
                .isEqualTo(Drop.TAG_NOT_LOOPBACK_GROUP);
        // a datagram claiming to be our own copy from off the group is still rule 1's
        assertThat(decide(false, 1, false, true, false, false, false, true, true).drop())
                .isEqualTo(Drop.TAG_NOT_LOOPBACK_GROUP);
    }

    @Test
    void ruleTwoAtMostOneTag() {
        assertThat(decide(false, 2, true, false, false, false, false, true, true).drop()).isEqualTo(Drop.MULTIPLE_TAGS);
    }

    @Test
    void ruleThreeAnsweredButNeverForwardedAgain() {
        // a forwarded search still carrying Unicast, even "to our own address": answered, not forwarded
        Verdict v = decide(false, 1, true, false, true, true, false, true, true);
        assertThat(v.action()).isEqualTo(Action.ANSWER);
        assertThat(v.drop()).isNull();
        assertThat(v.notReforwarded()).isTrue();
    }

    @Test
    void ruleFourMulticastSource() {
        assertThat(decide(true, 0, false, false, false, false, false, true, true).drop())
                .isEqualTo(Drop.MULTICAST_SOURCE);
        assertThat(decide(true, 1, true, false, false, false, false, true, true).drop())
                .isEqualTo(Drop.MULTICAST_SOURCE);
    }

    @Test
    void forwardedZeroReplyAddressDropped() {
        assertThat(decide(false, 1, true, false, false, false, true, true, true).drop())
                .isEqualTo(Drop.ZERO_REPLY_ADDRESS);
    }
}
