package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import lookout.engine.pva.wire.Guid;
import org.junit.jupiter.api.Test;

/** What came back per channel for "why?": repeats of one server's claim folded, both bounds kept. */
class ReplyFactsTest {

    static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 5101);
    static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 5102);

    @Test
    void aServerRepeatingItsClaimIsOneClaimAndAnotherServerIsASecond() {
        ReplyFacts f = new ReplyFacts();
        Guid a = Guid.parse("aaaaaaaaaaaaaaaaaaaaaaaa");
        Guid b = Guid.parse("bbbbbbbbbbbbbbbbbbbbbbbb");
        f.positive(7, 1, a, A, A, false, true);
        f.positive(7, 2, a, A, A, false, false);
        f.positive(7, 3, b, B, B, false, false);
        f.negative(7, B, true);
        f.negative(7, B, true);
        ReplyFacts.Facts x = f.of(7);
        assertThat(x.claims).extracting(ReplyFacts.Claim::guid).containsExactly(a, b);
        assertThat(x.negatives).isEqualTo(2);
        assertThat(x.negativeFrom).containsExactly("127.0.0.1:5102 (name server)");
        assertThat(f.of(8)).isNull();
    }

    @Test
    void onlyTheChannelsRepliedToMostRecentlyAreKept() {
        ReplyFacts f = new ReplyFacts();
        for (int cid = 0; cid < ReplyFacts.CHANNELS + 10; cid++) {
            f.negative(cid, A, false);
        }
        assertThat(f.of(0)).isNull();
        assertThat(f.of(ReplyFacts.CHANNELS + 9)).isNotNull();
        for (int i = 0; i < 100; i++) {
            f.negative(ReplyFacts.CHANNELS + 9, new InetSocketAddress("127.0.0.1", 6000 + i), false);
        }
        assertThat(f.of(ReplyFacts.CHANNELS + 9).negativeFrom).hasSize(ReplyFacts.PER_CHANNEL);
    }
}
