package lookout.engine.dns;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;

/**
 * Run by {@link StubResolverNetnsTest} inside private network and mount namespaces whose
 * {@code /etc/resolv.conf} names 127.0.0.1 alone: the engine runs the embedded default
 * configuration on 127.0.0.1:53 (the only port glibc's stub resolver asks), and the system's own
 * clients — {@code getent ahosts} and Python's {@code socket.getaddrinfo} — look names up through
 * it. {@code app.lookout.test} is a DYNC whose CNAMEs point into the other demo zone: the address
 * comes only if the resolver follows the CNAME. Prints {@code PASS}/{@code FAIL} lines.
 */
public final class StubResolverScenario {

    private StubResolverScenario() {
    }

    public static void main(String[] args) throws Exception {
        Path home = Files.createTempDirectory("lookout-stub");
        String text = ConfigLoader.embeddedDefaultText().replace("127.0.0.1:8053", "127.0.0.1:53");
        ConfigResult r = new ConfigLoader(Map.of("HOME", home.toString())).parse(text, "default.conf", home);
        if (!r.ok()) {
            System.out.println("FAIL configuration: " + r.problems());
            return;
        }
        Engine engine = Engines.create(EngineOptions.forTest(null, new Random(53), home));
        engine.start(r.config());
        try {
            System.out.println("listening on " + engine.snapshot().resolver().listen());
            check("getent ahosts app.lookout.test", List.of("getent", "ahosts", "app.lookout.test"), "127.0.0.1");
            check("getent ahosts www.lookout.test", List.of("getent", "ahosts", "www.lookout.test"), "127.0.0.1");
            check("python getaddrinfo app.lookout.test", List.of("python3", "-c",
                    "import socket; print(sorted({a[4][0] for a in socket.getaddrinfo('app.lookout.test', 80)}))"),
                    "127.0.0.1");
            System.out.println("chains followed: " + engine.snapshot().resolver().cnameChains());
        } finally {
            engine.stop();
        }
    }

    private static void check(String what, List<String> command, String expected) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        boolean ok = done && p.exitValue() == 0 && out.contains(expected);
        System.out.println((ok ? "PASS " : "FAIL ") + what + " -> " + (done ? "exit " + p.exitValue() : "timed out") + ": "
                + out.replace('\n', ' '));
        if (!done) {
            p.destroyForcibly();
        }
    }
}
