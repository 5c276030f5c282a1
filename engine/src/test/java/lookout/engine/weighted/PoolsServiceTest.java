package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.Severity;
import lookout.engine.config.Config;
import lookout.engine.seams.DynamicRecords;
import lookout.engine.health.ForcedStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PoolsServiceTest {

    @TempDir
    Path state;

    static final String SYNOPSIS = Synopsis.SERVICE_TYPES.replace("interval => 10 }", "interval => 10 }\n  st_down => { plugin => static, state => down, ttl => 30 }")
            + Synopsis.WEIGHTED;

    private static PoolsService started(TestContext ctx, Config config) {
        PoolsService svc = new PoolsService();
        ctx.call(() -> {
            svc.start(ctx, config);
            return null;
        });
        return svc;
    }

    private static void stop(TestContext ctx, PoolsService svc) {
        ctx.call(() -> {
            svc.stop();
            return null;
        });
    }

    private static PoolsSnapshot.PoolFamily family(TestContext ctx, PoolsService svc, String resource, String family) {
        return ctx.call(() -> svc.snapshot().resources().stream().filter(r -> r.name().equals(resource)).findFirst().orElseThrow()
                .families().stream().filter(f -> f.family().equals(family)).findFirst().orElseThrow());
    }

    @Test
    void dynaAnswersOneFamilyPerQueryTypeWithGdnsdTtls() {
        // only built-in and static monitors: nothing probes the documentation addresses
        String text = """
                service_types => { st => { plugin => static, state => up, ttl => 45 } }
                plugins => { weighted => {
                  mixed => { addrs_v4 => { a => [ 192.0.2.1, 1 ] }, addrs_v6 => { service_types => st, b => [ 2001:db8::1, 1 ] } }
                  v4only => { a => [ 192.0.2.2, 3 ], b => [ 192.0.2.3, 1 ] }
                  cn => { x => [ www.example.net., 1 ] }
                } }
                """;
        try (TestContext ctx = new TestContext(state, 5)) {
            PoolsService svc = started(ctx, TestContext.config(text));
            DynamicRecords.Answer a = ctx.call(() -> svc.answer("mixed", 1, 300, 10));
            assertThat(a.addresses()).extracting(InetAddress::getHostAddress).containsExactly("192.0.2.1");
            // TTL: min over every item of both families (static 45), capped by 300, floored by 10
            assertThat(a.ttl()).isEqualTo(45);
            DynamicRecords.Answer aaaa = ctx.call(() -> svc.answer("mixed", 28, 300, 10));
            assertThat(aaaa.addresses()).hasSize(1);
            assertThat(aaaa.addresses().get(0).getHostAddress()).isEqualTo("2001:db8:0:0:0:0:0:1");
            assertThat(ctx.call(() -> svc.answer("mixed", 28, 30, 10)).ttl()).isEqualTo(30); // capped
            assertThat(ctx.call(() -> svc.answer("mixed", 28, 300, 60)).ttl()).isEqualTo(60); // floored
            // AAAA on an IPv4-only resource, or another type: NODATA
            assertThat(ctx.call(() -> svc.answer("v4only", 28, 300, 150)).addresses()).isEmpty();
            assertThat(ctx.call(() -> svc.answer("v4only", 16, 300, 150)).addresses()).isEmpty();
            // `up` monitors: gdnsd's maximum TTL, so the record's TTL wins
            assertThat(ctx.call(() -> svc.answer("v4only", 1, 300, 150)).ttl()).isEqualTo(300);
            DynamicRecords.Answer c = ctx.call(() -> svc.answer("cn", 5, 300, 150));
            assertThat(c.cname()).isEqualTo("www.example.net.");
            assertThat(c.addresses()).isEmpty();
            assertThat(ctx.call(() -> svc.answer("nope", 1, 300, 150)).addresses()).isEmpty();
            stop(ctx, svc);
        }
    }

    @Test
    void forcedDownOverridesAMonitoredUpAndSurvivesARestart() throws Exception {
        String text = """
                plugins => { weighted => {
                  r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ], c => [ 192.0.2.3, 10 ] }
                } }
                """;
        Config config = TestContext.config(text);
        try (TestContext ctx = new TestContext(state, 6)) {
            PoolsService svc = started(ctx, config);
            assertThat(family(ctx, svc, "r", "ipv4").groups().get(0).items().get(0).down()).isFalse();
            ctx.call(() -> {
                svc.force("192.0.2.1/up", "DOWN", Duration.ofSeconds(30));
                return null;
            });
            PoolsSnapshot.PoolFamily f = family(ctx, svc, "r", "ipv4");
            PoolsSnapshot.PoolItem a = f.groups().get(0).items().get(0);
            assertThat(a.down()).isTrue();
            assertThat(a.monitoredDown()).isFalse(); // shown apart: the monitor still says UP
            assertThat(a.forced()).isTrue();
            assertThat(a.probability()).isZero();
            assertThat(f.groups().get(1).items().get(0).probability()).isEqualTo(0.5);
            PoolsSnapshot snap = ctx.call(svc::snapshot);
            assertThat(snap.forced()).extracting(PoolsSnapshot.PoolForced::key, PoolsSnapshot.PoolForced::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("192.0.2.1/up", "DOWN/30"));
            assertThat(snap.monitors()).filteredOn(m -> m.name().equals("192.0.2.1/up")).singleElement()
                    .satisfies(m -> {
                        assertThat(m.monitoredState()).isEqualTo("UP");
                        assertThat(m.forcedState()).isEqualTo("DOWN/30");
                        assertThat(m.effectiveState()).isEqualTo("DOWN");
                    });
            // the forced TTL becomes the resource's TTL
            assertThat(ctx.call(() -> svc.answer("r", 1, 300, 10)).ttl()).isEqualTo(30);
            for (int i = 0; i < 200; i++) {
                assertThat(ctx.call(() -> svc.answer("r", 1, 300, 10)).addresses())
                        .extracting(InetAddress::getHostAddress).doesNotContain("192.0.2.1");
            }
            assertThat(ctx.events).anyMatch(e -> e instanceof EngineEvent.ForcedStateChanged fc && fc.key().equals("192.0.2.1/up"));
            stop(ctx, svc);
        }
        assertThat(Files.readString(state.resolve(ForcedStates.FILE_NAME))).contains("\"192.0.2.1/up\" => DOWN/30");
        // a new engine on the same state_dir: still forced
        try (TestContext ctx = new TestContext(state, 7)) {
            PoolsService svc = started(ctx, config);
            assertThat(family(ctx, svc, "r", "ipv4").groups().get(0).items().get(0).down()).isTrue();
            ctx.call(() -> {
                svc.release("192.0.2.1/up");
                return null;
            });
            assertThat(family(ctx, svc, "r", "ipv4").groups().get(0).items().get(0).down()).isFalse();
            assertThatThrownBy(() -> ctx.call(() -> {
                svc.release("192.0.2.1/up");
                return null;
            })).hasMessageContaining("no forced state for '192.0.2.1/up'");
            stop(ctx, svc);
        }
    }

    @Test
    void adminStateFileGlobsLaterEntriesWinAndABadFileIsIgnoredWhole() throws Exception {
        Path file = state.resolve(ForcedStates.FILE_NAME);
        Files.writeString(file, """
                # every address of the 192.0.2.0/24 monitors DOWN, then one back UP
                "192.0.2.*/up" => DOWN
                192.0.2.3/up => UP/60
                """);
        Config config = TestContext.config("""
                plugins => { weighted => {
                  r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ], c => [ 192.0.2.3, 10 ], d => [ 198.51.100.1, 30 ] }
                } }
                """);
        try (TestContext ctx = new TestContext(state, 8)) {
            PoolsService svc = started(ctx, config);
            PoolsSnapshot.PoolFamily f = family(ctx, svc, "r", "ipv4");
            assertThat(f.groups()).extracting(g -> g.items().get(0).down()).containsExactly(true, true, false, false);
            assertThat(f.liveWeight()).isEqualTo(40);
            assertThat(f.failover()).isFalse(); // 40 >= ceil(60 x 0.5)

            // a bad file: ignored whole, the forced states in effect stay, an error event is published
            Files.writeString(file, "\"192.0.2.*/up\" => UP\n198.51.100.1/up => SIDEWAYS\n");
            ctx.scheduler.advance(Duration.ofSeconds(2));
            f = family(ctx, svc, "r", "ipv4");
            assertThat(f.groups()).extracting(g -> g.items().get(0).down()).containsExactly(true, true, false, false);
            assertThat(ctx.events).anyMatch(e -> e.severity() == Severity.ERROR && e.message().contains("must be of the form STATE[/TTL]")
                    && e.message().contains("all contents were ignored"));
            assertThat(ctx.call(svc::snapshot).adminStateError()).contains("198.51.100.1/up");
            assertThatThrownBy(() -> ctx.call(() -> {
                svc.force("x/up", "DOWN", null);
                return null;
            })).hasMessageContaining("has errors");

            // fixed by hand: picked up by the poll; forcing 198.51.100.1 DOWN puts the pool in failover
            Files.writeString(file, "\"192.0.2.*/up\" => DOWN\n198.51.100.1/up => DOWN\n");
            ctx.scheduler.advance(Duration.ofSeconds(2));
            f = family(ctx, svc, "r", "ipv4");
            assertThat(f.failover()).isTrue();
            assertThat(f.groups()).extracting(g -> g.items().get(0).probability()).containsExactly(1.0 / 6, 1.0 / 6, 1.0 / 6, 0.5);
            assertThat(ctx.events).anyMatch(e -> e instanceof EngineEvent.PoolFailover pf && pf.inFailover());

            // deleting the file clears every forced state
            Files.delete(file);
            ctx.scheduler.advance(Duration.ofSeconds(2));
            assertThat(family(ctx, svc, "r", "ipv4").liveWeight()).isEqualTo(60);
            stop(ctx, svc);
        }
    }

    @Test
    void aWholeResourceCanBeForced() throws Exception {
        // a is monitored DOWN (built-in `down`), b UP
        Config config = TestContext.config("""
                plugins => { weighted => {
                  r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 30 ], service_types => down }
                  s => { c => [ 192.0.2.3, 10 ] }
                } }
                """);
        try (TestContext ctx = new TestContext(state, 12)) {
            PoolsService svc = started(ctx, config);
            assertThat(family(ctx, svc, "r", "ipv4").failover()).isTrue(); // everything DOWN by its monitors
            ctx.call(() -> {
                svc.force("weighted!r", "UP", Duration.ofSeconds(20));
                return null;
            });
            PoolsSnapshot.PoolFamily f = family(ctx, svc, "r", "ipv4");
            assertThat(f.failover()).isFalse();
            assertThat(f.liveWeight()).isEqualTo(40);
            assertThat(f.groups()).allSatisfy(g -> assertThat(g.items().get(0).forced()).isTrue());
            assertThat(f.groups()).allSatisfy(g -> assertThat(g.items().get(0).monitoredDown()).isTrue());
            assertThat(ctx.call(() -> svc.answer("r", 1, 300, 10)).ttl()).isEqualTo(20);
            assertThat(ctx.call(svc::snapshot).resources().get(0).forcedState()).isEqualTo("UP/20");
            // forcing DOWN a resource: failover, signalled
            ctx.call(() -> {
                svc.force("weighted!s*", "DOWN", null);
                return null;
            });
            assertThat(family(ctx, svc, "s", "ipv4").failover()).isTrue();
            assertThat(ctx.call(() -> svc.answer("s", 1, 300, 10)).failover()).isTrue();
            assertThat(ctx.events).anyMatch(e -> e instanceof EngineEvent.PoolFailover pf && pf.resource().equals("s") && pf.inFailover());
            assertThat(ctx.call(svc::snapshot).forced()).extracting(PoolsSnapshot.PoolForced::matches)
                    .containsExactly(List.of("weighted!r"), List.of("weighted!s"));
            stop(ctx, svc);
        }
    }

    @Test
    void aReloadDoesNotAnnounceAFailoverThatIsNotReal() throws Exception {
        Files.writeString(state.resolve(ForcedStates.FILE_NAME), "\"192.0.2.*/*\" => DOWN\nweighted!s => DOWN\n");
        String text = """
                plugins => { weighted => {
                  r => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 30 ] }
                  s => { c => [ 198.51.100.3, 10 ] }
                } }
                """;
        try (TestContext ctx = new TestContext(state, 13)) {
            Config c1 = TestContext.config(text);
            PoolsService svc = started(ctx, c1);
            assertThat(ctx.events).filteredOn(e -> e instanceof EngineEvent.PoolFailover).hasSize(2);
            ctx.call(() -> {
                svc.apply(c1, TestContext.config(text + "\n# edited\n"));
                return null;
            });
            assertThat(ctx.events).filteredOn(e -> e instanceof EngineEvent.PoolFailover).hasSize(2);
            assertThat(family(ctx, svc, "r", "ipv4").failover()).isTrue();
            assertThat(family(ctx, svc, "s", "ipv4").failover()).isTrue();
            stop(ctx, svc);
        }
    }

    @Test
    void whatIfDoesNotApply() {
        try (TestContext ctx = new TestContext(state, 9)) {
            PoolsService svc = started(ctx, TestContext.config(Synopsis.SERVICE_TYPES.replace("http_status", "static")
                    .replace("tcp_connect", "static").replace(", port => 80, url_path => /health", "")
                    .replace(", port => 8080", "") + Synopsis.WEIGHTED));
            List<PoolsSnapshot.PoolResource> hypo = ctx.call(() -> svc.whatIf(Map.of("lb01.example.org./*", "DOWN")));
            PoolsSnapshot.PoolFamily corp = hypo.stream().filter(r -> r.name().equals("corpwww")).findFirst().orElseThrow().families().get(0);
            assertThat(corp.failover()).isTrue(); // 16 < ceil(57.5)
            assertThat(family(ctx, svc, "corpwww", "cname").failover()).isFalse();

            // a weighted!GLOB key forces whole resources hypothetically, as admin_state would
            List<PoolsSnapshot.PoolResource> forced = ctx.call(() -> svc.whatIf(Map.of("weighted!corp*", "DOWN")));
            PoolsSnapshot.PoolResource corpwww = forced.stream().filter(r -> r.name().equals("corpwww")).findFirst().orElseThrow();
            assertThat(corpwww.forcedState()).isEqualTo("DOWN");
            assertThat(corpwww.families()).allSatisfy(f -> assertThat(f.failover()).isTrue());
            assertThat(forced).filteredOn(r -> !r.name().startsWith("corp"))
                    .allSatisfy(r -> assertThat(r.forcedState()).isNull());
            assertThat(ctx.call(svc::snapshot).resources()).allSatisfy(r -> assertThat(r.forcedState()).isNull());
            stop(ctx, svc);
        }
    }

    @Test
    void reloadKeepsMonitorStateForUnchangedPairs() {
        String v1 = """
                service_types => { nul => { plugin => null, interval => 10 } }
                plugins => { weighted => { service_types => nul, r => { a => [ 192.0.2.1, 1 ], b => [ 192.0.2.2, 1 ] } } }
                """;
        String v2 = """
                service_types => { nul => { plugin => null, interval => 10 } }
                plugins => { weighted => { service_types => nul, r => { a => [ 192.0.2.1, 1 ], c => [ 192.0.2.3, 1 ] } } }
                """;
        try (TestContext ctx = new TestContext(state, 10)) {
            Config c1 = TestContext.config(v1);
            PoolsService svc = started(ctx, c1);
            ctx.scheduler.advance(Duration.ofSeconds(25)); // probes at 0, 10, 20: the null monitor always fails
            PoolsSnapshot before = ctx.call(svc::snapshot);
            assertThat(before.monitors()).extracting(PoolsSnapshot.PoolMonitor::probes).containsExactly(3L, 3L);
            ctx.call(() -> {
                svc.apply(c1, TestContext.config(v2));
                return null;
            });
            PoolsSnapshot after = ctx.call(svc::snapshot);
            Set<String> names = new HashSet<>();
            after.monitors().forEach(m -> names.add(m.name()));
            assertThat(names).containsExactlyInAnyOrder("192.0.2.1/nul", "192.0.2.3/nul");
            assertThat(after.monitors()).filteredOn(m -> m.name().equals("192.0.2.1/nul")).singleElement()
                    .satisfies(m -> {
                        assertThat(m.probes()).isEqualTo(3); // kept
                        assertThat(m.monitoredState()).isEqualTo("DOWN");
                    });
            ctx.scheduler.advance(Duration.ofSeconds(1)); // the new monitor probes at once
            assertThat(ctx.call(svc::snapshot).monitors()).filteredOn(m -> m.name().equals("192.0.2.3/nul")).singleElement()
                    .satisfies(m -> assertThat(m.probes()).isEqualTo(1));
            stop(ctx, svc);
        }
    }

    @Test
    void synopsisStartsAndShowsOddsForEveryResource() {
        try (TestContext ctx = new TestContext(state, 11)) {
            String text = Synopsis.SERVICE_TYPES.replace("http_status", "static").replace("tcp_connect", "static")
                    .replace(", port => 80, url_path => /health", "").replace(", port => 8080", "") + Synopsis.WEIGHTED;
            PoolsService svc = started(ctx, TestContext.config(text));
            PoolsSnapshot s = ctx.call(svc::snapshot);
            assertThat(s.resources()).hasSize(6);
            PoolsSnapshot.PoolFamily front = family(ctx, svc, "frontwww6", "ipv6");
            assertThat(front.mode()).isEqualTo("ungrouped-multi");
            assertThat(front.groups()).extracting(g -> g.items().get(0).probability()).containsExactly(1.0, 0.25, 0.5);
            assertThat(front.answerSets()).hasSize(4);
            // the snapshot is what GET /status serves: it must write as JSON
            String json = lookout.engine.status.JsonWriter.write(s);
            assertThat(json).contains("\"name\":\"frontwww6\"", "\"mode\":\"ungrouped-multi\"", "\"upWeight\":");
            assertThat(front.answerSetsListed()).isTrue();
            // the cn resource's static check has TTL 120: its answers carry min(120, 300)
            assertThat(ctx.call(() -> svc.answer("cn", 5, 300, 150)).ttl()).isEqualTo(150); // floored by the record min
            assertThat(ctx.call(() -> svc.answer("cn", 5, 300, 60)).ttl()).isEqualTo(120);
            stop(ctx, svc);
        }
    }
}
