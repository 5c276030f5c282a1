package lookout.engine.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import lookout.engine.api.EngineEvent;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.vscf.VscfParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The monitor set in virtual time (SPEC §Weighted pools, gdnsd plugins/mon.c): one monitor per
 * (target, service type), the first probe at once and then one per interval on the scheduler's
 * clock, results through the anti-flap counters (defaults up 20, ok 10, down 10, interval 10 s),
 * TTL {@code interval × results still needed to flip}, forced states over monitored ones, live
 * reload keeping unchanged monitors.
 *
 * <p>{@link HealthMonitors} builds its own {@link Prober} on the Netty group it is given and takes
 * no fake one, so these tests use only the service types that never open a socket: gdnsd's
 * {@code null} plugin (a probe that fails every interval without I/O), {@code up}, {@code down}
 * and {@code static}; no Netty group is given at all. Passing probes against real peers are
 * {@code weighted/MonitorProbeTest}'s; the counting rules alone are {@code AntiFlapTest}'s.
 */
class HealthMonitorsTest {

    private static final long MAX_TTL = (1L << 28) - 1; // GDNSD_STTL_TTL_MAX

    private static final MonitorKey WEB1 = new MonitorKey("192.0.2.1", "probe", false);
    private static final MonitorKey WEB2 = new MonitorKey("192.0.2.2", "probe", false);

    private VirtualScheduler clock;
    private HealthMonitors monitors;
    /** Written on the loop thread only; read through {@link #onLoop}. */
    private final List<EngineEvent.MonitorStateChanged> events = new ArrayList<>();
    private int changes;

    /** Start clocks: the default, both ends of the range, and one 15 s before the clock wraps. */
    static LongStream clocks() {
        return LongStream.of(1_000_000_000_000L, Long.MIN_VALUE, -1L, Long.MAX_VALUE - 15_000_000_000L);
    }

    private void start(long startNanos) {
        clock = new VirtualScheduler(Instant.parse("2026-01-01T00:00:00Z"), startNanos);
        monitors = new HealthMonitors(clock, null, e -> {
            if (e instanceof EngineEvent.MonitorStateChanged c) {
                events.add(c);
            }
        }, () -> changes++, 64);
    }

    @AfterEach
    void close() {
        if (clock != null) {
            onLoop(() -> {
                monitors.stop();
                return null;
            });
            clock.close();
        }
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> body) {
        return clock.call(body);
    }

    private void reconcile(Map<MonitorKey, ServiceTypeConfig> wanted) {
        onLoop(() -> {
            monitors.reconcile(wanted);
            return null;
        });
    }

    private HealthMonitors.View view(MonitorKey key) {
        return onLoop(() -> monitors.views().stream().filter(v -> v.key().equals(key)).findFirst().orElseThrow());
    }

    private HealthMonitors.State state(MonitorKey key) {
        return onLoop(() -> monitors.state(key));
    }

    /** gdnsd plugin_null: every probe fails, no I/O. */
    private static ServiceTypeConfig failing(int interval, int upThresh, int okThresh, int downThresh) {
        return new ServiceTypeConfig("probe", "null", interval, interval / 2, upThresh, okThresh, downThresh, Map.of());
    }

    private static ServiceTypeConfig bind(String text) throws Exception {
        ConfigProblems problems = new ConfigProblems();
        Map<String, ServiceTypeConfig> types = ServiceTypeConfig.bindAll(VscfParser.parse(text, "service_types"), problems);
        assertThat(problems.list()).isEmpty();
        return types.get("probe");
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void theFirstProbeRunsAtOnceAndItsResultSetsTheStateDirectly(long startNanos) {
        start(startNanos);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        assertThat(state(WEB1)).as("no result yet: UP with the largest TTL")
                .isEqualTo(new HealthMonitors.State(false, MAX_TTL));

        clock.runPending();

        HealthMonitors.View v = view(WEB1);
        assertThat(v.probes()).isEqualTo(1);
        assertThat(v.initialized()).isTrue();
        assertThat(v.monitoredDown()).isTrue();
        assertThat(v.lastResult()).isEqualTo("fail");
        // DOWN: up_thresh 20 passes needed, one per 10-s interval
        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 10 * 20));
        assertThat(onLoop(() -> List.copyOf(events))).singleElement().satisfies(e -> {
            assertThat(e.target()).isEqualTo("192.0.2.1");
            assertThat(e.serviceType()).isEqualTo("probe");
            assertThat(e.from()).isEqualTo("INIT");
            assertThat(e.to()).isEqualTo("DOWN");
        });
        assertThat(onLoop(() -> changes)).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aProbeRunsOncePerIntervalOnTheSchedulerClock(long startNanos) {
        start(startNanos);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        clock.advance(Duration.ofMillis(9_999));
        assertThat(view(WEB1).probes()).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(view(WEB1).probes()).isEqualTo(2);
        clock.advance(Duration.ofSeconds(100));
        assertThat(view(WEB1).probes()).isEqualTo(12);

        assertThat(clock.nanoTime() - startNanos).isEqualTo(Duration.ofSeconds(110).toNanos());
        assertThat(onLoop(monitors::probesTotal)).isEqualTo(12);
        assertThat(onLoop(monitors::probeFailures)).isEqualTo(12);
        assertThat(onLoop(monitors::probesSkipped)).isZero();
    }

