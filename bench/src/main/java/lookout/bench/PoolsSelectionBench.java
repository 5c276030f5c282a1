package lookout.bench;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.WeightedFamily;
import lookout.engine.weighted.FamilyPlan;
import lookout.engine.weighted.LiveFamily;
import lookout.engine.weighted.WeightedSelector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one weighted selection (SPEC goal: at most 1 µs) for 64-item resources in the four
 * address cases: ungrouped single and multi (64 addresses), grouped single and multi (8 groups
 * of 8 addresses), a quarter of the addresses DOWN, weights 1..64.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class PoolsSelectionBench {

    @Param({"ungrouped-single", "ungrouped-multi", "grouped-single", "grouped-multi"})
    public String mode;

    private LiveFamily live;
    private final SplittableRandom random = new SplittableRandom(42);
    private int[] out;

    @Setup
    public void setup() {
        boolean grouped = mode.startsWith("grouped");
        boolean multi = mode.endsWith("multi");
        StringBuilder sb = new StringBuilder("plugins => { weighted => { r => { multi => ").append(multi).append('\n');
        int n = 0;
        if (grouped) {
            for (int g = 0; g < 8; g++) {
                sb.append("g").append(g).append(" => {\n");
                for (int i = 0; i < 8; i++, n++) {
                    sb.append("  a").append(i).append(" => [ 10.0.").append(g).append('.').append(i + 1).append(", ").append(n + 1).append(" ]\n");
                }
                sb.append("}\n");
            }
        } else {
            for (int i = 0; i < 64; i++) {
                sb.append("a").append(i).append(" => [ 10.0.0.").append(i + 1).append(", ").append(i + 1).append(" ]\n");
            }
        }
        sb.append("} } }\n");
        ConfigResult r = new ConfigLoader(Map.of()).parse(sb.toString(), "bench.conf", java.nio.file.Path.of("."));
        if (!r.ok()) {
            throw new IllegalStateException(r.problems().toString());
        }
        WeightedFamily f = r.config().weighted().resources().get("r").v4();
        FamilyPlan plan = new FamilyPlan(f);
        boolean[] down = new boolean[plan.items()];
        for (int i = 0; i < down.length; i += 4) {
            down[i] = true;
        }
        live = LiveFamily.of(plan, down);
        out = new int[plan.items()];
    }

    @Benchmark
    public int select() {
        return WeightedSelector.select(live, random, out);
    }
}
