package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import lookout.engine.net.HostPort;
import lookout.engine.pva.server.OnDemandNames.Answer;
import lookout.engine.pva.server.OnDemandNames.Limits;
import lookout.engine.pva.server.OnDemandNames.State;
import org.junit.jupiter.api.Test;

/** The on-demand limits and continuity, a pure structure driven with {@code now}, at any clock. */
class OnDemandNamesTest {

    static final long S = TimeUnit.SECONDS.toNanos(1);
    static final Asker A = Asker.udp(HostPort.literal("10.0.0.7"));
    static final Asker B = Asker.udp(HostPort.literal("10.0.0.8"));
    static final long[] CLOCKS = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE - 1000 * S};

    static Limits limits(int unresolved, int perSecond, int perAsker) {
        return new Limits(unresolved, perSecond, perAsker, 90 * S);
    }

    @Test
    void admitsOnceAndKnowsItThen() {
        for (long t0 : CLOCKS) {
            OnDemandNames d = new OnDemandNames(limits(100, 10, 50), t0);
            assertThat(d.ask("a", A, t0)).isEqualTo(Answer.ADMITTED);
            assertThat(d.ask("a", B, t0 + S)).isEqualTo(Answer.KNOWN);
            assertThat(d.unresolved()).isEqualTo(1);
            assertThat(d.held(A)).isEqualTo(1);
            assertThat(d.held(B)).isZero();
            assertThat(d.entry("a").lastAsked).isEqualTo(t0 + S);
        }
    }

    @Test
    void theRateIsABucketRefilledContinuouslyAndEachAskerHasItsShare() {
        for (long t0 : CLOCKS) {
            // 100 a second, one asker a quarter of the allowance: a quarter of the rate, 25 a second
            OnDemandNames d = new OnDemandNames(limits(5000, 100, 1250), t0);
            int admitted = 0;
            for (int i = 0; i < 200; i++) {
                if (d.ask("a" + i, A, t0) == Answer.ADMITTED) {
                    admitted++;
                }
            }
            assertThat(admitted).isEqualTo(25);
            assertThat(d.refusals().get(Answer.CLIENT_RATE)).isEqualTo(175);
            // meanwhile B gets its own share at once
            int b = 0;
            for (int i = 0; i < 30; i++) {
                if (d.ask("b" + i, B, t0) == Answer.ADMITTED) {
                    b++;
                }
            }
            assertThat(b).isEqualTo(25);
            // half a second later: half of A's share again
            int later = 0;
            for (int i = 200; i < 300; i++) {
                if (d.ask("a" + i, A, t0 + S / 2) == Answer.ADMITTED) {
                    later++;
                }
            }
            assertThat(later).isEqualTo(12);
        }
    }

    @Test
    void theGlobalRateHoldsOverManyAskers() {
        OnDemandNames d = new OnDemandNames(limits(5000, 100, 1250), 0);
        int admitted = 0;
        for (int c = 0; c < 20; c++) {
            Asker x = Asker.udp(HostPort.literal("10.1.0." + (c + 1)));
            for (int i = 0; i < 25; i++) {
                if (d.ask("n" + c + ":" + i, x, 0) == Answer.ADMITTED) {
                    admitted++;
                }
            }
        }
        assertThat(admitted).isEqualTo(100);
        assertThat(d.refusals().get(Answer.RATE)).isEqualTo(400);
    }

    @Test
    void theUnresolvedAllowanceAndOneAskersShareOfIt() {
        OnDemandNames d = new OnDemandNames(limits(10, 1000, 4), 0);
        long t = 0;
        for (int i = 0; i < 6; i++) {
            d.ask("a" + i, A, t += S);
        }
        assertThat(d.held(A)).isEqualTo(4);
        assertThat(d.refusals().get(Answer.CLIENT_SHARE)).isEqualTo(2);
        for (int c = 0; c < 3; c++) {
            Asker x = Asker.udp(HostPort.literal("10.2.0." + (c + 1)));
            for (int i = 0; i < 4; i++) {
                d.ask("c" + c + ":" + i, x, t += S);
            }
        }
        assertThat(d.unresolved()).isEqualTo(10);
        assertThat(d.refusals().get(Answer.UNRESOLVED_LIMIT)).isEqualTo(6); // c1 got 2 in, c2 none
        // a resolved name costs no search and frees room; withdrawn, it is charged again
        d.resolved("a0");
        assertThat(d.unresolved()).isEqualTo(9);
        assertThat(d.held(A)).isEqualTo(3);
        assertThat(d.count(State.RESOLVED)).isEqualTo(1);
        assertThat(d.ask("a9", A, t += S)).isEqualTo(Answer.ADMITTED);
        d.withdrawn("a0", t);
        assertThat(d.unresolved()).isEqualTo(11);
        assertThat(d.held(A)).isEqualTo(5);
        // a name the client searches anyway is charged to nobody
        d.elsewhere("a1");
        assertThat(d.held(A)).isEqualTo(4);
        assertThat(d.count(State.ELSEWHERE)).isEqualTo(1);
        // one the client cannot search is forgotten
        d.forget("a2");
        assertThat(d.entry("a2")).isNull();
        assertThat(d.held(A)).isEqualTo(3);
    }

    @Test
    void aNameStaysWhileAskedWithinTheHoldAndGoesAfter() {
        for (long t0 : CLOCKS) {
            OnDemandNames d = new OnDemandNames(limits(100, 100, 50), t0);
            d.ask("kept", A, t0);
            d.ask("dropped", A, t0);
            for (long t = 35 * S; t <= 350 * S; t += 35 * S) {
                d.ask("kept", B, t0 + t); // anybody asking keeps it
                d.touch("never-asked", t0 + t);
                assertThat(d.expire(t0 + t)).doesNotContain("kept");
            }
            assertThat(d.entry("kept")).isNotNull();
            assertThat(d.entry("dropped")).isNull();
            assertThat(d.released()).isEqualTo(1);
            assertThat(d.held(A)).isEqualTo(1); // still charged to whoever asked first
            assertThat(d.expire(t0 + 350 * S + 91 * S)).containsExactly("kept");
            assertThat(d.unresolved()).isZero();
            assertThat(d.held(A)).isZero();
        }
    }

    @Test
    void refusalsWaitForTheReporterWithTheirAskers() {
        OnDemandNames d = new OnDemandNames(limits(2, 100, 1), 0);
        d.ask("a", A, 0);
        d.ask("b", A, 0);
        d.ask("c", A, 0);
        OnDemandNames.Pending p = d.takePending();
        assertThat(p.refusals()).containsEntry(Answer.CLIENT_SHARE, 2L);
        assertThat(p.askers()).containsEntry(A, Answer.CLIENT_SHARE);
        assertThat(p.admitted()).isEqualTo(1);
        assertThat(d.takePending().refusals()).isEmpty();
        // the totals stay
        assertThat(d.refusals().get(Answer.CLIENT_SHARE)).isEqualTo(2);
        assertThat(d.topAskers(5)).singleElement().satisfies(r -> {
            assertThat(r.asker()).isEqualTo(A);
            assertThat(r.unresolved()).isEqualTo(1);
            assertThat(r.refused()).isEqualTo(2);
        });
    }

    @Test
    void theAskerTableIsBoundedAndForgetsIdleAskersFirst() {
        OnDemandNames d = new OnDemandNames(limits(10_000_000, 1_000_000, 10_000_000), 0);
        for (int i = 0; i < OnDemandNames.MAX_ASKERS; i++) {
            Asker x = new Asker(true, HostPort.literal("10.3.0.1"), i + 1);
            d.ask("n" + i, x, 0);
        }
        // all of them hold a name: a new one is refused
        assertThat(d.ask("z", B, 0)).isEqualTo(Answer.CLIENTS);
        // one resolved: its asker holds nothing, and makes room
        d.resolved("n0");
        assertThat(d.ask("z", B, 0)).isEqualTo(Answer.ADMITTED);
    }

    @Test
    void newLimitsApplyToWhatComesNext() {
        OnDemandNames d = new OnDemandNames(limits(10, 100, 5), 0);
        for (int i = 0; i < 5; i++) {
            d.ask("a" + i, A, 0);
        }
        d.limits(limits(3, 100, 3));
        // already on demand: kept; new ones: refused
        assertThat(d.unresolved()).isEqualTo(5);
        assertThat(d.ask("new", B, S)).isEqualTo(Answer.UNRESOLVED_LIMIT);
        assertThat(d.ask("a0", B, S)).isEqualTo(Answer.KNOWN);
    }

    @Test
    void clearReleasesEverything() {
        OnDemandNames d = new OnDemandNames(limits(10, 100, 5), 0);
        d.ask("a", A, 0);
        d.ask("b", B, 0);
        d.resolved("b");
        assertThat(d.clear()).containsExactlyInAnyOrder("a", "b");
        assertThat(d.unresolved()).isZero();
        assertThat(d.size()).isZero();
    }
}
