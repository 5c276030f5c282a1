package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import lookout.engine.pva.server.ForwardingRules.Action;
import lookout.engine.pva.server.ForwardingRules.Drop;
import org.junit.jupiter.api.Test;

class ForwardingRulesTest {

    @Test
    void plainBroadcastSearchIsAnswered() {
        assertThat(ForwardingRules.decide(false, 0, false, false, false, true, true).action()).isEqualTo(Action.ANSWER);
    }

    @Test
    void searchToOwnAddressIsForwardedWhenForwardingIsOn() {
        assertThat(ForwardingRules.decide(false, 0, false, true, true, true, true).action()).isEqualTo(Action.FORWARD);
        assertThat(ForwardingRules.decide(false, 0, false, true, true, true, false).action()).isEqualTo(Action.ANSWER);
    }

    @Test
    void forwardedSearchOnLoopbackGroupIsAnswered() {
        assertThat(ForwardingRules.decide(false, 1, true, false, false, false, true).action()).isEqualTo(Action.ANSWER);
    }

    @Test
    void ruleOneTagOnlyOnLoopbackGroup() {
        assertThat(ForwardingRules.decide(false, 1, false, true, false, false, true).drop())
                .isEqualTo(Drop.TAG_NOT_LOOPBACK_GROUP);
    }

    @Test
    void ruleTwoAtMostOneTag() {
        assertThat(ForwardingRules.decide(false, 2, true, false, false, false, true).drop()).isEqualTo(Drop.MULTIPLE_TAGS);
    }

    @Test
    void ruleThreeNeverReforward() {
        assertThat(ForwardingRules.decide(false, 1, true, false, true, false, true).drop()).isEqualTo(Drop.REFORWARD);
    }

    @Test
    void ruleFourMulticastSource() {
        assertThat(ForwardingRules.decide(true, 0, false, false, false, false, true).drop())
                .isEqualTo(Drop.MULTICAST_SOURCE);
        assertThat(ForwardingRules.decide(true, 1, true, false, false, false, true).drop())
                .isEqualTo(Drop.MULTICAST_SOURCE);
    }

    @Test
    void forwardedZeroReplyAddressDropped() {
        assertThat(ForwardingRules.decide(false, 1, true, false, false, true, true).drop())
                .isEqualTo(Drop.ZERO_REPLY_ADDRESS);
    }
}
