package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.console.remote.ControlClient;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.Json;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.TestEngine;
import lookout.console.remote.Token;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.config.ConfigSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lookout ctl} against a real engine's control API on loopback (virtual engine time, real
 * HTTP): output, exit codes, refusals, and issue 14's acceptance — status; an apply without the
 * token refused (nothing changed, the refusal audited); with it the file persisted, a backup kept,
 * an audit line written; an empty file refused; a hand-edited file not overwritten; another client
 * and {@code ctl events --follow} seeing each other's changes.
 */
class CtlTest {

    @TempDir
    Path dir;

    private TestEngine local;
    private Path operator;
    private Path viewer;
    private Map<String, String> env;
    private ByteArrayOutputStream out;
    private ByteArrayOutputStream err;

    @BeforeEach
    void start() throws Exception {
        local = TestEngine.serving(dir, "lab-dns");
        operator = local.operatorToken();
        viewer = local.viewerToken();
        Files.createDirectories(dir.resolve("home"));
        env = Map.of("HOME", dir.resolve("home").toString());
    }

    @AfterEach
    void stop() {
        local.close();
    }

    private int ctl(String... args) {
        out = new ByteArrayOutputStream();
        err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("--engine", local.url()));
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

    private long version() {
        return local.engine.snapshot().config().version();
    }

    private static String sha256(String text) {
        return ConfigSource.of("", null, text).sha256();
    }

    @Test
    void statusForPeopleAndForScripts() {
        assertThat(ctl("status")).isZero();
        assertThat(out()).contains("engine         lab-dns (" + local.file + ") at " + local.url() + "\n")
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

        assertThat(ctl("--token-file", operator.toString(), "status")).isZero();
        assertThat(out()).contains("\naccess         operator (may change the engine)\n");
    }

    @Test
    void aCommandLineThatMakesNoSenseExitsTwoWithTheUsage() {
        long asked = local.requestsAnswered();
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
        assertThat(local.requestsAnswered()).as("nothing asked of the engine").isEqualTo(asked);
    }

    @Test
    void forceAndReleaseNeedAnOperatorsToken() {
        assertThat(ctl("force", "127.0.0.11/*", "DOWN")).isEqualTo(1);
        assertThat(err()).isEqualTo("lookout ctl: refused: this needs an operator's token (give one with --token-file):"
                + " writes need an operator token (Authorization: Bearer TOKEN; the engine's own is in"
                + " STATE_DIR/control.token)\n");
        assertThat(ctl("--token-file", viewer.toString(), "force", "127.0.0.11/*", "DOWN")).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: refused: the token from " + viewer + " may not do this")
                .contains("'alice' is a viewer token").doesNotContain(TestEngine.VIEWER_SECRET);
        assertThat(forced()).as("nothing changed").isEmpty();

        assertThat(ctl("--token-file", operator.toString(), "force", "127.0.0.11/*", "down", "5m")).isZero();
        assertThat(out()).isEqualTo("forced 127.0.0.11/* DOWN for 5 min\n");
        assertThat(forced()).containsExactly("127.0.0.11/*");
        assertThat(local.audit()).last().satisfies(a -> assertThat(a.args()).containsEntry("ttl", 300L)
                .containsEntry("state", "DOWN"));

        assertThat(ctl("--token-file", operator.toString(), "--json", "release", "127.0.0.11/*")).isZero();
        assertThat(Json.bool(Json.parse(out()), "ok", false)).isTrue();
        assertThat(forced()).isEmpty();
        assertThat(local.audit()).extracting(AuditRecord::token, AuditRecord::action, a -> a.result().split(":")[0])
                .containsExactly(org.assertj.core.groups.Tuple.tuple(null, "force", "refused"),
                        org.assertj.core.groups.Tuple.tuple("alice", "force", "refused"),
                        org.assertj.core.groups.Tuple.tuple("operator", "force", "ok"),
                        org.assertj.core.groups.Tuple.tuple("operator", "release", "ok"));
    }

