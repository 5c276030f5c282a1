package lookout.bench;

import java.util.concurrent.TimeUnit;
import lookout.engine.config.ConfigProblems;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/** Smoke benchmark that keeps the module buildable: cost of the did-you-mean lookup. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SchedulerBench {

    private static final java.util.List<String> KEYS = java.util.List.of(
            "addr_list", "auto_addr_list", "name_servers", "broadcast_port", "server_port",
            "beacon_addr_list", "auto_beacon_addr_list", "ignore_addr_list", "server", "watch");

    @Benchmark
    public String didYouMean() {
        return ConfigProblems.closest("adr_list", KEYS);
    }
}
