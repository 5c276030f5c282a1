package lookout.engine.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import lookout.engine.api.AuditRecord;
import lookout.engine.json.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control API over real loopback HTTP against a whole engine on a file (docs/design/control.md):
 * identity, authorisation, the operator's apply with write-back, backup, audit and the refusals
 * that change nothing.
 */
class ControlApiTest {

    @TempDir
    Path dir;

    private ControlHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new ControlHarness(dir, "");
    }

    @AfterEach
    void stop() {
        h.close();
    }

    @Test
    void theEngineSaysWhoItIsAndWhoTheCallerIs() throws Exception {
        ControlHarness.Reply anon = h.get("/api/v1/engine", null);
        assertThat(anon.statusCode()).isEqualTo(200);
        Map<String, Object> o = ControlHarness.json(anon);
        assertThat(o).containsEntry("product", "lookout").containsEntry("role", "anonymous")
                .containsEntry("writable", false).containsEntry("configFile", h.file.toString())
                .containsEntry("configVersion", 1L).containsEntry("state", "RUNNING");
        Map<String, Object> op = ControlHarness.json(h.get("/api/v1/engine", h.token()));
        assertThat(op).containsEntry("role", "operator").containsEntry("writable", true);
    }

    @Test
    void theOperatorTokenIsMadeOwnerOnly() throws Exception {
        Path t = h.state.resolve("control.token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(t))).isEqualTo("rw-------");
        assertThat(h.token()).matches("[A-Za-z0-9_-]{43}");
    }

    @Test
    void anApplyWithoutTheTokenIsRefusedChangesNothingAndIsAuditedAndCounted() throws Exception {
        String before = Files.readString(h.file);
        String next = ControlHarness.text("# edited\n");
        ControlHarness.Reply r = h.post("/api/v1/config", null, ControlHarness.applyBody(next, null));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.header("WWW-Authenticate")).hasValue("Bearer realm=\"lookout\"");
        ControlHarness.Reply wrong = h.post("/api/v1/config", "not-the-token-at-all",
                ControlHarness.applyBody(next, null));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.header("WWW-Authenticate")).hasValueSatisfying(v ->
                assertThat(v).contains("error=\"invalid_token\""));

        assertThat(Files.readString(h.file)).isEqualTo(before);
        assertThat(h.engine.snapshot().config().version()).isEqualTo(1);
        List<AuditRecord> audit = h.engine.audit(10);
        assertThat(audit).hasSize(2).allSatisfy(a -> {
            assertThat(a.action()).isEqualTo("apply");
            assertThat(a.result()).startsWith("refused: ");
            assertThat(a.token()).isNull();
            assertThat(a.peer()).startsWith("127.0.0.1:");
        });
        assertThat(h.get("/metrics", null).body())
                .contains("lookout_control_requests_total{result=\"unauthorized\",route=\"/api/v1/config\"} 2");
    }

    @Test
    void anApplyWithTheTokenPersistsTheFileKeepsABackupAndWritesAnAuditLine() throws Exception {
        String before = Files.readString(h.file);
        String next = before.replace("cache_size => 1000", "cache_size => 2000");
        ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(next, null));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, Object> o = ControlHarness.json(r);
        assertThat(o).containsEntry("status", "APPLIED").containsEntry("applied", true).containsEntry("version", 2L)
                .containsEntry("saved", h.file.toString());
        assertThat((List<?>) o.get("diff")).singleElement().satisfies(c ->
                assertThat(asMap(c)).containsEntry("path", "resolver.cache_size").containsEntry("kind", "CHANGED"));
        Path backup = h.state.resolve("backups").resolve("lookout.conf.1");
        assertThat(o).containsEntry("backup", backup.toString());

        assertThat(Files.readString(h.file)).isEqualTo(next);
        assertThat(Files.readString(backup)).isEqualTo(before);
        assertThat(h.engine.snapshot().resolver().cacheCapacity()).isEqualTo(2000);
        AuditRecord a = h.engine.audit(1).get(0);
        assertThat(a.token()).isEqualTo("operator");
        assertThat(a.action()).isEqualTo("apply");
        assertThat(a.result()).isEqualTo("ok");
        assertThat(a.version()).isEqualTo(2L);
        assertThat(a.diff()).containsExactly("~ resolver.cache_size: 1000 -> 2000");
        assertThat(a.args()).containsEntry("saved", h.file.toString());
        // the audit line on disk is one JSON object with the contract's members
        String line = Files.readAllLines(h.state.resolve("audit.log")).get(0);
        assertThat(JsonReader.parseObject(line)).containsKeys("at", "token", "peer", "action", "args", "result", "diff",
                "version");
        assertThat(ControlHarness.json(h.get("/api/v1/config", null))).containsEntry("version", 2L)
                .containsEntry("text", next).containsEntry("file", h.file.toString());
    }

    @Test
    void anEmptyTextIsRefusedUnlessConfirmedAndNothingChanges() throws Exception {
        String before = Files.readString(h.file);
        for (String empty : List.of("", "# only a comment\n\n", "state_dir => state\n")) {
            ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(empty, null));
            assertThat(r.statusCode()).as(empty).isEqualTo(409);
            assertThat(ControlHarness.json(r)).containsEntry("status", "WOULD_REMOVE_EVERYTHING");
            assertThat((String) ControlHarness.json(r).get("error")).contains("no service").contains("confirm");
        }
        assertThat(Files.readString(h.file)).isEqualTo(before);
        assertThat(h.engine.snapshot().config().version()).isEqualTo(1);
        assertThat(h.engine.audit(5)).hasSize(3).allSatisfy(a -> assertThat(a.result()).startsWith("refused: "));
    }

    @Test
    void aHandEditedFileIsNotOverwrittenUnlessForced() throws Exception {
        String edited = Files.readString(h.file) + "# an edit by hand\n";
        Files.writeString(h.file, edited);
        String next = edited.replace("cache_size => 1000", "cache_size => 3000");
        ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(next, null));
        assertThat(r.statusCode()).isEqualTo(409);
        Map<String, Object> o = ControlHarness.json(r);
        assertThat(o).containsEntry("status", "EDITED_ON_DISK")
                .containsEntry("running", h.engine.snapshot().config().sha256());
        assertThat((String) o.get("onDisk")).hasSize(64).isNotEqualTo(o.get("running"));
        assertThat((String) o.get("error")).contains("changed on disk").contains("force");
        assertThat(Files.readString(h.file)).isEqualTo(edited);
        assertThat(h.engine.snapshot().config().version()).isEqualTo(1);

        ControlHarness.Reply forced = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(next,
                "\"force\":true"));
        assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
        assertThat(Files.readString(h.file)).isEqualTo(next);
        assertThat(Files.readString(h.state.resolve("backups/lookout.conf.1"))).isEqualTo(edited);
    }

    @Test
    void anInvalidTextIs422WithItsPositionsAndChangesNothing() throws Exception {
        String before = Files.readString(h.file);
        ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(
                before.replace("cache_size => 1000", "cache_size => lots"), null));
        assertThat(r.statusCode()).isEqualTo(422);
        @SuppressWarnings("unchecked")
        List<String> problems = (List<String>) ControlHarness.json(r).get("problems");
        assertThat(problems).singleElement().asString().startsWith(h.file + ":2:").contains("resolver.cache_size");
        assertThat(Files.readString(h.file)).isEqualTo(before);
        assertThat(h.engine.snapshot().config().version()).isEqualTo(1);
        assertThat(h.engine.snapshot().config().lastReload().problems()).hasSize(1);
    }

    @Test
    void aDryRunDiffsAndChangesNothing() throws Exception {
        String before = Files.readString(h.file);
        ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(
                before.replace("cache_size => 1000", "cache_size => 5000"), "\"dryRun\":true"));
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Object> o = ControlHarness.json(r);
        assertThat(o).containsEntry("status", "VALID").containsEntry("applied", false).containsEntry("version", 1L)
                .containsEntry("saved", null);
        assertThat((List<?>) o.get("diff")).hasSize(1);
        assertThat(Files.readString(h.file)).isEqualTo(before);
        assertThat(h.engine.snapshot().resolver().cacheCapacity()).isEqualTo(1000);
        assertThat(h.engine.audit(1).get(0).result()).isEqualTo("ok: dry run");
    }

    @Test
    void anExpectedVersionThatIsNotRunningIsRefused() throws Exception {
        String before = Files.readString(h.file);
        ControlHarness.Reply r = h.post("/api/v1/config", h.token(), ControlHarness.applyBody(
                before.replace("1000", "4000"), "\"expectedVersion\":7"));
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(ControlHarness.json(r)).containsEntry("status", "VERSION_MISMATCH").containsEntry("version", 1L);
        assertThat(Files.readString(h.file)).isEqualTo(before);
    }

    @Test
    void malformedAndOversizedRequestsAre400() throws Exception {
        String t = h.token();
        assertThat(h.post("/api/v1/config", t, "{\"text\":").statusCode()).isEqualTo(400);
        assertThat(h.post("/api/v1/config", t, "[1,2]").statusCode()).isEqualTo(400);
        ControlHarness.Reply unknown = h.post("/api/v1/config", t, "{\"txt\":\"x\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat((String) ControlHarness.json(unknown).get("error")).contains("unknown member \"txt\"");
        ControlHarness.Reply missing = h.post("/api/v1/pools/force", t, "{\"key\":\"a\"}");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat((String) ControlHarness.json(missing).get("error")).contains("\"state\"");
        assertThat(h.post("/api/v1/pools/force", t, "{\"key\":\"a\",\"state\":\"SIDEWAYS\"}").statusCode())
                .isEqualTo(400);
        ControlHarness.Reply big = h.post("/api/v1/config", t, ControlHarness.applyBody("#".repeat(1 << 20), null));
        assertThat(big.statusCode()).isEqualTo(400);
        assertThat(big.body()).contains("over 1 MiB");
        assertThat(h.engine.snapshot().config().version()).isEqualTo(1);
        // refused writes are audited too
        assertThat(h.engine.audit(10)).anySatisfy(a -> assertThat(a.result()).contains("bad request"));
    }

    @Test
    void unknownPathsAre404AndOtherMethods405WithAllow() throws Exception {
        ControlHarness.Reply nf = h.get("/api/v1/nothing", null);
        assertThat(nf.statusCode()).isEqualTo(404);
        assertThat(ControlHarness.json(nf)).containsKey("error");
        ControlHarness.Reply na = h.get("/api/v1/pools/force", null);
        assertThat(na.statusCode()).isEqualTo(405);
        assertThat(na.header("Allow")).hasValue("POST");
        assertThat(h.get("/status", null).statusCode()).isEqualTo(200);
        assertThat(h.get("/metrics", null).body()).contains("lookout_config_version 1");
    }

    @Test
    void forceAndReleaseGoThroughAndAreAudited() throws Exception {
        String t = h.token();
        ControlHarness.Reply f = h.post("/api/v1/pools/force", t, "{\"key\":\"127.0.0.9/up\",\"state\":\"down\",\"ttl\":60}");
        assertThat(f.statusCode()).as(f.body()).isEqualTo(200);
        assertThat(h.engine.snapshot().pools().forced()).anySatisfy(e -> assertThat(e.toString()).contains("127.0.0.9"));
        assertThat(h.post("/api/v1/pools/release", t, "{\"key\":\"127.0.0.9/up\"}").statusCode()).isEqualTo(200);
        List<AuditRecord> a = h.engine.audit(10);
        assertThat(a).extracting(AuditRecord::action).containsExactly("force", "release");
        assertThat(a.get(0).args()).containsEntry("key", "127.0.0.9/up").containsEntry("state", "DOWN")
                .containsEntry("ttl", 60L);
        assertThat(a).allSatisfy(r -> assertThat(r.result()).isEqualTo("ok"));
        ControlHarness.Reply audit = h.get("/api/v1/audit?limit=1", null);
        assertThat(audit.statusCode()).isEqualTo(200);
        assertThat(audit.body()).startsWith("[{").contains("\"action\":\"release\"");
    }

    @Test
    void theVersionContinuesAcrossARestart() throws Exception {
        String next = Files.readString(h.file).replace("cache_size => 1000", "cache_size => 2000");
        assertThat(h.post("/api/v1/config", h.token(), ControlHarness.applyBody(next, null)).statusCode()).isEqualTo(200);
        h.stop();
        h.start();
        assertThat(h.engine.snapshot().config().version()).isEqualTo(2);
        // a file changed while the engine was down is a new version
        h.stop();
        Files.writeString(h.file, Files.readString(h.file) + "# while stopped\n");
        h.start();
        assertThat(h.engine.snapshot().config().version()).isEqualTo(3);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", h.base.getPort())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /api/v1/engine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String all = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int metrics = all.indexOf("# TYPE");
            int notFound = all.indexOf("HTTP/1.1 404");
            int engine = all.indexOf("\"product\":\"lookout\"");
            assertThat(metrics).isPositive();
            assertThat(notFound).isGreaterThan(metrics);
            assertThat(engine).isGreaterThan(notFound);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }
}
