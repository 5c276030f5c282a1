package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.PvaTickSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;
import lookout.engine.status.pv.StatusModel.Reading;
import lookout.engine.status.pv.StatusPvCatalog.Def;
import lookout.engine.status.pv.TableBuilder.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The status PVs' values and alarm rules (issue 15), from snapshots made by hand: each alarm
 * raised by its cause and back to NO_ALARM when the cause clears; the per-minute and last-hour
 * windows in virtual time, across the clock's wrap; INVALID where a service is not running.
 */
class StatusModelTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static ResolverSnapshot.Scope scope(String name, boolean fallback, boolean... demoted) {
        List<ResolverSnapshot.Server> servers = new java.util.ArrayList<>();
        for (int i = 0; i < demoted.length; i++) {
            servers.add(new ResolverSnapshot.Server("192.0.2." + (i + 1) + ":53", demoted[i],
                    demoted[i] ? T0.plusSeconds(30) : null, demoted[i] ? Duration.ofMillis(12_500) : Duration.ZERO));
        }
        return new ResolverSnapshot.Scope(name, List.of(), false, fallback, servers);
    }

    static ResolverSnapshot resolver(int inflight, long refused, ResolverSnapshot.Scope... scopes) {
        return new ResolverSnapshot(List.of("127.0.0.1:8053"), 100, 10, 1, 1000, 0, 0, 0, Map.of(), refused, 0, 0, 0,
                0, inflight, 4096, 12.5, List.of(scopes), List.of(new ResolverSnapshot.Upstream("192.0.2.1:53", 9, 3,
                        6, Duration.ofMillis(2), Duration.ofMillis(40), null, null)), List.of());
    }

    static PoolsSnapshot pools(boolean failover) {
        PoolsSnapshot.PoolItem a = new PoolsSnapshot.PoolItem("a", "127.0.0.1", 10, 10, false, false, false, 10, 0.75);
        PoolsSnapshot.PoolItem b = new PoolsSnapshot.PoolItem("b", "127.0.0.2", 5, 0, true, true, true, 10, 0.25);
        PoolsSnapshot.PoolFamily f = new PoolsSnapshot.PoolFamily("ipv4", "ungrouped-single", 0.5, List.of("up"), 15,
                8, 10, failover, List.of(new PoolsSnapshot.PoolGroup("a", 10, 10, 0.75, List.of(a)),
                        new PoolsSnapshot.PoolGroup("b", 5, 0, 0.25, List.of(b))), List.of(), 2, true);
        return new PoolsSnapshot(true, List.of(new PoolsSnapshot.PoolResource("www", "address", 10, List.of(f), 0, null)),
                List.of(), List.of(), null, null, 0);
    }

    static PvaSnapshot pva(long duplicates, long restarts) {
        PvaDiscoveredServer s = new PvaDiscoveredServer("0a0b0c0d0e0f101112131415", "10.0.0.5:5075", "tcp",
                "10.0.0.5:5076", 2, T0, T0, 7, 0, null, restarts, T0.plusSeconds(360), PvaDiscoveredServer.Status.ONLINE);
        PvaCounters c = new PvaCounters(0, 0, 0, 0, 0, 0, 0, duplicates, 0, 0, 0, 0, 0, 0, 0, 0);
        return new PvaSnapshot(true, 5000, 5076, 0, Collections.nCopies(30, 0), 0, false, 0, null, null, 0, 3, 0,
                PvaTickSnapshot.NONE, List.of(), false, List.of(s), 20_000, List.of(), List.of(), c);
    }

    static EngineSnapshot snapshot(ResolverSnapshot r, PoolsSnapshot p, PvaSnapshot v, List<EngineEvent> events,
                                   ReloadResult last) {
        ConfigStatus cs = new ConfigStatus(3, "", "x.conf", T0, "", last);
        return new EngineSnapshot(EngineState.RUNNING, T0.plusSeconds(90), T0, cs, r, p, v, null, List.of(), events);
    }

    static Reading reading(List<Reading> all, Def d) {
        return all.get(StatusPvCatalog.ALL.indexOf(d));
    }

    private final StatusModel model = new StatusModel();

    @Test
    void healthyEngineReadsWithoutAlarms() {
        List<Reading> r = model.read(snapshot(resolver(3, 0, scope("corp", false, false, false)), pools(false),
                pva(0, 0), List.of(), null), 0, 64L << 20);
        assertThat(r).hasSize(StatusPvCatalog.ALL.size()).doesNotContainNull();
        assertThat(r).allSatisfy(x -> assertThat(x.severity()).isZero());
        assertThat(reading(r, StatusPvCatalog.CONFIG_VERSION).value()).isEqualTo(3);
        assertThat(reading(r, StatusPvCatalog.CONFIG_LAST_RELOAD).value()).isEqualTo("OK");
        assertThat(reading(r, StatusPvCatalog.QUERIES_PER_S).value()).isEqualTo(12.5);
        assertThat(reading(r, StatusPvCatalog.SERVERS_TOTAL).value()).isEqualTo(2);
        assertThat(reading(r, StatusPvCatalog.SERVERS_HEALTHY).value()).isEqualTo(2);
        assertThat(reading(r, StatusPvCatalog.UPTIME).value()).isEqualTo(90);
        assertThat(reading(r, StatusPvCatalog.HEAP).value()).isEqualTo(64.0);
        assertThat(reading(r, StatusPvCatalog.PVA_ONLINE).value()).isEqualTo(1);
        assertThat(reading(r, StatusPvCatalog.PVA_SEARCHING).value()).isEqualTo(3);
        Table items = (Table) reading(r, StatusPvCatalog.POOL_ITEMS).value();
        assertThat(items.rows()).isEqualTo(2);
        assertThat((String[]) items.columns()[3]).containsExactly("a", "b");
        assertThat((String[]) items.columns()[6]).containsExactly("UP", "DOWN");
        assertThat((boolean[]) items.columns()[7]).containsExactly(false, true);
        assertThat((double[]) items.columns()[9]).containsExactly(0.75, 0.25);
    }

    @Test
    void inflightIsHighAbove3500AndClearsBelow() {
        assertThat(reading(model.read(snapshot(resolver(3500, 0), null, null, List.of(), null), 0, 0),
                StatusPvCatalog.INFLIGHT).severity()).isZero();
        Reading high = reading(model.read(snapshot(resolver(3501, 0), null, null, List.of(), null), 0, 0),
                StatusPvCatalog.INFLIGHT);
        assertThat(high.severity()).isEqualTo(StatusPvCatalog.MINOR);
        assertThat(high.message()).isEqualTo("HIGH: 3501 in flight, above 3500 of 4096");
        assertThat(reading(model.read(snapshot(resolver(12, 0), null, null, List.of(), null), 0, 0),
                StatusPvCatalog.INFLIGHT).severity()).isZero();
    }

    @Test
    void demotionsAreMinorThenMajorWhenAScopeHasNoServerLeftThenClear() {
        EngineEvent why = new EngineEvent.UpstreamDemoted(T0, "192.0.2.1:53", "timeout", T0.plusSeconds(30), false);
        List<Reading> one = model.read(snapshot(resolver(0, 0, scope("corp", false, true, false),
                scope("fallback", true, true)), null, null, List.of(why), null), 0, 0);
        Reading d = reading(one, StatusPvCatalog.SERVERS_DEMOTED);
        assertThat(d.value()).isEqualTo(1);
        assertThat(d.severity()).isEqualTo(StatusPvCatalog.MINOR);
        assertThat(d.message()).isEqualTo("1 of 2 servers demoted");
        assertThat(reading(one, StatusPvCatalog.SERVERS_TOTAL).value()).isEqualTo(2); // the fallback scope is not counted
        Table t = (Table) reading(one, StatusPvCatalog.SERVERS_TABLE).value();
        assertThat((String[]) t.columns()[2]).containsExactly("DEMOTED", "UP", "fallback");
        assertThat((double[]) t.columns()[3]).containsExactly(12.5, 0.0, 12.5);
        assertThat((String[]) t.columns()[4]).containsExactly("timeout", "", "timeout");
        assertThat(((long[]) t.columns()[5])[0]).isEqualTo(3);
        assertThat(((double[]) t.columns()[6])[0]).isEqualTo(2.0);
        assertThat(((double[]) t.columns()[7])[1]).isNaN();

        Reading all = reading(model.read(snapshot(resolver(0, 0, scope("corp", false, true, true),
                scope("lan", false, false)), null, null, List.of(), null), 0, 0), StatusPvCatalog.SERVERS_DEMOTED);
        assertThat(all.severity()).isEqualTo(StatusPvCatalog.MAJOR);
        assertThat(all.message()).isEqualTo("every server of scope corp demoted");

        Reading clear = reading(model.read(snapshot(resolver(0, 0, scope("corp", false, false, false)), null, null,
                List.of(), null), 0, 0), StatusPvCatalog.SERVERS_DEMOTED);
        assertThat(clear.severity()).isZero();
        assertThat(clear.message()).isEmpty();
    }

    @Test
    void failoverIsMajorAndClears() {
        Reading f = reading(model.read(snapshot(null, pools(true), null, List.of(), null), 0, 0), StatusPvCatalog.POOL_FAILOVER);
        assertThat(f.value()).isEqualTo(1);
        assertThat(f.severity()).isEqualTo(StatusPvCatalog.MAJOR);
        assertThat(f.message()).isEqualTo("pool www ipv4 in failover");
        assertThat(reading(model.read(snapshot(null, pools(false), null, List.of(), null), 1, 0),
                StatusPvCatalog.POOL_FAILOVER).severity()).isZero();
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, Long.MAX_VALUE - 1_000_000_000L, Long.MIN_VALUE})
    void duplicateClaimsAreMinorForAnHourAfterTheLastOne(long start) {
        long sec = 1_000_000_000L;
        assertThat(reading(model.read(snapshot(null, null, pva(0, 0), List.of(), null), start, 0),
                StatusPvCatalog.PVA_DUPLICATES).severity()).isZero();
        Reading one = reading(model.read(snapshot(null, null, pva(2, 0), List.of(), null), start + 5 * sec, 0),
                StatusPvCatalog.PVA_DUPLICATES);
        assertThat(one.value()).isEqualTo(2);
        assertThat(one.severity()).isEqualTo(StatusPvCatalog.MINOR);
        for (long t = 15; t < 3600; t += 15) {
            model.read(snapshot(null, null, pva(2, 0), List.of(), null), start + t * sec, 0);
        }
        Reading later = reading(model.read(snapshot(null, null, pva(2, 0), List.of(), null), start + 3620 * sec, 0),
                StatusPvCatalog.PVA_DUPLICATES);
        assertThat(later.value()).isEqualTo(0);
        assertThat(later.severity()).isZero();
    }

    @Test
    void restartsAndRefusalsCountOverTheirWindows() {
        long sec = 1_000_000_000L;
        model.read(snapshot(resolver(0, 100), null, pva(0, 4), List.of(), null), 0, 0);
        List<Reading> r = model.read(snapshot(resolver(0, 130), null, pva(0, 6), List.of(), null), 20 * sec, 0);
        assertThat(reading(r, StatusPvCatalog.REFUSED_PER_MIN).value()).isEqualTo(30);
        assertThat(reading(r, StatusPvCatalog.PVA_RESTARTS).value()).isEqualTo(2);
        r = model.read(snapshot(resolver(0, 130), null, pva(0, 6), List.of(), null), 90 * sec, 0);
        assertThat(reading(r, StatusPvCatalog.REFUSED_PER_MIN).value()).isEqualTo(0);
        assertThat(reading(r, StatusPvCatalog.PVA_RESTARTS).value()).isEqualTo(2);
    }

    @Test
    void aRejectedReloadShowsItsFirstProblem() {
        ReloadResult bad = ReloadResult.rejected(3, T0, List.of(new ConfigProblem("x.conf", 4, 7,
                "resolver.cache_size", "resolver.cache_size: expected an integer")));
        Reading r = reading(model.read(snapshot(null, null, null, List.of(), bad), 0, 0), StatusPvCatalog.CONFIG_LAST_RELOAD);
        assertThat((String) r.value()).startsWith("x.conf:4:7: ").contains("expected an integer");
        ReloadResult ok = new ReloadResult(true, 4, T0, new ConfigDiff(List.of()), List.of());
        assertThat(reading(model.read(snapshot(null, null, null, List.of(), ok), 0, 0),
                StatusPvCatalog.CONFIG_LAST_RELOAD).value()).isEqualTo("OK");
    }

    @Test
    void aServiceThatIsNotRunningMakesItsPvsInvalid() {
        List<Reading> r = model.read(snapshot(null, null, null, List.of(), null), 0, 0);
        assertThat(reading(r, StatusPvCatalog.SERVERS_DEMOTED).severity()).isEqualTo(StatusPvCatalog.INVALID);
        assertThat(reading(r, StatusPvCatalog.SERVERS_DEMOTED).message()).isEqualTo("resolver not running");
        assertThat(reading(r, StatusPvCatalog.POOL_FAILOVER).severity()).isEqualTo(StatusPvCatalog.INVALID);
        assertThat(reading(r, StatusPvCatalog.PVA_CHANNELS).severity()).isEqualTo(StatusPvCatalog.INVALID);
        assertThat(reading(r, StatusPvCatalog.UPTIME).severity()).isZero();
    }
}
