package lookout.engine.dns.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * seed 000 §4.6.3 (demotion marks) and §4.6.1 (the order servers are tried in), on ordinary clocks
 * and on clocks at both ends of the {@code long} range, where a 30-s mark wraps past
 * {@code Long.MAX_VALUE} (caffeine's {@code TimerWheelTest} does the same for its wheel).
 */
class DemotionMarksTest {

    private static final long S = 1_000_000_000L;
    private static final long MARK = 30 * S;

    private static final InetSocketAddress A = server(1);
    private static final InetSocketAddress B = server(2);
    private static final InetSocketAddress C = server(3);
    private static final InetSocketAddress D = server(4);

    private final DemotionMarks marks = new DemotionMarks();

    static InetSocketAddress server(int last) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, (byte) last}), 53);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Clocks each rule is checked at: ordinary ones, both ends of the range, and ones whose mark
     * (t0 + 30 s) or whose later checks (t0 + 31 s) wrap past {@code Long.MAX_VALUE}.
     */
    static LongStream clocks() {
        return LongStream.of(0L, 1_000_000_000_000L, -1L, Long.MIN_VALUE, Long.MIN_VALUE + 1,
                Long.MAX_VALUE, Long.MAX_VALUE - 10 * S, Long.MAX_VALUE - MARK, Long.MAX_VALUE - MARK + 1,
                -MARK / 2);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aDemotedServerIsMarkedUntilThirtySecondsFromNow(long t0) {
        assertThat(marks.demote(A, t0)).as("a first demotion is no renewal").isFalse();

        assertThat(marks.isDemoted(A, t0)).isTrue();
        assertThat(marks.isDemoted(A, t0 + MARK - 1)).isTrue();
        assertThat(marks.isDemoted(A, t0 + MARK)).as("until 30 s from now, not including it").isFalse();
        assertThat(marks.isDemoted(A, t0 + MARK + S)).isFalse();
        assertThat(marks.remaining(A, t0)).isEqualTo(MARK);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void theTimeLeftCountsDownToZero(long t0) {
        marks.demote(A, t0);

        assertThat(marks.remaining(A, t0)).isEqualTo(MARK);
        assertThat(marks.remaining(A, t0 + 20 * S)).isEqualTo(10 * S);
        assertThat(marks.remaining(A, t0 + MARK)).isZero();
        assertThat(marks.remaining(A, t0 + MARK + S)).isZero();
        assertThat(marks.remaining(B, t0)).as("never demoted").isZero();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aFurtherFailureMovesTheMarkForward(long t0) {
        marks.demote(A, t0);

        assertThat(marks.demote(A, t0 + 20 * S)).as("renewed while live").isTrue();

        assertThat(marks.isDemoted(A, t0 + 45 * S)).as("the first mark alone would have ended at 30 s").isTrue();
        assertThat(marks.isDemoted(A, t0 + 50 * S - 1)).isTrue();
        assertThat(marks.isDemoted(A, t0 + 50 * S)).isFalse();
        assertThat(marks.remaining(A, t0 + 20 * S)).isEqualTo(MARK);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aFailureAfterTheMarkRanOutIsANewMarkNotARenewal(long t0) {
        marks.demote(A, t0);

        assertThat(marks.demote(A, t0 + MARK)).isFalse();
        assertThat(marks.isDemoted(A, t0 + MARK + 29 * S)).isTrue();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aUsedReplyRemovesTheMarkAtOnce(long t0) {
        marks.demote(A, t0);

        assertThat(marks.clear(A, t0 + 5 * S)).as("a live mark was removed").isTrue();

        assertThat(marks.isDemoted(A, t0 + 5 * S)).isFalse();
        assertThat(marks.remaining(A, t0 + 5 * S)).isZero();
        assertThat(marks.isDemoted(A, t0)).as("gone, not merely run out").isFalse();
        assertThat(marks.clear(A, t0 + 6 * S)).as("nothing left to remove").isFalse();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void theFirstEndIsTheEarliestMarkAcrossTheWrap(long t0) {
        assertThat(marks.firstEnd()).as("no marks").isNull();
        marks.demote(A, t0 + 10 * S);
        marks.demote(B, t0);
        assertThat(marks.firstEnd()).isEqualTo(t0 + MARK);
        marks.demote(B, t0 + 20 * S); // renewed: now A's mark ends first
        assertThat(marks.firstEnd()).isEqualTo(t0 + 10 * S + MARK);
        assertThat(marks.expire(t0 + 10 * S + MARK)).containsExactly(A);
        assertThat(marks.firstEnd()).isEqualTo(t0 + 20 * S + MARK);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void clearingAMarkThatRanOutReportsNoLiveMark(long t0) {
        marks.demote(A, t0);

        assertThat(marks.clear(A, t0 + MARK)).isFalse();
        assertThat(marks.isDemoted(A, t0)).as("gone, not merely run out").isFalse();
    }

    @Test
    void aMarkSetTenSecondsBeforeTheClockWrapsHoldsAcrossTheWrapAndEnds() {
        long t0 = Long.MAX_VALUE - 10 * S;
        marks.demote(A, t0);
        long afterWrap = t0 + 29 * S; // past Long.MAX_VALUE: negative
        assertThat(afterWrap).isNegative();

        assertThat(marks.isDemoted(A, afterWrap)).isTrue();
        assertThat(marks.remaining(A, afterWrap)).isEqualTo(S);
        assertThat(marks.order(List.of(A, B), afterWrap)).containsExactly(B, A);

        long later = t0 + 31 * S;
        assertThat(marks.isDemoted(A, later)).isFalse();
        assertThat(marks.order(List.of(A, B), later)).containsExactly(A, B);
        assertThat(marks.expire(later)).containsExactly(A);
    }

    @Test
    void theMarkBelongsToTheAddressSoEveryScopeListingItSeesIt() {
        long now = 7 * S;
        // two scopes configured separately: equal addresses, distinct objects
        List<InetSocketAddress> corp = List.of(server(1), server(2));
        List<InetSocketAddress> lab = List.of(server(3), server(1));
        marks.demote(corp.get(0), now);

        assertThat(marks.order(corp, now + S)).containsExactly(server(2), server(1));
        assertThat(marks.order(lab, now + S)).containsExactly(server(3), server(1));
        assertThat(marks.isDemoted(lab.get(1), now + S)).isTrue();
    }

    @Test
    void theSameHostOnAnotherPortIsAnotherServer() {
        InetSocketAddress other = new InetSocketAddress(A.getAddress(), 5353);
        marks.demote(A, 0);

        assertThat(marks.isDemoted(other, S)).isFalse();
    }

    @Test
    void theOrderIsServersNotDemotedInConfiguredOrderThenDemotedOnesInConfiguredOrder() {
        List<InetSocketAddress> configured = List.of(A, B, C, D);
        marks.demote(D, 0);
        marks.demote(B, S); // demoted after D, still listed before it: configured order, not demotion order

        assertThat(marks.order(configured, 2 * S)).containsExactly(A, C, B, D);
    }

    @Test
    void withNoLiveMarkTheOrderIsTheConfiguredOrder() {
        List<InetSocketAddress> configured = List.of(C, A, B);
        marks.demote(A, 0);

        assertThat(marks.order(configured, MARK)).containsExactly(C, A, B);
        assertThat(new DemotionMarks().order(configured, 0)).containsExactly(C, A, B);
    }

    @Test
    void whenEveryServerIsDemotedTheyKeepTheirConfiguredOrder() {
        marks.demote(B, 0);
        marks.demote(A, S);

        assertThat(marks.order(List.of(A, B), 2 * S)).containsExactly(A, B);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void expireDropsOnlyTheMarksThatRanOut(long t0) {
        marks.demote(A, t0);
        marks.demote(B, t0 + 10 * S);

        assertThat(marks.expire(t0 + MARK)).containsExactly(A);
        assertThat(marks.isDemoted(A, t0)).as("dropped, not merely run out").isFalse();
        assertThat(marks.isDemoted(B, t0 + MARK)).isTrue();
        assertThat(marks.expire(t0 + MARK + 5 * S)).isEmpty();
        assertThat(marks.expire(t0 + 40 * S)).containsExactly(B);
        assertThat(marks.isDemoted(B, t0 + 10 * S)).as("dropped, not merely run out").isFalse();
    }

    @Test
    void aReloadKeepsTheMarksOfAddressesStillConfiguredOnly() {
        marks.demote(A, 0);
        marks.demote(B, 0);

        marks.retainOnly(Set.of(server(2), C));

        assertThat(marks.isDemoted(A, S)).isFalse();
        assertThat(marks.isDemoted(B, S)).isTrue();
        assertThat(marks.remaining(A, 0)).as("dropped with its address").isZero();
    }

    // ------------------------------------------------------------------ properties

    /** Whatever the clock, a mark is live for exactly the 30 s after the last failure. */
    @Property(tries = 500)
    void aMarkIsLiveForExactlyThirtySecondsOnAnyClock(@ForAll long t0,
                                                      @ForAll @LongRange(min = 0, max = 120_000_000_000L) long later) {
        DemotionMarks m = new DemotionMarks();
        m.demote(A, t0);

        boolean live = later < MARK;
        assertThat(m.isDemoted(A, t0 + later)).isEqualTo(live);
        assertThat(m.remaining(A, t0 + later)).isEqualTo(live ? MARK - later : 0);
        assertThat(m.expire(t0 + later)).isEqualTo(live ? List.of() : List.of(A));
    }

    /**
     * For any clock and any mix of marks (some live, some run out, some servers never demoted), the
     * order is a permutation of the configured list: the servers not demoted in configured order,
     * then the demoted ones in configured order.
     */
    @Property(tries = 500)
    void theOrderIsAPermutationWithServersNotDemotedFirst(
            @ForAll long now,
            @ForAll @Size(min = 1, max = 8) List<@LongRange(min = -1, max = 60_000_000_000L) Long> ages,
            @ForAll @IntRange(min = 0, max = 7) int rotate) {
        List<InetSocketAddress> configured = new ArrayList<>();
        for (int i = 0; i < ages.size(); i++) {
            configured.add(server(1 + (i + rotate) % 8)); // configured order is not address order
        }
        DemotionMarks m = new DemotionMarks();
        Set<InetSocketAddress> demoted = new HashSet<>();
        for (int i = 0; i < ages.size(); i++) {
            long age = ages.get(i);
            if (age >= 0) {
                m.demote(configured.get(i), now - age); // the failure happened age ns ago
                if (age < MARK) {
                    demoted.add(configured.get(i));
                }
            }
        }

        List<InetSocketAddress> expected = new ArrayList<>();
        configured.stream().filter(s -> !demoted.contains(s)).forEach(expected::add);
        configured.stream().filter(demoted::contains).forEach(expected::add);
        assertThat(m.order(configured, now)).containsExactlyElementsOf(expected);
    }
}
