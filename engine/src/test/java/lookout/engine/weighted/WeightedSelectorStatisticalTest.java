package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Draws from every family of seed 001's SYNOPSIS configuration against the exact odds: 20 000
 * draws per (family, state set), Pearson chi-squared over the distinct answer sets, rejected at
 * α = 1e-4. Four state sets, two of them with families in failover.
 */
class WeightedSelectorStatisticalTest {

    static final double ALPHA = 1e-4;
    static final int DRAWS = 20_000;

    /** DOWN targets per state set (a target is DOWN in every resource that uses it: shared monitors). */
    static final Map<String, Set<String>> STATES = new LinkedHashMap<>();

    static {
        STATES.put("all-up", Set.of());
        STATES.put("some-down", Set.of("192.0.2.1", "127.0.0.3", "2001:db8::123", "lb01.example.org."));
        STATES.put("partial-failover", Set.of("lb01.example.org.", "192.0.2.1", "192.0.2.2", "192.0.2.4",
                "127.0.0.3", "127.0.0.4", "127.0.0.5", "2001:db8::123", "2001:db8::789"));
        STATES.put("all-down", Set.of("lb01.example.org.", "lb02.example.org.", "lb03.example.org.",
                "2001:db8::123", "2001:db8::456", "2001:db8::789", "2001:db8::abc",
                "192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4",
                "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"));
    }

    static Stream<Arguments> cases() {
        WeightedConfig c = Synopsis.synopsis();
        List<Arguments> out = new ArrayList<>();
        long seed = 1;
        for (WeightedResource r : c.resources().values()) {
            for (WeightedFamily f : r.families()) {
                for (var s : STATES.entrySet()) {
                    out.add(Arguments.of(r.name() + "/" + f.stanza() + "/" + f.kind(), s.getKey(), f, s.getValue(), seed++));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void drawsFollowTheExactOdds(String name, String state, WeightedFamily family, Set<String> down, long seed) {
        FamilyPlan plan = new FamilyPlan(family);
        LiveFamily live = Plans.liveByTarget(plan, down);
        OddsCalculator.FamilyOdds odds = OddsCalculator.odds(live);
        Map<String, Double> expected = new HashMap<>();
        for (OddsCalculator.AnswerSet s : odds.sets()) {
            expected.put(String.join(",", s.items()), s.probability());
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] out = new int[plan.items()];
        Map<String, Integer> observed = new HashMap<>();
        int[] perItem = new int[plan.items()];
        for (int d = 0; d < DRAWS; d++) {
            int n = WeightedSelector.select(live, random, out);
            int[] sorted = Arrays.copyOf(out, n);
            Arrays.sort(sorted);
            StringBuilder key = new StringBuilder();
            for (int i : sorted) {
                perItem[i]++;
                key.append(key.length() == 0 ? "" : ",").append(plan.label(i));
            }
            observed.merge(key.toString(), 1, Integer::sum);
        }
        ChiSquared.Result r = ChiSquared.test(observed, expected, DRAWS);
        assertThat(r.pValue()).as("%s under %s: chi2=%.2f df=%d observed=%s expected=%s", name, state,
                r.statistic(), r.df(), observed, expected).isGreaterThan(ALPHA);
        // every item's frequency within 5 standard deviations of its exact odds
        for (int i = 0; i < plan.items(); i++) {
            double p = odds.itemProbability()[i];
            double sd = Math.sqrt(DRAWS * p * (1 - p));
            assertThat((double) perItem[i]).as(plan.label(i)).isCloseTo(DRAWS * p, within(5 * sd + 1e-9));
        }
    }

    @Test
    void theStatesCoverFailover() {
        WeightedConfig c = Synopsis.synopsis();
        FamilyPlan cdn = new FamilyPlan(c.resources().get("cdnwww").v4());
        FamilyPlan corp = new FamilyPlan(c.resources().get("corpwww").cnames());
        FamilyPlan pub = new FamilyPlan(c.resources().get("pubwww").v4());
        assertThat(Plans.liveByTarget(cdn, STATES.get("partial-failover")).failover()).isTrue();
        assertThat(Plans.liveByTarget(corp, STATES.get("partial-failover")).failover()).isTrue();
        assertThat(Plans.liveByTarget(pub, STATES.get("partial-failover")).failover()).isFalse();
        assertThat(Plans.liveByTarget(cdn, STATES.get("some-down")).failover()).isFalse();
    }

    @Test
    void chiSquaredTailIsRight() {
        // known quantiles: chi2(1) at 3.841 -> 0.05; chi2(10) at 18.307 -> 0.05; chi2(3) at 21.108 -> 1e-4
        assertThat(ChiSquared.upperTail(1, 3.841458820694124)).isCloseTo(0.05, within(1e-6));
        assertThat(ChiSquared.upperTail(10, 18.307038053275146)).isCloseTo(0.05, within(1e-6));
        assertThat(ChiSquared.upperTail(3, 21.107513)).isCloseTo(1e-4, within(1e-7));
    }

    @Test
    void aBiasedSelectorWouldBeCaught() {
        // the test has teeth: draws from the wrong odds (all-up draws against some-down odds) fail
        WeightedConfig c = Synopsis.synopsis();
        FamilyPlan plan = new FamilyPlan(c.resources().get("corpwww").cnames());
        LiveFamily wrong = Plans.liveByTarget(plan, Set.of());
        LiveFamily right = Plans.liveByTarget(plan, Set.of("lb03.example.org."));
        Map<String, Double> expected = new HashMap<>();
        for (OddsCalculator.AnswerSet s : OddsCalculator.odds(right).sets()) {
            expected.put(String.join(",", s.items()), s.probability());
        }
        SplittableRandom random = new SplittableRandom(99);
        int[] out = new int[3];
        Map<String, Integer> observed = new HashMap<>();
        for (int d = 0; d < DRAWS; d++) {
            WeightedSelector.select(wrong, random, out);
            observed.merge(plan.label(out[0]), 1, Integer::sum);
        }
        assertThat(ChiSquared.test(observed, expected, DRAWS).pValue()).isLessThan(ALPHA);
    }
}
