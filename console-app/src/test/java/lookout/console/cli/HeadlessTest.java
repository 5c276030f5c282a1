package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.Metric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The headless start path (no JavaFX): a real engine on loopback, stopped by the test. */
class HeadlessTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private PrintStream errStream() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    private static EngineOptions options() {
        return EngineOptions.defaults().withEnvironment(Map.of());
    }

    @Test
    void anInvalidFileStartsNothingAndPrintsEachProblem() throws Exception {
        Path f = dir.resolve("bad.conf");
        Files.writeString(f, "status => { listen => 127.0.0.1:0 }\nstatus_dir => x\n");
        assertThat(Headless.start(f, options(), errStream())).isNull();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(f + ":2:1: ");
    }

    /** SIGHUP's work: a bad file is rejected with its positions and changes nothing; a good one is applied. */
    @Test
    void reloadAppliesAValidFileAndKeepsTheRunningOneOnABadFile() throws Exception {
        String good = "resolver => { listen => [ 127.0.0.1:0 ], cache_size => %s }\n" + loopbackPva() + "state_dir => state\n";
        Path f = dir.resolve("reload.conf");
        Files.writeString(f, good.formatted("1000"));
        Headless h = Headless.start(f, options(), errStream());
        assertThat(h).isNotNull();
        try {
            Files.writeString(f, good.formatted("lots"));
            lookout.engine.api.ApplyOutcome bad = h.reload();
            assertThat(bad.applied()).isFalse();
            assertThat(bad.problems()).anySatisfy(p -> {
                assertThat(p.toString()).startsWith(f + ":1:");
                assertThat(p.toString()).contains("resolver.cache_size");
            });
            assertThat(h.engine().snapshot().config().version()).isEqualTo(1);
            assertThat(h.engine().snapshot().resolver().cacheCapacity()).isEqualTo(1000);

            Files.writeString(f, good.formatted("2000"));
            lookout.engine.api.ApplyOutcome ok = h.reload();
            assertThat(ok.applied()).isTrue();
            assertThat(ok.version()).isEqualTo(2);
            assertThat(ok.diff().changes()).extracting(c -> c.path()).containsExactly("resolver.cache_size");
            assertThat(h.engine().snapshot().resolver().cacheCapacity()).isEqualTo(2000);
        } finally {
            h.stop();
        }
    }

    /**
     * A loopback-only {@code pva} section on a UDP and a TCP port free now; the engine binds them a
     * moment later (PVA ports cannot be 0).
     */
    private static String loopbackPva() throws Exception {
        try (DatagramSocket d = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return """
                    pva => {
                      addr_list => [ 127.0.0.1 ]
                      auto_addr_list => false
                      beacon_addr_list => [ 127.0.0.1 ]
                      auto_beacon_addr_list => false
                      broadcast_port => %d
                      server_port => %d
                    }
                    """.formatted(d.getLocalPort(), s.getLocalPort());
        }
    }

    @Test
    void aValidFileRunsTheEngineUntilStopped() throws Exception {
        Path f = dir.resolve("good.conf");
        Files.writeString(f, "resolver => { listen => [ 127.0.0.1:0 ] }\n" + loopbackPva()
                + "status => { listen => 127.0.0.1:0 }\nstate_dir => state\n");
        Headless h = Headless.start(f, options(), errStream());
        assertThat(h).isNotNull();
        try {
            EngineSnapshot s = h.engine().snapshot();
            assertThat(s.state()).isEqualTo(EngineState.RUNNING);
            assertThat(s.config().sourceName()).isEqualTo(f.toString());
            assertThat(s.metrics()).filteredOn(m -> m.name().equals("lookout_status_listening"))
                    .extracting(Metric::value).containsExactly(1.0);
        } finally {
            h.stop();
        }
        assertThat(h.engine().state()).isEqualTo(EngineState.STOPPED);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    /** SIGHUP's work on a file truncated to nothing: refused, nothing changes, audited as the signal. */
    @Test
    void reloadRefusesAFileThatWouldRemoveEveryService() throws Exception {
        String good = "resolver => { listen => [ 127.0.0.1:0 ], cache_size => 1000 }\n" + loopbackPva()
                + "state_dir => state\n";
        Path f = dir.resolve("truncated.conf");
        Files.writeString(f, good);
        Headless h = Headless.start(f, options(), errStream());
        assertThat(h).isNotNull();
        try {
            Files.writeString(f, "# resolver => { listen => [ 127.0.0.1:0 ] }\n");
            lookout.engine.api.ApplyOutcome r = h.reload();
            assertThat(r.status()).isEqualTo(lookout.engine.api.ApplyOutcome.Status.WOULD_REMOVE_EVERYTHING);
            assertThat(r.message()).contains("no service");
            assertThat(h.engine().snapshot().config().version()).isEqualTo(1);
            assertThat(h.engine().snapshot().resolver()).isNotNull();
            assertThat(h.engine().audit(1)).singleElement().satisfies(a -> {
                assertThat(a.peer()).isEqualTo("signal");
                assertThat(a.result()).startsWith("refused: ");
            });
        } finally {
            h.stop();
        }
    }

    /**
     * Issue 17 item 9: a port clash is one clear line, the cause in plain words, and no stack
     * trace after it (only at the debug level).
     */
    @Test
    void aPortClashIsOneClearLineWithoutAStackTrace() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Path f = dir.resolve("clash.conf");
            Files.writeString(f, "resolver => { listen => [ 127.0.0.1:" + port + " ] }\n" + loopbackPva() + "state_dir => state\n");
            java.util.List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.logging.Handler h = new java.util.logging.Handler() {
                @Override
                public void publish(java.util.logging.LogRecord r) {
                    records.add(r);
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            java.util.logging.Logger log = java.util.logging.Logger.getLogger("lookout.headless");
            log.addHandler(h);
            try {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                Headless started = Headless.startOrSay(f, lookout.engine.api.EngineOptions.defaults(),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                assertThat(started).isNull();
            } finally {
                log.removeHandler(h);
            }
            java.util.List<java.util.logging.LogRecord> severe = records.stream()
                    .filter(r -> r.getLevel() == java.util.logging.Level.SEVERE).toList();
            assertThat(severe).hasSize(1);
            assertThat(severe.get(0).getMessage()).startsWith("engine failed to start: ")
                    .contains(Integer.toString(port)).contains("already in use").doesNotContain("Exception");
            assertThat(severe.get(0).getThrown()).as("no stack trace after the clear line").isNull();
            assertThat(records).filteredOn(r -> r.getThrown() != null)
                    .allMatch(r -> r.getLevel().intValue() < java.util.logging.Level.INFO.intValue());
        }
    }

    @Test
    void anEmptyFileStartsNothing() throws Exception {
        Path f = dir.resolve("empty.conf");
        Files.writeString(f, "# nothing but a comment\n");
        assertThat(Headless.start(f, options(), errStream())).isNull();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(f + ":1:1: ").contains("no service");
    }

    @Test
    void checkConfigReportsAnEmptyFileAndExits1() throws Exception {
        Path f = dir.resolve("empty.conf");
        Files.writeString(f, "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = CheckConfig.run(f, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), errStream());
        assertThat(rc).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(f + ":1:1: the configuration configures no service");
    }
}
