package lookout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a scenario's {@code main} in a private network namespace: {@code unshare -n sh -c 'SETUP &&
 * exec java OPTIONS -cp <test class path> MAIN ARG'}, with the test's own JVM and class path.
 * Anything that broadcasts, joins a group or needs addresses beyond 127.0.0.1 runs this way.
 * Skipped, loudly, where {@code unshare -n} is refused (it needs root or user namespaces); the
 * scenario is bounded to 120 s and its output (stdout and stderr) is printed and returned.
 */
public final class Netns {

    private Netns() {
    }

    public static String run(String setup, List<String> jvmOptions, Class<?> main, String arg) throws Exception {
        return run(List.of("-n"), setup, jvmOptions, main, arg);
    }

    /**
     * {@link #run(String, List, Class, String)} in the namespaces {@code unshare} makes with
     * {@code namespaces} ({@code -n}: network; {@code -n -m}: network and mounts, so that the
     * setup may bind-mount a file of its own over {@code /etc/resolv.conf}).
     */
    public static String run(List<String> namespaces, String setup, List<String> jvmOptions, Class<?> main, String arg)
            throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> probeCommand = new ArrayList<>(List.of("unshare"));
        probeCommand.addAll(namespaces);
        probeCommand.add("true");
        Process probe = new ProcessBuilder(probeCommand).redirectErrorStream(true).start();
        boolean can = probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        Assumptions.assumeTrue(can, "unshare " + String.join(" ", namespaces) + " not permitted here: namespace tests skipped");
        // sh -c 'SETUP && exec "$0" OPTIONS -cp "$1" MAIN "$2"' JAVA CP ARG: no quoting of paths
        List<String> command = new ArrayList<>(List.of("unshare"));
        command.addAll(namespaces);
        command.addAll(List.of("sh", "-c",
                setup + " && exec \"$0\" " + String.join(" ", jvmOptions) + " -cp \"$1\" " + main.getName() + " \"$2\"",
                java, cp, arg));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread pump = new Thread(() -> {
            try {
                p.getInputStream().transferTo(out);
            } catch (java.io.IOException e) {
                // process ended
            }
        });
        pump.start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        pump.join(5000);
        String text = out.toString();
        System.out.println(text);
        assertThat(done).as("scenario finished in time").isTrue();
        return text;
    }
}
