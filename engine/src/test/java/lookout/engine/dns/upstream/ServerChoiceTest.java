package lookout.engine.dns.upstream;

import static lookout.engine.dns.upstream.DemotionMarksTest.server;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * seed 000 §4.6.1: each attempt goes to the first server, in the order computed for that attempt,
 * not yet asked for the candidate; once every server has been asked, to the server at position
 * n mod count, n being the attempts already made. The order comes from {@link DemotionMarks}
 * afresh for each attempt, so the sequences here replay what the resolver does between attempts:
 * order, choose, fail, demote.
 */
class ServerChoiceTest {

    private static final long S = 1_000_000_000L;

    private static final InetSocketAddress A = server(1);
    private static final InetSocketAddress B = server(2);
    private static final InetSocketAddress C = server(3);

    /** The servers three failing attempts go to, the order computed afresh before each. */
    private static List<InetSocketAddress> threeFailingAttempts(List<InetSocketAddress> configured, DemotionMarks marks,
                                                                long now) {
        List<InetSocketAddress> went = new ArrayList<>();
        Set<InetSocketAddress> asked = new HashSet<>();
        for (int n = 0; n < 3; n++) {
            long t = now + n * 2 * S; // each attempt times out after 2 s
            InetSocketAddress s = ServerChoice.next(marks.order(configured, t), asked, n);
            went.add(s);
            asked.add(s);
            marks.demote(s, t + 2 * S); // §4.6.2: the timeout fails the attempt and demotes the server
        }
        return went;
    }

    @Test
    void theFirstServerNotYetAskedInTheOrderIsChosen() {
        assertThat(ServerChoice.next(List.of(A, B, C), Set.of(), 0)).isEqualTo(A);
        assertThat(ServerChoice.next(List.of(A, B, C), Set.of(A), 1)).isEqualTo(B);
        assertThat(ServerChoice.next(List.of(A, B, C), Set.of(A, C), 2)).isEqualTo(B);
        assertThat(ServerChoice.next(List.of(C, A, B), Set.of(), 0)).as("the order given, not address order").isEqualTo(C);
    }

    @Test
    void onceEveryServerHasBeenAskedTheChoiceIsPositionNModCount() {
        List<InetSocketAddress> order = List.of(A, B);
        Set<InetSocketAddress> all = Set.of(A, B);

        assertThat(ServerChoice.next(order, all, 2)).isEqualTo(A);
        assertThat(ServerChoice.next(order, all, 3)).isEqualTo(B);
        assertThat(ServerChoice.next(order, all, 4)).isEqualTo(A);
        assertThat(ServerChoice.next(List.of(B, A), all, 2)).as("position in this attempt's order").isEqualTo(B);
    }

    @Test
    void withOneServerAllThreeAttemptsGoToIt() {
        assertThat(threeFailingAttempts(List.of(A), new DemotionMarks(), 0)).containsExactly(A, A, A);
    }

    @Test
    void twoHealthyServersGetAThenBThenAOnceBothAreDemoted() {
        // seed 000 §4.6.1's example: A, B, then A, since demotion keeps configured order in the demoted group
        assertThat(threeFailingAttempts(List.of(A, B), new DemotionMarks(), 0)).containsExactly(A, B, A);
    }

    @Test
    void aServerDemotedByAnotherQuestionIsAskedLast() {
        DemotionMarks marks = new DemotionMarks();
        marks.demote(B, 0); // B failed another question a moment ago

        // A first (healthy), then C (healthy, not asked), then B: every server once
        assertThat(threeFailingAttempts(List.of(A, B, C), marks, S)).containsExactly(A, C, B);
    }

    @Test
    void theOrderIsComputedAfreshSoAServerDemotedByThePreviousAttemptIsBehindItsPeers() {
        DemotionMarks marks = new DemotionMarks();
        List<InetSocketAddress> configured = List.of(A, B);
        Set<InetSocketAddress> asked = new HashSet<>();

        InetSocketAddress first = ServerChoice.next(marks.order(configured, 0), asked, 0);
        asked.add(first);
        marks.demote(first, 2 * S); // timed out: demoted
        InetSocketAddress second = ServerChoice.next(marks.order(configured, 2 * S), asked, 1);
        asked.add(second); // §4.6.2: a local resource error (EMFILE) fails the attempt without demoting
        InetSocketAddress third = ServerChoice.next(marks.order(configured, 2 * S), asked, 2);

        // position 2 mod 2 = 0 of the order [B, A]; in the configured order it would have been A
        assertThat(List.of(first, second, third)).containsExactly(A, B, B);
    }

    @Test
    void aDemotedServerIsStillAskedAfterTheHealthyOnes() {
        DemotionMarks marks = new DemotionMarks();
        marks.demote(A, 0);
        marks.demote(B, 0);

        assertThat(ServerChoice.next(marks.order(List.of(A, B, C), S), Set.of(), 0)).isEqualTo(C);
        assertThat(ServerChoice.next(marks.order(List.of(A, B, C), S), Set.of(C), 1)).isEqualTo(A);
    }

    @Test
    void attemptsAcrossTheWrapOfTheClockFollowTheSameRules() {
        long nearEnd = Long.MAX_VALUE - 3 * S; // the second attempt's demotion mark wraps, the third attempt's clock too
        assertThat(threeFailingAttempts(List.of(A, B), new DemotionMarks(), nearEnd)).containsExactly(A, B, A);

        DemotionMarks marks = new DemotionMarks();
        marks.demote(A, Long.MAX_VALUE - S); // the mark's end is past the wrap
        assertThat(ServerChoice.next(marks.order(List.of(A, B), Long.MAX_VALUE), Set.of(), 0))
                .as("A's mark is live before the clock wraps").isEqualTo(B);
        assertThat(ServerChoice.next(marks.order(List.of(A, B), Long.MIN_VALUE + 5 * S), Set.of(), 0))
                .as("A's mark, set 1 s before the wrap, is live 6 s later").isEqualTo(B);
        assertThat(ServerChoice.next(marks.order(List.of(A, B), Long.MAX_VALUE - S + 30 * S), Set.of(), 0))
                .as("and ends 30 s after it was set").isEqualTo(A);
    }

    // ------------------------------------------------------------------ properties

    @Property(tries = 1000)
    void theChoiceIsTheFirstServerNotAskedElseNModCountAndAlwaysOneOfTheList(
            @ForAll @IntRange(min = 1, max = 8) int count,
            @ForAll @IntRange(min = 0, max = 7) int rotate,
            @ForAll @IntRange(min = 0, max = 255) int askedBits,
            @ForAll @IntRange(min = 0, max = 20) int attempts) {
        List<InetSocketAddress> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            order.add(server(1 + (i + rotate) % 8));
        }
        Set<InetSocketAddress> asked = new HashSet<>();
        for (int i = 0; i < count; i++) {
            if ((askedBits >> i & 1) == 1) {
                asked.add(order.get(i));
            }
        }

        InetSocketAddress chosen = ServerChoice.next(order, asked, attempts);

        assertThat(order).contains(chosen);
        InetSocketAddress firstNotAsked = order.stream().filter(s -> !asked.contains(s)).findFirst().orElse(null);
        assertThat(chosen).isEqualTo(firstNotAsked != null ? firstNotAsked : order.get(attempts % count));
    }
}
