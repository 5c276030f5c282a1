package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import lookout.engine.config.WeightedFamily;
import lookout.engine.config.WeightedGroup;
import lookout.engine.config.WeightedItem;
import lookout.engine.config.vscf.Position;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of selection and odds over random families, modes and DOWN sets. */
class SelectionPropertiesTest {

    record Case(WeightedFamily family, boolean[] down, long seed) {
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<List<List<Integer>>> groups = Arbitraries.integers().between(1, 1_048_575)
                .list().ofMinSize(1).ofMaxSize(6).list().ofMinSize(1).ofMaxSize(6);
        return Combinators.combine(groups, Arbitraries.of(true, false), Arbitraries.of(true, false),
                Arbitraries.doubles().between(0.01, 1.0), Arbitraries.longs(), Arbitraries.longs()).as((gs, grouped, multi, thresh, downBits, seed) -> {
                    List<WeightedGroup> out = new ArrayList<>();
                    Position pos = new Position("p", 1, 1);
                    int n = 0;
                    long total = 0;
                    if (grouped) {
                        for (int g = 0; g < gs.size(); g++) {
                            List<WeightedItem> items = new ArrayList<>();
                            for (int w : gs.get(g)) {
                                items.add(new WeightedItem("a" + n, "10.0.0." + (n % 250 + 1), w, pos));
                                n++;
                                total += w;
                            }
                            out.add(new WeightedGroup("g" + g, items, pos));
                        }
                    } else {
                        for (List<Integer> g : gs) {
                            for (int w : g) {
                                out.add(new WeightedGroup("a" + n, List.of(new WeightedItem("a" + n, "10.0.0." + (n % 250 + 1), w, pos)), pos));
                                n++;
                                total += w;
                            }
                        }
                    }
                    WeightedFamily f = new WeightedFamily("direct", WeightedFamily.Kind.IPV4, multi, grouped, thresh, List.of("up"), out,
                            WeightedFamily.upWeight(total, thresh));
                    boolean[] down = new boolean[n];
                    for (int i = 0; i < n; i++) {
                        down[i] = (downBits >>> (i % 64) & 1) == 1;
                    }
                    return new Case(f, down, seed);
                });
    }

    @Property(tries = 300)
    void oddsAreAProbabilityDistributionConsistentWithItemOdds(@ForAll("cases") Case c) {
        FamilyPlan plan = new FamilyPlan(c.family());
        LiveFamily live = LiveFamily.of(plan, c.down());
        OddsCalculator.FamilyOdds odds = OddsCalculator.odds(live);
        assertThat(live.failover()).isEqualTo(live.liveWeight() < plan.upWeight());
        if (odds.sets() == null) {
            return;
        }
        double total = 0;
        double[] fromSets = new double[plan.items()];
        for (OddsCalculator.AnswerSet s : odds.sets()) {
            assertThat(s.items()).isNotEmpty(); // at least one address always
            total += s.probability();
            for (String label : s.items()) {
                fromSets[plan.labels().indexOf(label)] += s.probability();
            }
        }
        assertThat(total).isCloseTo(1.0, within(1e-9));
        for (int i = 0; i < plan.items(); i++) {
            assertThat(fromSets[i]).isCloseTo(odds.itemProbability()[i], within(1e-9));
            if (!live.failover() && c.down()[i]) {
                assertThat(odds.itemProbability()[i]).isZero();
            }
        }
    }

    @Property(tries = 300)
    void drawsOnlyPossibleAnswersWithoutDuplicates(@ForAll("cases") Case c) {
        FamilyPlan plan = new FamilyPlan(c.family());
        LiveFamily live = LiveFamily.of(plan, c.down());
        OddsCalculator.FamilyOdds odds = OddsCalculator.odds(live);
        SplittableRandom r = new SplittableRandom(c.seed());
        int[] out = new int[plan.items()];
        for (int d = 0; d < 50; d++) {
            int n = WeightedSelector.select(live, r, out);
            assertThat(n).isBetween(1, plan.items());
            Set<Integer> seen = new HashSet<>();
            Set<Integer> groups = new HashSet<>();
            int[] groupOf = plan.groupOf();
            for (int k = 0; k < n; k++) {
                assertThat(seen.add(out[k])).isTrue();
                assertThat(odds.itemProbability()[out[k]]).isPositive();
                groups.add(groupOf[out[k]]);
            }
            // single: all from one group; multi: at most one per group
            if (!plan.config().multi()) {
                assertThat(groups).hasSize(1);
            } else {
                assertThat(groups).hasSize(n);
            }
        }
    }
}
