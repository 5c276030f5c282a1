package lookout.console.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigSource;
import lookout.engine.testing.VirtualScheduler;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote engine against a real engine's control API on loopback (a virtual-time engine whose
 * HTTP listener is real; the client's reconnect delays on a virtual clock of their own). A TCP
 * relay in front of the engine breaks the connections where a test needs a network failure.
 */
class RemoteEngineTest {

    @TempDir
    Path dir;

    private TestEngine local;
    private TcpProxy proxy;
    private final VirtualScheduler timer = new VirtualScheduler();
    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        local = TestEngine.serving(dir, "test-engine");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        local.close();
        timer.close();
    }

    private RemoteEngine remote(Path tokenFile) throws Exception {
        return remote(local.url(), tokenFile);
    }

    private RemoteEngine remote(String url, Path tokenFile) throws Exception {
        ControlClient c = new ControlClient(EngineUrl.parse(url), tokenFile == null ? null : Token.read(tokenFile));
        RemoteEngine r = new RemoteEngine(c, c.identity(), timer);
        closing.add(r::stop);
        return r;
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(condition);
    }

    private static String sha256(String text) {
        return ConfigSource.of("", null, text).sha256();
    }

    private static EngineEvent.Notice notice(String message) {
        return new EngineEvent.Notice(java.time.Instant.parse("2026-01-01T00:00:00Z"), Subsystem.ENGINE, Severity.INFO,
                message);
    }

    @Test
    void theIdentityNamesTheEngineAndWhatTheTokenMayDo() throws Exception {
        RemoteEngine op = remote(local.operatorToken());
        assertThat(op.identity().engine()).isEqualTo("test-engine");
        assertThat(op.identity().configFile()).isEqualTo(local.file.toString());
        assertThat(op.configFile()).isEqualTo(local.file);
        assertThat(op.identity().configVersion()).isEqualTo(1);
        assertThat(op.identity().describe()).isEqualTo("test-engine (" + local.file + ")");
        assertThat(op.identity().role()).isEqualTo("operator");
        assertThat(op.access()).isEqualTo(RemoteEngine.Access.WRITABLE);
        RemoteEngine viewer = remote(local.viewerToken());
        assertThat(viewer.identity().role()).isEqualTo("viewer");
        assertThat(viewer.access()).isEqualTo(new RemoteEngine.Access(false, RemoteEngine.VIEWER));
        RemoteEngine none = remote(null);
        assertThat(none.identity().role()).isEqualTo("anonymous");
        assertThat(none.access().reason()).isEqualTo(
                "read-only: this console has no token (give an operator's with --token-file)");
        Path wrong = Files.writeString(dir.resolve("wrong.token"), "not-a-token-of-this-engine\n");
        assertThatThrownBy(() -> remote(wrong)).isInstanceOfSatisfying(ControlException.class,
                e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.UNAUTHORIZED));
        assertThat(local.requests("/api/v1/engine", "ok")).isEqualTo(3);
        assertThat(local.requests("/api/v1/engine", "unauthorized")).isEqualTo(1);
    }

    @Test
    void aUrlThatIsNotALookoutEngineSaysSo() throws Exception {
        HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        other.createContext("/", x -> {
            byte[] b = "<html>hello</html>".getBytes(StandardCharsets.UTF_8);
            int status = x.getRequestURI().getPath().equals("/api/v1/engine") ? 200 : 404;
            x.sendResponseHeaders(status, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        other.createContext("/elsewhere/", x -> {
            x.sendResponseHeaders(404, -1);
            x.close();
        });
        other.start();
        try {
            String url = "http://127.0.0.1:" + other.getAddress().getPort();
            assertThatThrownBy(() -> new ControlClient(EngineUrl.parse(url), null).identity())
                    .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.NOT_LOOKOUT))
                    .hasMessage(url + " is not a Lookout engine: /api/v1/engine did not answer with an engine identity");
            assertThatThrownBy(() -> new ControlClient(EngineUrl.parse(url + "/elsewhere"), null).identity())
                    .hasMessage(url + "/elsewhere is not a Lookout engine (or one older than this console): /api/v1/engine"
                            + " answered HTTP 404");
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
        Token t = Token.read(local.operatorToken());
        String secret = Files.readString(local.operatorToken()).strip();
        assertThatThrownBy(() -> new ControlClient(EngineUrl.parse("http://192.0.2.7:9153"), t))
                .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.INSECURE))
                .hasMessage("not sending the token from " + t.file() + " to 192.0.2.7 over plain HTTP: use https://"
                        + " (an engine listening beyond loopback serves TLS)")
                .hasMessageNotContaining(secret);
        // TLS, or no token, is fine (nothing is sent by the constructor)
        assertThat(new ControlClient(EngineUrl.parse("https://192.0.2.7:9153"), t).hasToken()).isTrue();
        assertThat(new ControlClient(EngineUrl.parse("http://192.0.2.7:9153"), null).hasToken()).isFalse();
    }

    @Test
    void theSnapshotIsTheEnginesOwn() throws Exception {
        RemoteEngine r = remote(null);
        EngineSnapshot s = r.snapshot();
        EngineSnapshot direct = local.engine.snapshot();
        // every section reads back into the engine's own records, equal to what the engine holds
        assertThat(s.state()).isEqualTo(direct.state());
        assertThat(s.startedAt()).isEqualTo(direct.startedAt());
        assertThat(s.config()).isEqualTo(direct.config());
        assertThat(s.pools()).isEqualTo(direct.pools());
        assertThat(s.resolver()).isEqualTo(direct.resolver());
        assertThat(s.pva()).isEqualTo(direct.pva());
        assertThat(s.pvaServer()).isEqualTo(direct.pvaServer());
        assertThat(s.recentEvents()).isEqualTo(direct.recentEvents());
        assertThat(s.metrics()).extracting(lookout.engine.api.Metric::name).contains("lookout_config_version",
                "lookout_control_requests_total");
        assertThat(s.pools().resources()).extracting(PoolsSnapshot.PoolResource::name).containsExactly("pool");
        assertThat(r.state()).isEqualTo(direct.state());
    }

    @Test
    void commandsGoThroughTheApiAndWritesNeedAnOperator() throws Exception {
        RemoteEngine op = remote(local.operatorToken());
        op.force("127.0.0.11/*", "DOWN", Duration.ofSeconds(300)).get(10, TimeUnit.SECONDS);
        assertThat(local.engine.snapshot().pools().forced()).extracting(PoolsSnapshot.PoolForced::key).containsExactly("127.0.0.11/*");
        AuditRecord forced = local.audit().get(0);
        assertThat(forced.token()).isEqualTo("operator");
        assertThat(forced.peer()).startsWith("127.0.0.1:");
        assertThat(forced.action()).isEqualTo("force");
        assertThat(forced.args()).containsEntry("key", "127.0.0.11/*").containsEntry("state", "DOWN").containsEntry("ttl", 300L);
        List<PoolsSnapshot.PoolResource> odds = op.whatIf(Map.of("127.0.0.12/*", "DOWN")).get(10, TimeUnit.SECONDS);
        assertThat(odds).isEqualTo(local.engine.whatIf(Map.of("127.0.0.12/*", "DOWN")).get(10, TimeUnit.SECONDS));
        var candidate = new ConfigLoader(Map.of()).parse(local.text.replace("b = [ 127.0.0.12, 5 ]", "b = [ 127.0.0.12, 50 ]"),
                local.file.toString(), dir).config();
        assertThat(op.candidateOdds(candidate).get(10, TimeUnit.SECONDS))
                .isEqualTo(local.engine.candidateOdds(candidate).get(10, TimeUnit.SECONDS))
                .isNotEqualTo(local.engine.snapshot().pools().resources());

        RemoteEngine viewer = remote(local.viewerToken());
        assertThatThrownBy(() -> viewer.release("127.0.0.11/*").get(10, TimeUnit.SECONDS))
                .cause().isInstanceOfSatisfying(ControlException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ControlException.Kind.FORBIDDEN);
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.getMessage()).startsWith("refused: the token from ").contains("may not do this")
                            .contains("'alice' is a viewer token").doesNotContain(TestEngine.VIEWER_SECRET);
                });
        RemoteEngine none = remote(null);
        assertThatThrownBy(() -> none.release("127.0.0.11/*").get(10, TimeUnit.SECONDS))
                .cause().hasMessageStartingWith("refused: this needs an operator's token (give one with --token-file)");
        assertThat(local.engine.snapshot().pools().forced()).as("nothing released").hasSize(1);
        assertThat(local.audit()).extracting(AuditRecord::token, AuditRecord::action, a -> a.result().split(":")[0])
                .containsExactly(org.assertj.core.groups.Tuple.tuple("operator", "force", "ok"),
                        org.assertj.core.groups.Tuple.tuple("alice", "release", "refused"),
                        org.assertj.core.groups.Tuple.tuple(null, "release", "refused"));

        op.release("127.0.0.11/*").get(10, TimeUnit.SECONDS);
        assertThat(local.engine.snapshot().pools().forced()).isEmpty();
        // a key that is not forced: the engine's 400, in words
        assertThatThrownBy(() -> op.release("127.0.0.99/*").get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.BAD_REQUEST));
        assertThat(op.resolve("www.example.test", "A").get(10, TimeUnit.SECONDS).name()).startsWith("www.example.test");
        assertThat(op.searchNow().get(10, TimeUnit.SECONDS)).isIn(true, false);
    }

    @Test
    void applyGoesThroughTheEnginesPersistencePath() throws Exception {
        RemoteEngine op = remote(local.operatorToken());
        String before = Files.readString(local.file);
        String changed = before.replace("up_thresh => 0.25", "up_thresh => 0.5");
        ApplyOutcome ok = op.applyText(changed, ApplyRequest.plain().expecting(1));
        assertThat(ok.status()).as(ok.message()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(ok.version()).isEqualTo(2);
        assertThat(ok.diff().changes()).extracting(c -> c.path()).containsExactly("plugins.weighted.up_thresh");
        assertThat(ok.saved()).isEqualTo(local.file);
        assertThat(ok.backup()).isEqualTo(local.state.resolve("backups/lookout.conf.1"));
        assertThat(ok.message()).startsWith("configuration version 2 applied and saved to " + local.file);
        assertThat(Files.readString(local.file)).isEqualTo(changed);
        assertThat(Files.readString(ok.backup())).isEqualTo(before);
        assertThat(local.engine.snapshot().config().version()).isEqualTo(2);

        // the older facade goes the same way
        ReloadResult viaFacade = op.apply(new ConfigLoader(Map.of()).parse(before, local.file.toString(), dir));
        assertThat(viaFacade.applied()).isTrue();
        assertThat(viaFacade.version()).isEqualTo(3);
        assertThat(Files.readString(local.file)).isEqualTo(before);

        // the engine's own parser judges: a text the console did not check comes back with its positions (422)
        ReloadResult bad = op.reload(before + "resolvr => { }\n", "x", dir);
        assertThat(bad.applied()).isFalse();
        assertThat(bad.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(local.file.toString());
            assertThat(p.line()).isEqualTo(before.split("\n").length + 1);
            assertThat(p.column()).isEqualTo(1);
        });

        // someone else applied meanwhile
        ApplyOutcome stale = op.applyText(changed, ApplyRequest.plain().expecting(2));
        assertThat(stale.status()).isEqualTo(ApplyOutcome.Status.VERSION_MISMATCH);
        assertThat(stale.version()).isEqualTo(3);

        // an empty text: refused unless confirmed
        ApplyOutcome empty = op.applyText("# nothing\n", ApplyRequest.plain());
        assertThat(empty.status()).isEqualTo(ApplyOutcome.Status.WOULD_REMOVE_EVERYTHING);
        assertThat(empty.message()).contains("confirm");

        // a hand edit on disk: refused with both hashes, then overwritten when forced
        String byHand = before + "# edited by hand\n";
        Files.writeString(local.file, byHand);
        ApplyOutcome edited = op.applyText(changed, ApplyRequest.plain());
        assertThat(edited.status()).isEqualTo(ApplyOutcome.Status.EDITED_ON_DISK);
        assertThat(edited.runningSha256()).isEqualTo(sha256(before));
        assertThat(edited.onDiskSha256()).isEqualTo(sha256(byHand));
        assertThat(edited.message()).contains(sha256(byHand).substring(0, 12)).contains(sha256(before).substring(0, 12));
        assertThat(Files.readString(local.file)).isEqualTo(byHand);
        ApplyOutcome forced = op.applyText(changed, ApplyRequest.plain().forced());
        assertThat(forced.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(forced.version()).isEqualTo(4);
        assertThat(Files.readString(local.file)).isEqualTo(changed);
        assertThat(Files.readString(forced.backup())).isEqualTo(byHand);
        assertThat(local.engine.snapshot().config().version()).isEqualTo(4);
    }

    @Test
    void aViewerMayDiffButNotApplyAndADryRunIsNotAudited() throws Exception {
        RemoteEngine viewer = remote(local.viewerToken());
        String changed = local.text.replace("up_thresh => 0.25", "up_thresh => 0.5");
        ApplyOutcome dry = viewer.applyText(changed, ApplyRequest.plain().asDryRun());
        assertThat(dry.status()).isEqualTo(ApplyOutcome.Status.VALID);
        assertThat(dry.applied()).isFalse();
        assertThat(dry.diff().changes()).extracting(c -> c.path()).containsExactly("plugins.weighted.up_thresh");
        assertThat(remote(null).applyText(changed, ApplyRequest.plain().asDryRun()).status()).isEqualTo(ApplyOutcome.Status.VALID);
        assertThat(local.audit()).as("a dry run is no write").isEmpty();
        assertThatThrownBy(() -> viewer.applyText(changed, ApplyRequest.plain()))
                .isInstanceOfSatisfying(ControlException.class, e -> assertThat(e.kind()).isEqualTo(ControlException.Kind.FORBIDDEN));
        assertThat(Files.readString(local.file)).isEqualTo(local.text);
        assertThat(local.audit()).singleElement().satisfies(a -> {
            assertThat(a.token()).isEqualTo("alice");
            assertThat(a.result()).startsWith("refused: ");
        });
    }

    @Test
    void twoApiClientsSeeEachOthersChangesWithinASecond() throws Exception {
        RemoteEngine a = remote(local.operatorToken());
        RemoteEngine b = remote(local.operatorToken());
        List<EngineEvent> atA = new CopyOnWriteArrayList<>();
        List<EngineEvent> atB = new CopyOnWriteArrayList<>();
        a.subscribe(atA::add);
        b.subscribe(atB::add);
        await(() -> a.events().connected() && b.events().connected());
        await(() -> local.openStreams() == 2);

        long t0 = System.nanoTime();
        a.force("127.0.0.12/*", "DOWN", null).get(10, TimeUnit.SECONDS);
        await(() -> atB.stream().anyMatch(e -> e instanceof EngineEvent.ForcedStateChanged f && f.key().equals("127.0.0.12/*")));
        long forceMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(forceMs).as("b saw a's force after %d ms", forceMs).isLessThan(1000);

        t0 = System.nanoTime();
        ApplyOutcome o = b.applyText(local.text.replace("up_thresh => 0.25", "up_thresh => 0.5"), ApplyRequest.plain());
        assertThat(o.applied()).isTrue();
        await(() -> atA.stream().anyMatch(e -> e instanceof EngineEvent.ConfigApplied c && c.version() == 2));
        long applyMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(applyMs).as("a saw b's apply after %d ms", applyMs).isLessThan(1000);
        // and who did it, as the audit records it
        await(() -> atA.stream().anyMatch(e -> e instanceof EngineEvent.AuditRecorded r && r.action().equals("apply")
                && "operator".equals(r.token())));
    }

    @Test
    void eventsArriveOnceInOrderAcrossReconnects() throws Exception {
        proxy = new TcpProxy(0, TestEngine.port(local.engine));
        RemoteEngine r = remote(proxy.url(), null);
        List<String> seen = new CopyOnWriteArrayList<>();
        r.subscribe(e -> seen.add(e.message()));
        await(() -> r.events().connected());
        for (int i = 1; i <= 3; i++) {
            local.publish(notice("n" + i));
        }
        await(() -> seen.contains("n3"));

        proxy.cut();
        await(() -> !r.events().connected());
        for (int i = 4; i <= 6; i++) {
            local.publish(notice("n" + i));
        }
        Thread.sleep(300);
        assertThat(r.events().connected()).as("no reconnect before the clock says so").isFalse();
        timer.advance(Backoff.FIRST);
        await(() -> seen.contains("n6"));
        assertThat(seen).filteredOn(m -> m.matches("n\\d")).containsExactly("n1", "n2", "n3", "n4", "n5", "n6");
        // every event the engine keeps, each once: what it kept before the console came, then the rest
        var kept = local.engine.eventsSince(0);
        assertThat(seen).hasSize(kept.events().size());
        assertThat(r.events().lastSeq()).isEqualTo(kept.last());
        assertThat(r.events().connects()).isEqualTo(2);
    }

    @Test
    void eventsTheEngineNoLongerKeepsAreReportedMissing() throws Exception {
        proxy = new TcpProxy(0, TestEngine.port(local.engine));
        RemoteEngine r = remote(proxy.url(), null);
        List<EngineEvent> seen = new CopyOnWriteArrayList<>();
        r.subscribe(seen::add);
        await(() -> r.events().connected());
        local.publish(notice("first"));
        await(() -> seen.stream().anyMatch(e -> e.message().equals("first")));
        long seenUpTo = r.events().lastSeq();
        proxy.cut();
        await(() -> !r.events().connected());
        // more than the journal keeps (10 000) while the console is away
        for (int i = 0; i < 10_050; i++) {
            local.publish(notice("later" + i));
        }
        var kept = local.engine.eventsSince(0);
        assertThat(kept.firstKept()).isGreaterThan(seenUpTo + 1);
        int before = seen.size();
        timer.advance(Backoff.FIRST);
        await(() -> seen.stream().anyMatch(e -> e.message().equals("later10049")));
        List<EngineEvent> after = seen.subList(before, seen.size());
        assertThat(after.get(0).severity()).isEqualTo(Severity.WARNING);
        assertThat(after.get(0).message()).isEqualTo("events " + (seenUpTo + 1) + "–" + (kept.firstKept() - 1)
                + " were missed while this console was disconnected (the engine no longer keeps them)");
        assertThat(after.subList(1, after.size())).extracting(EngineEvent::message)
                .isEqualTo(kept.events().stream().map(e -> e.event().message()).toList());
    }

    @Test
    void anEngineWhoseJournalWasResetIsFollowedFromItsStart() throws Exception {
        proxy = new TcpProxy(0, TestEngine.port(local.engine));
        RemoteEngine r = remote(proxy.url(), null);
        List<String> seen = new CopyOnWriteArrayList<>();
        r.subscribe(e -> seen.add(e.message()));
        await(() -> r.events().connected());
        for (int i = 0; i < 5; i++) {
            local.publish(notice("old" + i));
        }
        await(() -> seen.contains("old4"));
        // the engine comes back on a fresh state directory: its numbering starts again below ours
        local.close();
        local = TestEngine.serving(Files.createDirectories(dir.resolve("again")), "test-engine");
        proxy.target(TestEngine.port(local.engine));
        await(() -> !r.events().connected());
        timer.advance(Backoff.FIRST);
        await(() -> r.events().connected());
        local.publish(notice("after the reset"));
        await(() -> seen.contains("after the reset"));
        assertThat(seen).anySatisfy(m -> assertThat(m).startsWith("the engine's event numbering started again"));
        assertThat(r.events().lastSeq()).isEqualTo(local.engine.eventsSince(0).last());
    }

    @Test
    void aLostEngineIsRetriedWithBackoffOnTheGivenClock() throws Exception {
        proxy = new TcpProxy(0, TestEngine.port(local.engine));
        RemoteEngine r = remote(proxy.url(), null);
        r.snapshot();
        int port = proxy.port();
        String url = proxy.url();
        proxy.close();
        assertThatThrownBy(r::snapshot).hasMessageStartingWith("cannot reach " + url);
        long asked = local.requests("/status", "ok");
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 250 ms");
        timer.advance(Duration.ofMillis(249));
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 1 ms");
        timer.advance(Duration.ofMillis(1));
        assertThatThrownBy(r::snapshot).hasMessageStartingWith("cannot reach"); // tried: refused again
        assertThatThrownBy(r::snapshot).hasMessageEndingWith("; trying again in 500 ms");
        assertThat(r.problem()).startsWith("cannot reach");
        assertThat(local.requests("/status", "ok")).as("nothing reached the engine meanwhile").isEqualTo(asked);

        // the engine is back on the same port: the next attempt after the delay gets through
        proxy = new TcpProxy(port, TestEngine.port(local.engine));
        timer.advance(Duration.ofMillis(500));
        assertThat(r.snapshot().config().version()).isEqualTo(1);
        assertThat(r.problem()).isNull();
        assertThat(local.requests("/status", "ok")).isEqualTo(asked + 1);
    }
}
