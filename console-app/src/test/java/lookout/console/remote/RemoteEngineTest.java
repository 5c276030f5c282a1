package lookout.console.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.ConfigLoader;
import lookout.engine.testing.VirtualScheduler;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote engine against the contract (a fake control API over a real engine in virtual time). */
class RemoteEngineTest {

    @TempDir
    Path dir;

    private TestEngine local;
    private FakeControlServer server;
    private final VirtualScheduler timer = new VirtualScheduler();
    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        local = TestEngine.start(dir, false);
        server = new FakeControlServer(local.engine, null, "test-engine").configFile(local.file.toString())
                .token("op-secret", "operator", "operator").token("view-secret", "alice", "viewer");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        server.close();
        local.close();
        timer.close();
    }

    private Token token(String secret) throws Exception {
        Path f = dir.resolve("t" + secret.hashCode() + ".token");
        Files.writeString(f, secret + "\n");
        return Token.read(f);
    }

    private RemoteEngine remote(String secret) throws Exception {
        ControlClient c = new ControlClient(EngineUrl.parse(server.url()), secret == null ? null : token(secret));
        RemoteEngine r = new RemoteEngine(c, c.identity(), timer);
        closing.add(r::stop);
        return r;
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(condition);
    }

    @Test
    void theIdentityNamesTheEngineAndWhatTheTokenMayDo() throws Exception {
        RemoteEngine op = remote("op-secret");
        assertThat(op.identity().engine()).isEqualTo("test-engine");
        assertThat(op.identity().configFile()).isEqualTo(local.file.toString());
        assertThat(op.identity().configVersion()).isEqualTo(1);
        assertThat(op.identity().describe()).isEqualTo("test-engine (" + local.file + ")");
        assertThat(op.access()).isEqualTo(RemoteEngine.Access.WRITABLE);
        assertThat(remote("view-secret").access()).isEqualTo(new RemoteEngine.Access(false, RemoteEngine.VIEWER));
        assertThat(remote(null).access().reason()).isEqualTo(
                "read-only: this console has no token (give an operator's with --token-file)");
        assertThat(server.requests()).filteredOn(r -> r.path().equals("/api/v1/engine")).extracting(Request::authorization)
                .containsExactly("Bearer op-secret", "Bearer view-secret", null);
    }

    private record Request() {
        static String authorization(FakeControlServer.Request r) {
            return r.authorization();
        }
    }

    @Test
    void aUrlThatIsNotALookoutEngineSaysSo() throws Exception {
        server.identityBody("<html>hello</html>");
        ControlClient c = new ControlClient(EngineUrl.parse(server.url()), null);
        assertThatThrownBy(c::identity).isInstanceOfSatisfying(ControlException.class, e -> {
            assertThat(e.kind()).isEqualTo(ControlException.Kind.NOT_LOOKOUT);
            assertThat(e).hasMessage(server.url() + " is not a Lookout engine: /api/v1/engine did not answer with an engine identity");
        });
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        other.createContext("/", x -> {
            x.sendResponseHeaders(404, -1);
            x.close();
        });
        other.start();
        try {
            String url = "http://127.0.0.1:" + other.getAddress().getPort();
            assertThatThrownBy(() -> new ControlClient(EngineUrl.parse(url), null).identity())
                    .hasMessage(url + " is not a Lookout engine (or one older than this console): /api/v1/engine answered HTTP 404");
        } finally {
            other.stop(0);
        }
        String closed = "http://127.0.0.1:" + TestEngine.freeTcpPort();
        assertThatThrownBy(() -> new ControlClient(EngineUrl.parse(closed), null).identity())
                .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.UNREACHABLE))
                .hasMessage("cannot reach " + closed + ": connection refused (is the engine running, with status.listen on this address?)");
    }

    @Test
    void aTokenIsNeverSentOverPlainHttpBeyondLoopback() throws Exception {
        Token t = token("op-secret");
        assertThatThrownBy(() -> new ControlClient(EngineUrl.parse("http://192.0.2.7:9153"), t))
                .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.INSECURE))
                .hasMessage("not sending the token from " + t.file() + " to 192.0.2.7 over plain HTTP: use https://"
                        + " (an engine listening beyond loopback serves TLS)")
                .hasMessageNotContaining("op-secret");
        // TLS, or no token, is fine (nothing is sent by the constructor)
        assertThat(new ControlClient(EngineUrl.parse("https://192.0.2.7:9153"), t).hasToken()).isTrue();
        assertThat(new ControlClient(EngineUrl.parse("http://192.0.2.7:9153"), null).hasToken()).isFalse();
    }

    @Test
    void theSnapshotIsTheEnginesOwn() throws Exception {
        RemoteEngine r = remote(null);
        EngineSnapshot s = r.snapshot();
        EngineSnapshot direct = local.engine.snapshot();
        assertThat(s.config()).isEqualTo(direct.config());
        assertThat(s.pools()).isEqualTo(direct.pools());
        assertThat(s.pools().resources()).extracting(PoolsSnapshot.PoolResource::name).containsExactly("pool");
        assertThat(r.state()).isEqualTo(direct.state());
    }

    @Test
    void commandsGoThroughTheApiAndWritesNeedAnOperator() throws Exception {
        RemoteEngine op = remote("op-secret");
        op.force("127.0.0.11/*", "DOWN", Duration.ofSeconds(300)).get(10, TimeUnit.SECONDS);
        assertThat(local.engine.snapshot().pools().forced()).extracting(PoolsSnapshot.PoolForced::key).containsExactly("127.0.0.11/*");
        assertThat(server.requests()).filteredOn(q -> q.path().equals("/api/v1/pools/force")).singleElement()
                .satisfies(q -> assertThat(Json.parse(q.body())).isEqualTo(Json.parse("{\"key\":\"127.0.0.11/*\",\"state\":\"DOWN\",\"ttl\":300}")));
        List<PoolsSnapshot.PoolResource> odds = op.whatIf(Map.of("127.0.0.12/*", "DOWN")).get(10, TimeUnit.SECONDS);
        assertThat(odds).isEqualTo(local.engine.whatIf(Map.of("127.0.0.12/*", "DOWN")).get(10, TimeUnit.SECONDS));

        RemoteEngine viewer = remote("view-secret");
        assertThatThrownBy(() -> viewer.release("127.0.0.11/*").get(10, TimeUnit.SECONDS))
                .cause().isInstanceOfSatisfying(ControlException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ControlException.Kind.FORBIDDEN);
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.getMessage()).startsWith("refused: the token from ").contains("may not do this")
                            .doesNotContain("view-secret");
                });
        RemoteEngine none = remote(null);
        assertThatThrownBy(() -> none.release("127.0.0.11/*").get(10, TimeUnit.SECONDS))
                .cause().hasMessageStartingWith("refused: this needs an operator's token (give one with --token-file)");
        assertThat(local.engine.snapshot().pools().forced()).as("nothing released").hasSize(1);

        op.release("127.0.0.11/*").get(10, TimeUnit.SECONDS);
        assertThat(local.engine.snapshot().pools().forced()).isEmpty();
        assertThat(op.resolve("www.example.test", "A").get(10, TimeUnit.SECONDS).name()).startsWith("www.example.test");
    }

    @Test
    void applyChangesTheEngineAndProblemsComeBackWithTheirPositions() throws Exception {
        RemoteEngine op = remote("op-secret");
        ConfigLoader loader = new ConfigLoader(Map.of());
        String changed = local.text.replace("up_thresh => 0.25", "up_thresh => 0.5");
        ReloadResult ok = op.apply(loader.parse(changed, local.file.toString(), dir));
        assertThat(ok.applied()).isTrue();
        assertThat(ok.version()).isEqualTo(2);
        assertThat(ok.diff().changes()).extracting(c -> c.path()).containsExactly("plugins.weighted.up_thresh");
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);

        // the engine's own parser judges: a text the console did not check comes back rejected, 422
        ReloadResult bad = op.reload(changed + "resolvr => { }\n", "x", dir);
        assertThat(bad.applied()).isFalse();
        assertThat(bad.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(local.file.toString());
            assertThat(p.line()).isEqualTo(changed.split("\n").length + 1);
            assertThat(p.column()).isEqualTo(1);
        });
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);

        server.editedOnDisk(true);
        assertThatThrownBy(() -> op.reload(local.text, "x", dir)).isInstanceOfSatisfying(ControlException.class,
                e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.CONFLICT))
                .hasMessageContaining("was edited since the engine loaded it");
        ApplyResult forced = op.apply(new ApplyResult.Request(local.text, false, true, false, 0));
        assertThat(forced.applied()).isTrue();
        assertThat(forced.version()).isEqualTo(3);
        assertThat(forced.saved()).isEqualTo(local.file.toString());
    }

    @Test
    void eventsArriveOnceInOrderAcrossReconnects() throws Exception {
        RemoteEngine r = remote(null);
        List<String> seen = new CopyOnWriteArrayList<>();
        r.subscribe(e -> seen.add(e.message()));
        await(() -> r.events().connected());
        for (int i = 1; i <= 3; i++) {
            server.publish(new EngineEvent.Notice(timer.now(), Subsystem.ENGINE, Severity.INFO, "n" + i));
        }
        await(() -> seen.size() >= 3);

        server.dropEventStreams();
        await(() -> !r.events().connected());
        for (int i = 4; i <= 6; i++) {
            server.publish(new EngineEvent.Notice(timer.now(), Subsystem.ENGINE, Severity.INFO, "n" + i));
        }
        Thread.sleep(300);
        assertThat(r.events().connected()).as("no reconnect before the clock says so").isFalse();
        timer.advance(Backoff.FIRST);
        await(() -> seen.size() >= 6);
        assertThat(seen).containsExactly("n1", "n2", "n3", "n4", "n5", "n6");
        assertThat(r.events().connects()).isEqualTo(2);
        assertThat(server.requests()).filteredOn(q -> q.path().equals("/api/v1/events")).extracting(FakeControlServer.Request::query,
                FakeControlServer.Request::lastEventId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("since=0", null), org.assertj.core.groups.Tuple.tuple("since=3", "3"));
    }

    @Test
    void eventsTheEngineNoLongerKeepsAreReportedMissing() throws Exception {
        RemoteEngine r = remote(null);
        List<EngineEvent> seen = new CopyOnWriteArrayList<>();
        r.subscribe(seen::add);
        await(() -> r.events().connected());
        server.publish(new EngineEvent.Notice(timer.now(), Subsystem.ENGINE, Severity.INFO, "first"));
        await(() -> seen.size() == 1);
        server.journalLimit(2);
        server.dropEventStreams();
        await(() -> !r.events().connected());
        for (int i = 0; i < 5; i++) {
            server.publish(new EngineEvent.Notice(timer.now(), Subsystem.ENGINE, Severity.INFO, "later" + i));
        }
        timer.advance(Backoff.FIRST);
        await(() -> seen.size() >= 4);
        assertThat(seen.get(1).severity()).isEqualTo(Severity.WARNING);
        assertThat(seen.get(1).message()).isEqualTo("events 2–4 were missed while this console was disconnected"
                + " (the engine no longer keeps them)");
        assertThat(seen.subList(2, 4)).extracting(EngineEvent::message).containsExactly("later3", "later4");
    }

    @Test
    void aLostEngineIsRetriedWithBackoffOnTheGivenClock() throws Exception {
        RemoteEngine r = remote(null);
        r.snapshot();
        int port = server.port();
        server.close();
        assertThatThrownBy(r::snapshot).hasMessageStartingWith("cannot reach " + server.url());
        long asked = server.requests().size();
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 250 ms");
        timer.advance(Duration.ofMillis(249));
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 1 ms");
        timer.advance(Duration.ofMillis(1));
        assertThatThrownBy(r::snapshot).hasMessageStartingWith("cannot reach"); // tried: refused again
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 500 ms");
        assertThat(r.problem()).startsWith("cannot reach");

        // the engine is back on the same port: the next attempt after the delay gets through
        server = new FakeControlServer(local.engine, null, "test-engine", port);
        timer.advance(Duration.ofMillis(500));
        assertThat(r.snapshot().config().version()).isEqualTo(1);
        assertThat(r.problem()).isNull();
        assertThat(asked).isPositive();
    }
}
