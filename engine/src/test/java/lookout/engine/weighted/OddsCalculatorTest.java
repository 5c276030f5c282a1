package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Exact odds against seed 001's worked examples and hand-computed grouped cases. */
class OddsCalculatorTest {

    private static final double EPS = 1e-12;

    private static Map<String, Double> sets(OddsCalculator.FamilyOdds odds) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (OddsCalculator.AnswerSet s : odds.sets()) {
            m.put(String.join(",", s.items()), s.probability());
        }
        return m;
    }

    @Test
    void seedUngroupedSingleExample() {
        // seed 001 THE UNGROUPED SINGLE CASE: 25% (45/180), 33% (60/180), 42% (75/180)
        FamilyPlan p = Plans.family("r => { multi => false, lb01 => [ 192.0.2.1, 45 ], lb02 => [ 192.0.2.1, 60 ], lb03 => [ 192.0.2.1, 75 ] }");
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p));
        assertThat(o.itemProbability()[0]).isCloseTo(45.0 / 180, within(EPS));
        assertThat(o.itemProbability()[1]).isCloseTo(60.0 / 180, within(EPS));
        assertThat(o.itemProbability()[2]).isCloseTo(75.0 / 180, within(EPS));
        assertThat(Math.round(o.itemProbability()[0] * 100)).isEqualTo(25);
        assertThat(Math.round(o.itemProbability()[1] * 100)).isEqualTo(33);
        assertThat(Math.round(o.itemProbability()[2] * 100)).isEqualTo(42);
        assertThat(sets(o)).containsOnlyKeys("lb01", "lb02", "lb03");
        assertThat(o.failover()).isFalse();
        assertThat(o.upWeight()).isEqualTo(90);
    }

    @Test
    void seedUngroupedMultiExample() {
        // seed 001 THE UNGROUPED MULTI CASE: 75%, 100%, 100%; {lb01,lb02,lb03} 75%, {lb02,lb03} 25%
        FamilyPlan p = Plans.family("r => { multi => true, lb01 => [ 192.0.2.1, 45 ], lb02 => [ 192.0.2.1, 60 ], lb03 => [ 192.0.2.1, 60 ] }");
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p));
        assertThat(o.itemProbability()).containsExactly(new double[] {0.75, 1.0, 1.0}, within(EPS));
        Map<String, Double> s = sets(o);
        assertThat(s).containsOnlyKeys("lb01,lb02,lb03", "lb02,lb03");
        assertThat(s.get("lb01,lb02,lb03")).isCloseTo(0.75, within(EPS));
        assertThat(s.get("lb02,lb03")).isCloseTo(0.25, within(EPS));
    }

    @Test
    void seedMultiWithDownItemRenormalisesOnTheLiveMax() {
        // lb02 and lb03 DOWN: live 45 >= ceil(165/2) = 83? no: 45 < 83 -> failover, all UP again
        FamilyPlan p = Plans.family("r => { multi => true, lb01 => [ 192.0.2.1, 45 ], lb02 => [ 192.0.2.2, 60 ], lb03 => [ 192.0.2.3, 60 ] }");
        OddsCalculator.FamilyOdds fo = OddsCalculator.odds(Plans.liveByLabel(p, "lb02", "lb03"));
        assertThat(fo.failover()).isTrue();
        assertThat(fo.upWeight()).isEqualTo(83);
        assertThat(fo.liveWeight()).isEqualTo(45);
        assertThat(fo.itemProbability()).containsExactly(new double[] {0.75, 1.0, 1.0}, within(EPS));
        // only lb03 DOWN: live 105 >= 83, max is 60 -> lb01 45/60, lb02 always
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p, "lb03"));
        assertThat(o.failover()).isFalse();
        assertThat(o.itemProbability()).containsExactly(new double[] {0.75, 1.0, 0.0}, within(EPS));
        assertThat(sets(o)).containsOnlyKeys("lb01,lb02", "lb02");
    }

    private static final String GROUPS = """
            r => {
              multi => %s
              group1 => { lb01 => [ 192.0.2.1, 10 ], lb02 => [ 192.0.2.2, 20 ], lb03 => [ 192.0.2.3, 30 ] }
              group2 => { lb01 => [ 192.0.2.7, 10 ], lb02 => [ 192.0.2.8, 20 ], lb03 => [ 192.0.2.9, 30 ] }
            }
            """;

    @Test
    void groupedSingleHandComputed() {
        FamilyPlan p = Plans.family(GROUPS.formatted("false"));
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p));
        // each group 60/120; inside, lb01 10/30, lb02 20/30, lb03 30/30
        assertThat(o.groupProbability()).containsExactly(new double[] {0.5, 0.5}, within(EPS));
        assertThat(o.itemProbability()).containsExactly(new double[] {1.0 / 6, 1.0 / 3, 0.5, 1.0 / 6, 1.0 / 3, 0.5}, within(EPS));
        Map<String, Double> s = sets(o);
        assertThat(s).hasSize(8);
        assertThat(s.get("group1/lb01,group1/lb02,group1/lb03")).isCloseTo(0.5 * (1.0 / 3) * (2.0 / 3), within(EPS));
        assertThat(s.get("group1/lb02,group1/lb03")).isCloseTo(0.5 * (2.0 / 3) * (2.0 / 3), within(EPS));
        assertThat(s.get("group2/lb01,group2/lb03")).isCloseTo(0.5 * (1.0 / 3) * (1.0 / 3), within(EPS));
        assertThat(s.get("group2/lb03")).isCloseTo(0.5 * (2.0 / 3) * (1.0 / 3), within(EPS));
        assertThat(s.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(EPS));
    }

    @Test
    void groupedSingleWithDownItems() {
        FamilyPlan p = Plans.family(GROUPS.formatted("false"));
        // group1/lb03 DOWN: group1 live 30 (max 20), group2 60; total 90 >= 60
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p, "group1/lb03"));
        assertThat(o.failover()).isFalse();
        assertThat(o.groupProbability()).containsExactly(new double[] {1.0 / 3, 2.0 / 3}, within(EPS));
        assertThat(o.itemProbability()).containsExactly(
                new double[] {1.0 / 3 * 10 / 20, 1.0 / 3, 0.0, 2.0 / 3 * 10 / 30, 2.0 / 3 * 20 / 30, 2.0 / 3}, within(EPS));
        assertThat(sets(o).get("group1/lb01,group1/lb02")).isCloseTo(1.0 / 3 * 0.5, within(EPS));
        assertThat(sets(o).get("group1/lb02")).isCloseTo(1.0 / 3 * 0.5, within(EPS));
    }

    @Test
    void groupedMultiHandComputed() {
        FamilyPlan p = Plans.family(GROUPS.formatted("true"));
        // both groups 60/60: always included; one member each by w/60
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p, "group2/lb03"));
        // group2 live 30: included with 30/60, then lb01 10/30, lb02 20/30
        assertThat(o.groupProbability()).containsExactly(new double[] {1.0, 0.5}, within(EPS));
        assertThat(o.itemProbability()).containsExactly(
                new double[] {10.0 / 60, 20.0 / 60, 30.0 / 60, 10.0 / 60, 20.0 / 60, 0.0}, within(EPS));
        Map<String, Double> s = sets(o);
        assertThat(s).hasSize(9); // 3 choices in group1 x (none, lb01, lb02) in group2
        assertThat(s.get("group1/lb03")).isCloseTo(0.5 * 0.5, within(EPS));
        assertThat(s.get("group1/lb01,group2/lb02")).isCloseTo((10.0 / 60) * (20.0 / 60), within(EPS));
    }

    @Test
    void synopsisCdnGroupedSingleAndMixedV6GroupedMulti() {
        // cdnwww: datacenter1 {2,2} = 4, datacenter2 {2,2,1} = 5; grouped single
        FamilyPlan cdn = new FamilyPlan(Synopsis.synopsis().resources().get("cdnwww").v4());
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(cdn));
        assertThat(o.groupProbability()).containsExactly(new double[] {4.0 / 9, 5.0 / 9}, within(EPS));
        assertThat(o.itemProbability()).containsExactly(
                new double[] {4.0 / 9, 4.0 / 9, 5.0 / 9, 5.0 / 9, 5.0 / 9 * 0.5}, within(EPS));
        // mixed addrs_v6: www6set1 {4,1}, www6set2 {4,1}; grouped multi: each group always, one member by w/5
        FamilyPlan v6 = new FamilyPlan(Synopsis.synopsis().resources().get("mixed").v6());
        OddsCalculator.FamilyOdds m = OddsCalculator.odds(Plans.liveByLabel(v6));
        assertThat(m.itemProbability()).containsExactly(new double[] {0.8, 0.2, 0.8, 0.2}, within(EPS));
        assertThat(sets(m).get("www6set1/lb01,www6set2/lb01")).isCloseTo(0.64, within(EPS));
    }

    @Test
    void upThreshBoundaryBothSidesOfTheCeil() {
        // total 5, up_thresh 0.5: up_weight = ceil(2.5) = 3
        FamilyPlan p = Plans.family("r => { a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 1 ], c => [ 192.0.2.3, 1 ], d => [ 192.0.2.4, 2 ] }");
        assertThat(p.upWeight()).isEqualTo(3);
        // live 3 (a, d): not below 3 -> no failover, odds over the live items
        OddsCalculator.FamilyOdds at = OddsCalculator.odds(Plans.liveByLabel(p, "b", "c"));
        assertThat(at.failover()).isFalse();
        assertThat(at.liveWeight()).isEqualTo(3);
        assertThat(at.itemProbability()).containsExactly(new double[] {1.0 / 3, 0, 0, 2.0 / 3}, within(EPS));
        // live 2 (d): 2 < 3 -> failover, everything UP again
        OddsCalculator.FamilyOdds below = OddsCalculator.odds(Plans.liveByLabel(p, "a", "b", "c"));
        assertThat(below.failover()).isTrue();
        assertThat(below.liveWeight()).isEqualTo(2);
        assertThat(below.itemProbability()).containsExactly(new double[] {0.2, 0.2, 0.2, 0.4}, within(EPS));
        // up_thresh 1.0: any DOWN item is a failover
        FamilyPlan strict = Plans.family("r => { up_thresh => 1.0, a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 3 ] }");
        assertThat(strict.upWeight()).isEqualTo(4);
        assertThat(OddsCalculator.odds(Plans.liveByLabel(strict, "a")).failover()).isTrue();
        // up_thresh 0.01 on the SYNOPSIS pubwww: ceil(0.77) = 1, so one live item keeps it out of failover
        FamilyPlan pub = new FamilyPlan(Synopsis.synopsis().resources().get("pubwww").v4());
        assertThat(OddsCalculator.odds(Plans.liveByLabel(pub, "pubhost01", "pubhost02", "pubhost03")).failover()).isFalse();
        assertThat(OddsCalculator.odds(Plans.liveByLabel(pub, "pubhost01", "pubhost02", "pubhost03", "pubhost04")).failover()).isTrue();
    }

    @Test
    void cnameOdds() {
        FamilyPlan p = new FamilyPlan(Synopsis.synopsis().resources().get("corpwww").cnames());
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(p, "lb02"));
        // live 100 >= ceil(57.5) = 58
        assertThat(o.itemProbability()).containsExactly(new double[] {0.99, 0.0, 0.01}, within(EPS));
        OddsCalculator.FamilyOdds f = OddsCalculator.odds(Plans.liveByLabel(p, "lb01"));
        assertThat(f.failover()).isTrue(); // 16 < 58
        assertThat(f.itemProbability()).containsExactly(new double[] {99.0 / 115, 15.0 / 115, 1.0 / 115}, within(EPS));
    }

    @Test
    void tooManySetsAreNotListedButItemOddsAre() {
        StringBuilder b = new StringBuilder("r => { multi => true\n");
        for (int i = 0; i < 20; i++) {
            b.append("a").append(i).append(" => [ 10.0.0.").append(i).append(", ").append(i + 1).append(" ]\n");
        }
        b.append("}");
        OddsCalculator.FamilyOdds o = OddsCalculator.odds(Plans.liveByLabel(Plans.family(b.toString())));
        assertThat(o.sets()).isNull();
        assertThat(o.setCount()).isEqualTo(Math.pow(2, 19));
        assertThat(o.itemProbability()[0]).isCloseTo(1.0 / 20, within(EPS));
        assertThat(o.itemProbability()[19]).isEqualTo(1.0);
        assertThat(List.of(o.itemProbability().length)).containsExactly(20);
    }
}