    @Test
    void theDefaultTokenIsTheLocalEnginesOwn() throws Exception {
        Path state = Files.createDirectories(dir.resolve("home/.lookout/state"));
        Files.copy(operator, state.resolve("control.token"));
        assertThat(ctl("ping")).isZero();
        assertThat(out()).isEqualTo("discovery ping sent\n");
        assertThat(local.audit()).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("discovery-ping");
            assertThat(a.token()).isEqualTo("operator");
            assertThat(a.result()).isEqualTo("ok");
        });
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
    void diffShowsTheChangesAppliesNothingAndAViewerMayAsk() throws Exception {
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        for (String[] who : new String[][] {{}, {"--token-file", viewer.toString()}}) {
            List<String> args = new ArrayList<>(List.of(who));
            args.addAll(List.of("diff", f.toString()));
            assertThat(ctl(args.toArray(String[]::new))).as(() -> err()).isZero();
            assertThat(out()).isEqualTo(f + ": 1 change against running version 1:\n  ~ plugins.weighted.up_thresh: 0.25 -> 0.5\n");
        }
        assertThat(version()).isEqualTo(1);
        assertThat(ctl("--json", "diff", f.toString())).isZero();
        assertThat(Json.bool(Json.parse(out()), "applied", true)).isFalse();
        assertThat(Json.string(Json.parse(out()), "status")).isEqualTo("VALID");
        assertThat(Files.readString(local.file)).isEqualTo(local.text);
        assertThat(local.audit()).as("a diff is no write").isEmpty();
    }

    @Test
    void applyWithoutTheTokenIsRefusedAndChangesNothingButTheAuditLog() throws Exception {
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        assertThat(ctl("apply", f.toString())).isEqualTo(1);
        assertThat(out()).as("the diff comes first").startsWith(f + ": 1 change against running version 1:");
        assertThat(err()).startsWith("lookout ctl: refused: this needs an operator's token");
        assertThat(Files.readString(local.file)).isEqualTo(local.text);
        assertThat(version()).isEqualTo(1);
        assertThat(Files.exists(local.state.resolve("backups"))
                && Files.list(local.state.resolve("backups")).findAny().isPresent()).as("no backup").isFalse();
        assertThat(local.audit()).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("apply");
            assertThat(a.token()).isNull();
            assertThat(a.peer()).startsWith("127.0.0.1:");
            assertThat(a.result()).startsWith("refused: writes need an operator token");
        });
        // the line on disk, as ctl audit prints it
        assertThat(Files.readAllLines(local.state.resolve("audit.log"))).singleElement().asString()
                .contains("\"action\":\"apply\"").contains("\"result\":\"refused: ");
    }

    @Test
    void applyWithTheTokenPersistsTheFileKeepsABackupAndWritesAnAuditLine() throws Exception {
        String next = local.text.replace("up_thresh => 0.25", "up_thresh => 0.5");
        Path f = Files.writeString(dir.resolve("next.conf"), next);
        Path backup = local.state.resolve("backups/lookout.conf.1");
        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).as(() -> err()).isZero();
        assertThat(out()).isEqualTo(f + ": 1 change against running version 1:\n  ~ plugins.weighted.up_thresh: 0.25 -> 0.5\n"
                + "version 2 applied (1 change); saved to " + local.file + ", the previous file kept as " + backup + "\n");
        assertThat(version()).isEqualTo(2);
        assertThat(Files.readString(local.file)).isEqualTo(next);
        assertThat(Files.readString(backup)).isEqualTo(local.text);
        assertThat(local.audit()).singleElement().satisfies(a -> {
            assertThat(a.action()).isEqualTo("apply");
            assertThat(a.token()).isEqualTo("operator");
            assertThat(a.result()).isEqualTo("ok");
            assertThat(a.version()).isEqualTo(2L);
            assertThat(a.diff()).containsExactly("~ plugins.weighted.up_thresh: 0.25 -> 0.5");
            assertThat(a.args()).containsEntry("saved", local.file.toString()).containsEntry("backup", backup.toString())
                    .containsEntry("expectedVersion", 1L).containsEntry("sha256", sha256(next));
        });
        assertThat(ctl("audit")).isZero();
        assertThat(out()).contains("operator").contains("apply").contains("diff: ~ plugins.weighted.up_thresh: 0.25 -> 0.5");

        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isZero();
        assertThat(out()).endsWith("no change against running version 2\nnothing applied\n");
        assertThat(version()).isEqualTo(2);
    }

    @Test
    void anInvalidFileIsRefusedWithItsPositions() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.conf"), local.text + "resolvr => { }\n");
        int line = local.text.split("\n").length + 1;
        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: the configuration has 1 problem; nothing changed\n" + local.file + ":" + line + ":1: ");
        assertThat(version()).isEqualTo(1);
        assertThat(ctl("--json", "diff", f.toString())).isEqualTo(1);
        assertThat(Json.strings(Json.parse(out()), "problems")).singleElement().asString().startsWith(local.file + ":" + line + ":1:");
        assertThat(Files.readString(local.file)).isEqualTo(local.text);
    }

    @Test
    void anEmptyFileIsRefusedUnlessConfirmed() throws Exception {
        for (String text : List.of("", "# only a comment\n")) {
            Path empty = Files.writeString(dir.resolve("empty.conf"), text);
            assertThat(ctl("--token-file", operator.toString(), "apply", empty.toString())).isEqualTo(1);
            assertThat(err()).startsWith("lookout ctl: refused: ").contains("configures no service")
                    .endsWith("(--confirm-empty applies it anyway)\n");
            assertThat(ctl("--token-file", operator.toString(), "--json", "apply", empty.toString())).isEqualTo(1);
            assertThat(Json.string(Json.parse(out()), "conflict")).isEqualTo("empty");
        }
        assertThat(version()).isEqualTo(1);
        assertThat(Files.readString(local.file)).isEqualTo(local.text);
        assertThat(local.engine.snapshot().pools().running()).isTrue();
    }

    @Test
    void aHandEditedFileIsNotOverwrittenUnlessForced() throws Exception {
        String byHand = local.text + "# an edit by hand\n";
        Files.writeString(local.file, byHand);
        Path f = Files.writeString(dir.resolve("next.conf"), local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"));
        assertThat(ctl("--token-file", operator.toString(), "apply", f.toString())).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: refused: " + local.file + " was changed on disk since the engine loaded it")
                .contains(sha256(byHand).substring(0, 12)).contains(sha256(local.text).substring(0, 12))
                .endsWith("(--force applies it over the hand-edited file)\n");
        assertThat(Files.readString(local.file)).isEqualTo(byHand);
        assertThat(version()).isEqualTo(1);
        assertThat(ctl("--token-file", operator.toString(), "--json", "apply", f.toString())).isEqualTo(1);
        Object refusal = Json.parse(out());
        assertThat(Json.string(refusal, "conflict")).isEqualTo("edited");
        assertThat(Json.string(refusal, "running")).isEqualTo(sha256(local.text));
        assertThat(Json.string(refusal, "onDisk")).isEqualTo(sha256(byHand));

        assertThat(ctl("--token-file", operator.toString(), "apply", "--force", f.toString())).as(() -> err()).isZero();
        assertThat(version()).isEqualTo(2);
        assertThat(Files.readString(local.file)).isEqualTo(Files.readString(f));
        assertThat(Files.readString(local.state.resolve("backups/lookout.conf.1"))).as("the hand edit is kept").isEqualTo(byHand);
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
    void eventsForPeopleAsJsonLinesAndFollowedWhileAnotherClientWrites() throws Exception {
        local.engine.force("127.0.0.12/*", "DOWN", null).join();
        assertThat(ctl("events")).isZero();
        assertThat(out()).containsPattern("(?m)^2026-01-01 00:00:00\\.000Z  NOTICE   POOLS       forced state 127\\.0\\.0\\.12/\\* = DOWN");
        assertThat(ctl("--json", "events")).isZero();
        List<String> lines = out().lines().toList();
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(Json.string(Json.parse(l), "type")).isNotNull());

        ByteArrayOutputStream followed = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(followed, true, StandardCharsets.UTF_8);
        int[] exit = {-1};
        Thread t = new Thread(() -> exit[0] = Ctl.run(List.of("--engine", local.url(), "events", "--follow"), env, p, p));
        t.start();
        ControlClient c = new ControlClient(EngineUrl.parse(local.url()), Token.read(operator));
        RemoteEngine console = new RemoteEngine(c, c.identity(), new SystemTimer("ctl-test-remote"));
        List<String> atConsole = new java.util.concurrent.CopyOnWriteArrayList<>();
        try {
            // what happened before it came, then live
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> followed.toString(StandardCharsets.UTF_8)
                    .contains("forced state 127.0.0.12/* = DOWN"));
            assertThat(local.openStreams()).isEqualTo(1);
            long t0 = System.nanoTime();
            console.force("127.0.0.13/*", "DOWN", Duration.ofSeconds(60)).join();
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() ->
                    followed.toString(StandardCharsets.UTF_8).contains("forced state 127.0.0.13/* = DOWN"));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("ctl events --follow saw the console's force after %d ms", ms).isLessThan(1000);
            // who did it, from the audit's event
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> followed.toString(StandardCharsets.UTF_8)
                    .matches("(?s).*  NOTICE   STATUS      force 127\\.0\\.0\\.13/\\* DOWN for 60 s by operator at 127\\.0\\.0\\.1:\\d+: ok\n.*"));

            // and the console sees a write by ctl
            console.subscribe(e -> atConsole.add(e.message()));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> local.openStreams() == 2);
            t0 = System.nanoTime();
            assertThat(ctl("--token-file", operator.toString(), "release", "127.0.0.13/*")).isZero();
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() ->
                    atConsole.stream().anyMatch(m -> m.contains("127.0.0.13/*") && m.contains("RELEASED")));
            ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).as("the console saw ctl's release after %d ms", ms).isLessThan(1000);
        } finally {
            console.stop();
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
        assertThat(out()).startsWith("time").contains("operator").contains("alice").contains("search")
                .contains("refused: writes need an operator token; 'alice' is a viewer token");
        assertThat(local.requests("/api/v1/audit", "ok")).isEqualTo(2);
        assertThat(ctl("--json", "audit")).isZero();
        assertThat(Json.parse(out())).asList().hasSize(2);
        assertThat(ctl("--json", "audit", "--limit", "1")).isZero();
        assertThat(Json.parse(out())).asList().singleElement().satisfies(r -> assertThat(Json.string(r, "token")).isEqualTo("alice"));
    }

    @Test
    void aUrlThatIsNotAnEngineOrNotThere() throws Exception {
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        other.createContext("/", x -> {
            byte[] b = "{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        other.start();
        try {
            String url = "http://127.0.0.1:" + other.getAddress().getPort();
            assertThat(ctlBare("--engine", url, "status")).isEqualTo(1);
            assertThat(err()).isEqualTo("lookout ctl: " + url + " is not a Lookout engine: /api/v1/engine did not answer"
                    + " with an engine identity\n");
        } finally {
            other.stop(0);
        }
        String closed = "http://127.0.0.1:" + TestEngine.freeTcpPort();
        assertThat(ctlBare("--engine", closed, "status")).isEqualTo(1);
        assertThat(err()).startsWith("lookout ctl: cannot reach " + closed + ": connection refused");
    }
}
