package lookout.engine.dns.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transactions' deadlines as one ring in the order set (seed 000 §4.6.2: two seconds from
 * each send): due in that order, a removed one never due, growth keeping the order, and all of it
 * on clocks at both ends of the {@code long} range (caffeine's TimerWheelTest does the same).
 */
class DeadlinesTest {

    private static final long S = 1_000_000_000L;
    private static final long TWO = 2 * S;

    static LongStream clocks() {
        return LongStream.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE - TWO + 1, Long.MAX_VALUE - S);
    }

    private static List<String> due(Deadlines<String> d, long now) {
        List<String> out = new ArrayList<>();
        for (String s = d.pollDue(now); s != null; s = d.pollDue(now)) {
            out.add(s);
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void deadlinesFallDueInTheOrderSetAndARemovedOneNever(long t0) {
        Deadlines<String> d = new Deadlines<>();
        long a = d.add("a", t0 + TWO);
        long b = d.add("b", t0 + S / 2 + TWO);
        d.add("c", t0 + S + TWO);
        assertThat(d.first()).isEqualTo(t0 + TWO);
        assertThat(due(d, t0 + TWO - 1)).as("not yet").isEmpty();
        d.remove(b);
        assertThat(due(d, t0 + S + TWO)).containsExactly("a", "c");
        assertThat(d.isEmpty()).isTrue();
        d.remove(a); // gone already: nothing
        assertThat(d.size()).isZero();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aRemovedFirstEntryLeavesTheNextFirst(long t0) {
        Deadlines<String> d = new Deadlines<>();
        long a = d.add("a", t0 + TWO);
        d.add("b", t0 + TWO + 5);
        d.remove(a);
        assertThat(d.first()).isEqualTo(t0 + TWO + 5);
        assertThat(due(d, t0 + TWO)).isEmpty();
        assertThat(due(d, t0 + TWO + 5)).containsExactly("b");
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void thousandsInFlightGrowTheRingInOrder(long t0) {
        Deadlines<String> d = new Deadlines<>();
        List<Long> entries = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            entries.add(d.add("t" + i, t0 + TWO + i));
        }
        for (int i = 0; i < 5000; i += 2) {
            d.remove(entries.get(i)); // the even ones answered
        }
        assertThat(d.size()).isEqualTo(2500);
        List<String> fired = due(d, t0 + TWO + 4999);
        assertThat(fired).hasSize(2500).startsWith("t1", "t3").endsWith("t4999");
        assertThat(d.isEmpty()).isTrue();
    }
}
