package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.console.remote.FakeControlServer;
import lookout.console.remote.Json;
import lookout.console.remote.TestEngine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lookout ctl} against the control API (a fake of the contract over a real engine): output, exit codes, refusals. */
class CtlTest {

    @TempDir
    Path dir;

    private TestEngine local;
    private FakeControlServer server;
    private Path operator;
    private Path viewer;
    private Map<String, String> env;
    private ByteArrayOutputStream out;
    private ByteArrayOutputStream err;

    @BeforeEach
    void start() throws Exception {
        local = TestEngine.start(dir, false);
        server = new FakeControlServer(local.engine, null, "lab-dns").configFile(local.file.toString())
                .token("op-0123456789", "operator", "operator").token("view-0123456789", "alice", "viewer");
        operator = Files.writeString(dir.resolve("operator.token"), "op-0123456789\n");
        viewer = Files.writeString(dir.resolve("viewer.token"), "view-0123456789\n");
        Files.createDirectories(dir.resolve("home"));
        env = Map.of("HOME", dir.resolve("home").toString());
    }

    @AfterEach
    void stop() {
        server.close();
        local.close();
    }

    private int ctl(String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--engine", server.url()));
        all.addAll(List.of(args));
        return Ctl.run(all, env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private int ctlBare(String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        return Ctl.run(List.of(args), env, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private List<String> forced() {
        return local.engine.snapshot().pools().forced().stream().map(PoolsSnapshot.PoolForced::key).toList();
    }

    @Test
    void statusForPeopleAndForScripts() {
        assertThat(ctl("status")).isZero();
        assertThat(out()).contains("engine         lab-dns (" + local.file + ") at " + server.url() + "\n")
                .contains("\nstate          RUNNING since 2026-01-01 00:00:00Z")
                .contains("\naccess         anonymous (read-only)\n")
                .containsPattern("\nconfiguration  version 1, sha256 [0-9a-f]{12}, applied 2026-01-01 00:00:00Z\n")
                .contains("\nlast reload    none\n")
                .contains("\npools          1 resource, none in failover; ")
                .contains("\nresolver       listen 127.0.0.1:");
        assertThat(err()).isEmpty();

        assertThat(ctl("--json", "status")).isZero();
        Object tree = Json.parse(out());
        assertThat(Json.string(Json.member(tree, "engine"), "product")).isEqualTo("lookout");
        assertThat(Json.number(Json.member(Json.member(tree, "status"), "config"), "version", -1)).isEqualTo(1);
    }

    @Test
    void aCommandLineThatMakesNoSenseExitsTwoWithTheUsage() {
        assertThat(ctlBare()).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: which command?").contains("Usage: lookout ctl [--engine URL]");
        assertThat(ctl("frobnicate")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: unknown command 'frobnicate'\n");
        assertThat(ctl("force", "127.0.0.11/*", "SIDEWAYS")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: force takes UP or DOWN, not 'SIDEWAYS'\n");
        assertThat(ctl("force", "127.0.0.11/*", "DOWN", "soon")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: a TTL is a number of seconds");
        assertThat(ctl("apply")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: apply takes a configuration FILE\n");
        assertThat(ctl("status", "--force")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: --force applies to apply only\n");
        assertThat(ctlBare("--engine", "ftp://example.org", "status")).isEqualTo(2);
        assertThat(err()).startsWith("lookout ctl: an engine URL starts with http:// or https://, not ftp://\n");
        assertThat(ctlBare("--help")).isZero();
        assertThat(out()).startsWith("Usage: lookout ctl");
        assertThat(server.requests()).as("nothing asked of the engine").isEmpty();
    }

    @Test
    void forceAndReleaseNeedAnOperatorsToken() {
        assertThat(ctl("force", "127.0.0.11/*", "DOWN")).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: refused: this needs an operator's token (give one with --token-file):"
                + " this needs a token\n");
        assertThat(ctl("--token-file", viewer.toString(), "force", "127.0.0.11/*", "DOWN")).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: refused: the token from " + viewer + " may not do this")
                .doesNotContain("view-0123456789");
        assertThat(forced()).as("nothing changed").isEmpty();

        assertThat(ctl("--token-file", operator.toString(), "force", "127.0.0.11/*", "down", "5m")).isZero();
        assertThat(out()).isEqualTo("forced 127.0.0.11/* DOWN for 5 min\n");
        assertThat(forced()).containsExactly("127.0.0.11/*");
        assertThat(server.requests()).filteredOn(r -> r.path().equals("/api/v1/pools/force")).last()
                .satisfies(r -> assertThat(Json.number(Json.parse(r.body()), "ttl", 0)).isEqualTo(300));

        assertThat(ctl("--token-file", operator.toString(), "--json", "release", "127.0.0.11/*")).isZero();
        assertThat(Json.bool(Json.parse(out()), "ok", false)).isTrue();
        assertThat(forced()).isEmpty();
    }

    @Test
    void theDefaultTokenIsTheLocalEnginesOwn() throws Exception {
        Path state = Files.createDirectories(dir.resolve("home/.lookout/state"));
        Files.writeString(state.resolve("control.token"), "op-0123456789\n");
        assertThat(ctl("ping")).isZero();
        assertThat(out()).isEqualTo("discovery ping sent\n");
        assertThat(server.requests()).filteredOn(r -> r.path().equals("/api/v1/pva/discovery-ping"))
                .extracting(FakeControlServer.Request::authorization).containsExactly("Bearer op-0123456789");
    }

    @Test
    void aTokenIsNotSentOverPlainHttpBeyondLoopbackNorEchoed() {
        assertThat(ctlBare("--engine", "http://192.0.2.1:9153", "--token-file", operator.toString(), "status")).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: not sending the token from " + operator + " to 192.0.2.1 over plain HTTP:"
                + " use https:// (an engine listening beyond loopback serves TLS)\n");
        assertThat(ctl("--token-file", dir.resolve("absent.token").toString(), "status")).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: no token file " + dir.resolve("absent.token") + "\n");
    }

    @Test
    void diffShowsTheChangesAndAppliesNothing() throws Exception {
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        assertThat(ctl("diff", f.toString())).as(() -> err()).isZero();
        assertThat(out()).isEqualTo(f + ": 1 change against running version 1:\n  ~ plugins.weighted.up_thresh: 0.25 -> 0.5\n");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(1);
        assertThat(ctl("--json", "diff", f.toString())).isZero();
        assertThat(Json.bool(Json.parse(out()), "applied", true)).isFalse();
    }

    @Test
    void applyShowsTheDiffThenAppliesAgainstThatVersion() throws Exception {
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        assertThat(ctl("apply", f.toString())).as("no token").isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: refused: this needs an operator's token");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(1);

        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isZero();
        assertThat(out()).isEqualTo(f + ": 1 change against running version 1:\n  ~ plugins.weighted.up_thresh: 0.25 -> 0.5\n"
                + "version 2 applied (1 change); saved to " + local.file + ", the previous file kept as backups/lookout.conf.1\n");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);
        assertThat(server.requests()).filteredOn(r -> r.path().equals("/api/v1/config")).last()
                .satisfies(r -> assertThat(Json.number(Json.parse(r.body()), "expectedVersion", 0)).isEqualTo(1));
        assertThat(server.audit()).extracting(a -> a.get("result")).contains("ok");

        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isZero();
        assertThat(out()).endsWith("no change against running version 2\nnothing applied\n");
    }

    @Test
    void anInvalidFileIsRefusedWithItsPositions() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.conf"), local.text + "resolvr => { }\n");
        int line = local.text.split("\n").length + 1;
        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: the configuration has 1 problem; nothing changed\n" + local.file + ":" + line + ":1: ");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(1);
        assertThat(ctl("--json", "diff", f.toString())).isEqualTo(1);
        assertThat(Json.strings(Json.parse(out()), "problems")).singleElement().asString().startsWith(local.file + ":" + line + ":1:");
    }

    @Test
    void conflictsSayWhichOptionGetsPast() throws Exception {
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        server.editedOnDisk(true);
        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: refused: " + local.file + " was edited since the engine loaded it (running"
                + " abc123, on disk def456) (--force applies it over the hand-edited file)\n");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(1);
        assertThat(ctl("--token-file", operator.toString(), "apply", "--force", f.toString())).isZero();
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);

        Path empty = Files.writeString(dir.resolve("empty.conf"), "");
        assertThat(ctl("--token-file", operator.toString(), "apply", "--force", empty.toString())).isEqualTo(1);
        assertThat(err()).contains("would remove every service").endsWith("(--confirm-empty applies it anyway)\n");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);
    }

    @Test
    void resolveShowsTheTrace() {
        assertThat(ctl("resolve", "www.example.test")).isZero();
        assertThat(out()).startsWith("www.example.test. A: ");
        assertThat(ctl("--json", "resolve", "www.example.test", "aaaa")).isZero();
        Object t = Json.parse(out());
        assertThat(Json.string(t, "type")).isEqualTo("AAAA");
        assertThat(Json.string(t, "outcome")).isNotEmpty();
    }

    @Test
    void eventsForPeopleAsJsonLinesAndFollowed() throws Exception {
        local.engine.force("127.0.0.12/*", "DOWN", null).join();
        assertThat(ctl("events")).isZero();
        assertThat(out()).containsPattern("(?m)^2026-01-01 00:00:00\\.000Z  NOTICE   POOLS       forced state 127\\.0\\.0\\.12/\\* = DOWN");
        assertThat(ctl("--json", "events")).isZero();
        List<String> lines = out().lines().toList();
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(Json.string(Json.parse(l), "type")).isNotNull());

        ByteArrayOutputStream followed = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(followed, true, StandardCharsets.UTF_8);
        int[] exit = {-1};
        Thread t = new Thread(() -> exit[0] = Ctl.run(List.of("--engine", server.url(), "events", "--follow"), env, p, p));
        t.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> server.openStreams() == 1);
            server.publish(new EngineEvent.Notice(local.clock.now(), Subsystem.STATUS, Severity.WARNING, "followed live"));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> followed.toString(StandardCharsets.UTF_8).contains("followed live"));
            assertThat(followed.toString(StandardCharsets.UTF_8)).contains("forced state 127.0.0.12/* = DOWN")
                    .contains("  WARNING  STATUS      followed live");
        } finally {
            t.interrupt();
            t.join(10_000);
        }
        assertThat(exit[0]).isZero();
    }

    @Test
    void auditListsTheWrites() {
        assertThat(ctl("audit")).isZero();
        assertThat(out()).isEqualTo("no audited writes\n");
        ctl("--token-file", operator.toString(), "search", "ring:x");
        assertThat(out()).isEqualTo("searching ring:x\n");
        ctl("--token-file", viewer.toString(), "stop", "ring:x");
        assertThat(ctl("audit", "--limit", "5")).isZero();
        assertThat(out()).startsWith("time").contains("operator").contains("alice").contains("search").contains("refused: role viewer");
        assertThat(server.requests()).filteredOn(r -> r.path().equals("/api/v1/audit")).last()
                .satisfies(r -> assertThat(r.query()).isEqualTo("limit=5"));
        assertThat(ctl("--json", "audit")).isZero();
        assertThat(Json.parse(out())).asList().hasSize(2);
    }

    @Test
    void aUrlThatIsNotAnEngineOrNotThere() {
        server.identityBody("{\"hello\":\"world\"}");
        assertThat(ctl("status")).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: " + server.url() + " is not a Lookout engine: /api/v1/engine did not answer"
                + " with an engine identity\n");
        String closed = "http://127.0.0.1:" + TestEngine.freeTcpPort();
        assertThat(ctlBare("--engine", closed, "status")).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: cannot reach " + closed + ": connection refused");
    }
}
