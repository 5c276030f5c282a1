package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import lookout.engine.config.ConfigLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIGKILL at any moment of an apply leaves the configuration file wholly old or wholly new
 * (docs/design/control.md §Persistence): a separate JVM ({@link ApplyLoop}) applies two large
 * texts in turn and is killed with {@code kill -9} at random moments, 20 times; after each kill
 * the file is exactly one of the two texts and parses, every backup is one of them, the version
 * file is whole, and the next engine starts on the file and goes on, its version never below the
 * last one an apply reported.
 */
class KillDuringApplyTest {

    static final int KILLS = 20;

    @TempDir
    Path dir;

    private static String text(String name, int pvaUdp, int pvaTcp, int cache) {
        // a long comment makes each write take a while, so kills land inside writes too
        String padding = ("# " + name + " " + "x".repeat(1000) + "\n").repeat(256);
        return padding + """
                resolver => { listen => [ 127.0.0.1:0 ], cache_size => %d }
                pva => {
                  addr_list => [ 127.0.0.1 ]
                  auto_addr_list => false
                  beacon_addr_list => [ 127.0.0.1 ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                }
                state_dir => state
                """.formatted(cache, pvaUdp, pvaTcp);
    }

    @Test
    void aKilledApplyLeavesTheFileWholeAndOneOfTheTwo() throws Exception {
        int udp;
        int tcp;
        try (DatagramSocket d = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            udp = d.getLocalPort();
            tcp = s.getLocalPort();
        }
        String a = text("A", udp, tcp, 1000);
        String b = text("B", udp, tcp, 2000);
        Path fa = dir.resolve("a.txt");
        Path fb = dir.resolve("b.txt");
        Files.writeString(fa, a);
        Files.writeString(fb, b);
        Path conf = dir.resolve("lookout.conf");
        Files.writeString(conf, a);
        Random random = new Random(14);
        int appliesSeen = 0;
        java.util.Set<String> outcomes = new java.util.HashSet<>();
        long lastApplied = 1;
        for (int kill = 0; kill < KILLS; kill++) {
            Process p = child(conf, fa, fb);
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                String first = out.readLine();
                assertThat(first).as("kill %d: the engine starts on what the last kill left", kill).startsWith("started ");
                // the version goes on across the kill: never below the last one an apply reported
                long started = Long.parseLong(first.substring("started ".length()).strip());
                assertThat(started).as("kill %d: version after the restart", kill).isGreaterThanOrEqualTo(lastApplied);
                // a few applies — two or three, so that the kill falls after either text whatever
                // the machine's speed — then a kill at a random moment of the next ones
                int applies = 2 + random.nextInt(2);
                for (int i = 0; i < applies; i++) {
                    String line = out.readLine();
                    assertThat(line).as("kill %d", kill).startsWith("applied ");
                    long v = Long.parseLong(line.substring("applied ".length()).strip());
                    assertThat(v).as("kill %d: versions rise by one per apply", kill).isEqualTo(
                            (i == 0 ? started : lastApplied) + 1);
                    lastApplied = v;
                    appliesSeen++;
                }
                Thread.sleep(random.nextInt(40));
                Process k = new ProcessBuilder("kill", "-9", Long.toString(p.pid())).inheritIO().start();
                assertThat(k.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).isEqualTo(137); // 128 + SIGKILL
            } finally {
                p.destroyForcibly();
            }
            String now = Files.readString(conf);
            assertThat(now.equals(a) || now.equals(b)).as("kill %d: the file is wholly A or wholly B", kill).isTrue();
            outcomes.add(now.equals(a) ? "A" : "B");
            assertThat(new ConfigLoader(Map.of()).load(conf).ok()).isTrue();
            try (var backups = Files.list(dir.resolve("state/backups"))) {
                for (Path f : backups.toList()) {
                    if (f.getFileName().toString().startsWith(".")) {
                        continue; // a killed write's temporary: no backup, removed at the next start (below)
                    }
                    String t = Files.readString(f);
                    assertThat(t.equals(a) || t.equals(b)).as("backup %s is whole", f).isTrue();
                }
            }
            assertThat(Files.readString(dir.resolve("state/version"))).matches("\\d+ [0-9a-f]{64}\n");
        }
        assertThat(appliesSeen).isBetween(2 * KILLS, 3 * KILLS);
        assertThat(outcomes).as("kills left either text, at different moments").containsExactlyInAnyOrder("A", "B");
        // the last 20 are kept (21 when the kill fell between a backup and the pruning after it);
        // what a killed write left behind goes at the next start
        ConfigStore store = new ConfigStore(dir.resolve("state"));
        assertThat(ConfigStore.backupNumbers(dir.resolve("state/backups"), "lookout.conf").size())
                .isBetween(ConfigStore.BACKUPS, ConfigStore.BACKUPS + 1);
        store.removeStaleTemporaries();
        AtomicFiles.removeStaleTemporaries(conf);
        try (var left = Files.list(dir.resolve("state/backups"))) {
            assertThat(left.filter(f -> f.getFileName().toString().startsWith("."))).isEmpty();
        }
    }

    private static Process child(Path conf, Path a, Path b) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", classPath(), ApplyLoop.class.getName(),
                conf.toString(), a.toString(), b.toString()));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** This test's class path (surefire may hand it over in a manifest-only jar: that works as -cp too). */
    private static String classPath() {
        String cp = System.getProperty("java.class.path");
        String mp = System.getProperty("jdk.module.path");
        return mp == null || mp.isEmpty() ? cp : cp + File.pathSeparator + mp;
    }
}