    @Test
    void probesKeepTheirIntervalAcrossTheWrapOfTheClock() {
        long startNanos = Long.MAX_VALUE - 15_000_000_000L;
        start(startNanos);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        clock.advance(Duration.ofSeconds(30)); // probes due at +10 s, +20 s (past the wrap), +30 s

        assertThat(clock.nanoTime()).isEqualTo(startNanos + 30_000_000_000L).isNegative();
        assertThat(view(WEB1).probes()).isEqualTo(4);
    }

    @Test
    void onlyAChangeOfTheEffectiveStateIsPublished() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        clock.advance(Duration.ofSeconds(50)); // five more failures: still DOWN, TTL unchanged

        assertThat(view(WEB1).probes()).isEqualTo(6);
        assertThat(onLoop(() -> changes)).isEqualTo(1);
        assertThat(onLoop(events::size)).isEqualTo(1);
    }

    @Test
    void theTtlIsTheIntervalTimesTheResultsStillNeededToFlip() {
        start(0);
        reconcile(Map.of(WEB1, failing(4, 3, 2, 2)));
        clock.runPending();
        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 4 * 3));

        clock.advance(Duration.ofSeconds(8));

        // every failure resets the passes counted towards up_thresh: still 3 needed
        assertThat(view(WEB1).successes()).isZero();
        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 4 * 3));
    }

    @Test
    void gdnsdDefaultsAreUp20Ok10Down10EveryTenSecondsWithHalfTheIntervalToAnswer() throws Exception {
        ServiceTypeConfig t = bind("probe => { plugin => null }");
        assertThat(List.of(t.upThresh(), t.okThresh(), t.downThresh(), t.interval(), t.timeout()))
                .containsExactly(20, 10, 10, 10, 5);
        start(0);
        reconcile(Map.of(WEB1, t));
        clock.runPending();

        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 10 * 20));
        clock.advance(Duration.ofSeconds(10));
        assertThat(view(WEB1).probes()).isEqualTo(2);
    }

    @Test
    void configuredThresholdsAndIntervalAreTheOnesUsed() throws Exception {
        ServiceTypeConfig t = bind("probe => { plugin => null, interval => 3, up_thresh => 7, ok_thresh => 2, down_thresh => 4 }");
        start(0);
        reconcile(Map.of(WEB1, t));
        clock.runPending();

        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 3 * 7));
        clock.advance(Duration.ofSeconds(9));
        assertThat(view(WEB1).probes()).isEqualTo(4);
    }

    @Test
    void thereIsOneMonitorPerTargetAndServiceType() {
        start(0);
        ServiceTypeConfig probe = failing(10, 20, 10, 10);
        ServiceTypeConfig other = new ServiceTypeConfig("other", "null", 10, 5, 20, 10, 10, Map.of());
        MonitorKey web1Other = new MonitorKey("192.0.2.1", "other", false);
        MonitorKey cname = new MonitorKey("lb01.example.org.", "probe", true);
        Map<MonitorKey, ServiceTypeConfig> wanted = new LinkedHashMap<>();
        wanted.put(WEB1, probe);
        wanted.put(web1Other, other);
        wanted.put(WEB2, probe);
        wanted.put(cname, probe);

        reconcile(wanted);
        clock.runPending();

        assertThat(onLoop(monitors::names))
                .containsExactlyInAnyOrder("192.0.2.1/probe", "192.0.2.1/other", "192.0.2.2/probe", "lb01.example.org./probe");
        assertThat(onLoop(monitors::views)).extracting(HealthMonitors.View::probes).containsOnly(1L);
        assertThat(onLoop(monitors::probesTotal)).isEqualTo(4);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void aMonitorStillWantedAfterAReloadKeepsItsStateCountersAndTimer(long startNanos) {
        start(startNanos);
        ServiceTypeConfig probe = failing(10, 20, 10, 10);
        reconcile(Map.of(WEB1, probe));
        clock.runPending();
        clock.advance(Duration.ofSeconds(5));

        // a reload: another resource now uses WEB2 as well, WEB1 is unchanged
        reconcile(Map.of(WEB1, probe, WEB2, probe));
        clock.runPending();
        assertThat(view(WEB1).probes()).as("not restarted").isEqualTo(1);
        assertThat(view(WEB2).probes()).as("new: probed at once").isEqualTo(1);

        clock.advance(Duration.ofSeconds(5));
        assertThat(view(WEB1).probes()).as("still due 10 s after its first probe").isEqualTo(2);
        assertThat(view(WEB2).probes()).isEqualTo(1);
        assertThat(onLoop(() -> events.stream().filter(e -> e.from().equals("INIT")).count())).isEqualTo(2);
    }

    @Test
    void aChangedServiceTypeDefinitionStartsTheMonitorFresh() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();
        clock.advance(Duration.ofSeconds(20));
        assertThat(view(WEB1).probes()).isEqualTo(3);

        reconcile(Map.of(WEB1, failing(20, 20, 10, 10)));
        assertThat(view(WEB1).probes()).as("a new monitor").isZero();
        clock.runPending();

        assertThat(view(WEB1).probes()).isEqualTo(1);
        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 20 * 20));
        assertThat(onLoop(() -> events.stream().filter(e -> e.from().equals("INIT")).count())).isEqualTo(2);
        clock.advance(Duration.ofSeconds(19));
        assertThat(view(WEB1).probes()).as("the old 10-s timer is gone").isEqualTo(1);
    }

    @Test
    void aMonitorNoLongerWantedStopsAndIsForgotten() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        reconcile(Map.of());
        clock.advance(Duration.ofSeconds(100));

        assertThat(onLoop(monitors::views)).isEmpty();
        assertThat(onLoop(monitors::probesTotal)).isEqualTo(1);
        assertThat(clock.pendingTimers()).isZero();
        assertThat(state(WEB1)).as("unknown: UP with the largest TTL").isEqualTo(new HealthMonitors.State(false, MAX_TTL));
    }

    @Test
    void builtInAndStaticTypesNeverProbe() throws Exception {
        start(0);
        ServiceTypeConfig staticDown = bind("probe => { plugin => static, state => down, ttl => 42 }");
        ServiceTypeConfig staticUp = new ServiceTypeConfig("su", "static", 10, 5, 20, 10, 10, Map.of("state", "up", "ttl", "7"));
        MonitorKey up = new MonitorKey("192.0.2.1", "up", false);
        MonitorKey down = new MonitorKey("192.0.2.2", "down", false);
        MonitorKey sd = new MonitorKey("192.0.2.3", "probe", false);
        MonitorKey su = new MonitorKey("lb01.example.org.", "su", true);
        reconcile(Map.of(up, ServiceTypeConfig.up(), down, ServiceTypeConfig.down(), sd, staticDown, su, staticUp));

        clock.advance(Duration.ofSeconds(60));

        assertThat(state(up)).isEqualTo(new HealthMonitors.State(false, MAX_TTL));
        assertThat(state(down)).isEqualTo(new HealthMonitors.State(true, MAX_TTL));
        assertThat(state(sd)).isEqualTo(new HealthMonitors.State(true, 42));
        assertThat(state(su)).isEqualTo(new HealthMonitors.State(false, 7));
        assertThat(onLoop(monitors::probesTotal)).isZero();
        assertThat(clock.pendingTimers()).isZero();
        assertThat(onLoop(monitors::views)).allSatisfy(v -> assertThat(v.initialized()).isTrue());
    }

    @Test
    void aForcedStateOverridesTheMonitoredOneUntilReleased() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10), WEB2, failing(10, 20, 10, 10)));
        clock.runPending();
        AdminState.Entry forcedUp = new AdminState.Entry("192.0.2.1/*", false, 30L);

        assertThat(onLoop(() -> monitors.applyForced(Map.of("192.0.2.1/probe", forcedUp)))).isTrue();

        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(false, 30));
        assertThat(view(WEB1).monitoredDown()).as("the monitored state is kept apart").isTrue();
        assertThat(view(WEB1).forced()).isEqualTo(forcedUp);
        assertThat(state(WEB2)).as("not matched").isEqualTo(new HealthMonitors.State(true, 200));
        assertThat(onLoop(() -> monitors.applyForced(Map.of("192.0.2.1/probe", forcedUp)))).as("no change").isFalse();

        clock.advance(Duration.ofSeconds(30));
        assertThat(state(WEB1)).as("probes go on under a forced state").isEqualTo(new HealthMonitors.State(false, 30));
        assertThat(view(WEB1).probes()).isEqualTo(4);

        assertThat(onLoop(() -> monitors.applyForced(Map.of()))).isTrue();
        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(true, 200));
    }

    @Test
    void aForcedStateWithoutTtlCarriesTheLargestTtl() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        onLoop(() -> monitors.applyForced(Map.of("192.0.2.1/probe", new AdminState.Entry("*", false, null))));

        assertThat(state(WEB1)).isEqualTo(new HealthMonitors.State(false, MAX_TTL));
    }

    @Test
    void forcingTheStateAndTtlAMonitorAlreadyHasChangesNothing() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10)));
        clock.runPending();

        assertThat(onLoop(() -> monitors.applyForced(Map.of("192.0.2.1/probe", new AdminState.Entry("*", true, 200L)))))
                .isFalse();
        assertThat(view(WEB1).forced()).isNotNull();
    }

    @Test
    void stopCancelsEveryTimer() {
        start(0);
        reconcile(Map.of(WEB1, failing(10, 20, 10, 10), WEB2, failing(10, 20, 10, 10)));
        clock.runPending();
        assertThat(clock.pendingTimers()).isEqualTo(2);

        onLoop(() -> {
            monitors.stop();
            return null;
        });
        clock.advance(Duration.ofSeconds(60));

        assertThat(clock.pendingTimers()).isZero();
        assertThat(onLoop(monitors::probesTotal)).isEqualTo(2);
    }
}
