package lookout.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parse (vscf → tree) and parse + bind + validate (tree → Config) of a generated configuration of
 * exactly 10 000 lines: 1 000 resolver scopes, 400 weighted resources, PV names to watch, and
 * comments, the shapes a large facility file has.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ConfigParseBench {

    static final int LINES = 10_000;

    private String text;
    private ConfigLoader loader;

    @Setup(Level.Trial)
    public void generate() {
        text = generate(LINES);
        loader = new ConfigLoader(Map.of());
        ConfigResult check = loader.parse(text, "bench.conf", Path.of("."));
        if (!check.ok()) {
            throw new IllegalStateException("generated configuration is invalid: " + check.problems().get(0));
        }
        long lines = text.chars().filter(c -> c == '\n').count();
        if (lines != LINES) {
            throw new IllegalStateException("generated " + lines + " lines, not " + LINES);
        }
    }

    static String generate(int lines) {
        StringBuilder sb = new StringBuilder();
        int[] n = {0};
        java.util.function.Consumer<String> line = s -> {
            sb.append(s).append('\n');
            n[0]++;
        };
        line.accept("# generated for ConfigParseBench");
        line.accept("resolver => {");
        line.accept("  listen => [ 127.0.0.1:8053, \"[::1]:8053\" ]");
        line.accept("  allow => [ 127.0.0.0/8, ::1/128, 10.0.0.0/8 ]");
        line.accept("  scopes => {");
        for (int i = 0; i < 1000; i++) {
            line.accept("    scope" + i + " => {   # site " + i);
            line.accept("      domains => [ s" + i + ".corp.example., \"r" + i + ".corp.example.\" ]");
            line.accept("      servers => [ 192.0." + (i % 250) + "." + (i / 250 + 1) + ", 198.51.100." + (i % 250)
                    + ":5353 ]");
            line.accept("    }");
        }
        line.accept("    lan => { default => true, servers => [ 203.0.113.1 ] }");
        line.accept("  }");
        line.accept("  fallback_servers => [ 203.0.113.2 ]");
        line.accept("  search => [ corp.example. ]");
        line.accept("  cache_size => 100000");
        line.accept("}");
        line.accept("service_types => {");
        line.accept("  web_check => { plugin => http_status, port => 80, url_path => /health, interval => 10 }");
        line.accept("}");
        line.accept("plugins => {");
        line.accept("  weighted => {");
        line.accept("    service_types => web_check");
        for (int i = 0; i < 400; i++) {
            line.accept("    pool" + i + " => {");
            line.accept("      multi = " + (i % 2 == 0));
            line.accept("      a = [ 10." + (i % 250) + ".0.1, " + (i + 1) + " ]");
            line.accept("      b = [ 10." + (i % 250) + ".0.2, 7 ]");
            line.accept("      c = [ 10." + (i % 250) + ".0.3, 1 ]");
            line.accept("    }");
        }
        line.accept("  }");
        line.accept("}");
        line.accept("status => { listen => 127.0.0.1:9153 }");
        line.accept("state_dir => state");
        line.accept("pva => {");
        line.accept("  addr_list => [ 127.0.0.1 ]");
        line.accept("  auto_addr_list => false");
        line.accept("  watch => [");
        int closing = 2;
        int pv = 0;
        while (n[0] < lines - closing) {
            line.accept("    \"ring:bench:" + pv++ + "\",");
        }
        line.accept("  ]");
        line.accept("}");
        return sb.toString();
    }

    @Benchmark
    public VNode parse() throws VscfSyntaxException {
        return VscfParser.parse(text, "bench.conf");
    }

    @Benchmark
    public ConfigResult parseAndBind() {
        return loader.parse(text, "bench.conf", Path.of("."));
    }
}
