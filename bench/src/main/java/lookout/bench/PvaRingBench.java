package lookout.bench;

import java.util.concurrent.TimeUnit;
import lookout.engine.pva.client.SearchLoad;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU per ring tick with N searching channels at steady state (seed 002 §8): each invocation is
 * one 1-s tick — drain a bucket, pack its names into ≤1400-byte SEARCH datagrams, reinsert.
 * Sockets are not involved (the sink counts), so this is the client's own cost per tick.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 6)
public class PvaRingBench {

    @Param({"1000000"})
    public int channels;

    /** Name length L (names are zero-padded numbers of this many characters). */
    @Param({"20"})
    public int nameLength;

    /** 1: the channels are created at once (lumpy ring); 30: evenly over the first 30 s. */
    @Param({"1", "30"})
    public int createdOverTicks;

    private SearchLoad load;

    @Setup(Level.Trial)
    public void setUp() {
        String fmt = "pv:%0" + (nameLength - 3) + "d";
        load = new SearchLoad(channels, i -> String.format(fmt, i), createdOverTicks);
        // past attempt 31 every channel searches once per 30 s: the steady state of §8
        for (int i = 0; i < 31 * 30; i++) {
            load.tick();
        }
    }

    @Benchmark
    public SearchLoad.Figures tick() {
        return load.tick();
    }
}
