package lookout.console.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;
import org.junit.jupiter.api.Test;

class ResolverViewModelTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final ResolverViewModel vm = new ResolverViewModel((n, t) -> CompletableFuture.completedFuture(
            new ResolveTrace(n, t, "console", T0, List.of(n), List.of(new ResolveTrace.Attempt(n, "192.0.2.53:53", "udp",
                    "timeout", Duration.ZERO, Duration.ofSeconds(2), true, true)), "none", "SERVFAIL", "unavailable",
                    List.of(), Duration.ofSeconds(2), "")));

    private static EngineSnapshot snapshot(Instant at, int inFlight, long sent, ResolverSnapshot.Server... servers) {
        return snapshotWithTimes(at, inFlight, sent, null, null, servers);
    }

    private static EngineSnapshot snapshotWithTimes(Instant at, int inFlight, long sent, Instant lastOk, Instant lastFail,
                                           ResolverSnapshot.Server... servers) {
        ResolverSnapshot r = new ResolverSnapshot(List.of("127.0.0.1:8053"), 10, 2, 1, 100, 0, sent, 0,
                Map.of("timeout", 1L), 0, 1, 1, 0, 0, inFlight, 4096, 1.0,
                List.of(new ResolverSnapshot.Scope("corp", List.of("corp.example."), true, false, List.of(servers))),
                List.of(new ResolverSnapshot.Upstream("192.0.2.53:53", sent, 1, 0, null, null, lastOk, lastFail)), List.of());
        return new EngineSnapshot(EngineState.RUNNING, at, T0, null, r, null, null, null, List.of(), List.of());
    }

    @Test
    void theDetailLineSaysHowManyUdpSocketsHowTheyAreReadAndWhatWasAnsweredOffTheEngineLoop() {
        EngineSnapshot one = snapshot(T0, 0, 1);
        vm.onSnapshot(one);
        assertThat(vm.detailProperty().get()).doesNotContain("UDP sockets");
        EngineSnapshot three = new EngineSnapshot(EngineState.RUNNING, T0, T0, null, one.resolver(), null, null, null,
                List.of(lookout.engine.api.Metric.gauge("lookout_resolver_udp_threads", "", 3),
                        lookout.engine.api.Metric.counter("lookout_resolver_answer_loop_answers_total", "", 1234)), List.of());
        vm.onSnapshot(three);
        assertThat(vm.detailProperty().get()).endsWith(" · 3 UDP sockets per address, through Netty, 1234 local answers on answer loops");
        EngineSnapshot readNatively = new EngineSnapshot(EngineState.RUNNING, T0, T0, null, one.resolver(), null, null, null,
                List.of(lookout.engine.api.Metric.gauge("lookout_resolver_udp_threads", "", 2),
                        lookout.engine.api.Metric.gauge("lookout_resolver_udp_native", "", 1),
                        lookout.engine.api.Metric.counter("lookout_resolver_answer_loop_answers_total", "", 77),
                        lookout.engine.api.Metric.counter("lookout_resolver_udp_send_errors_total", "", 3)), List.of());
        vm.onSnapshot(readNatively);
        assertThat(vm.detailProperty().get()).endsWith(
                " · 2 UDP sockets per address, read natively, 77 local answers by the readers, 3 answers the kernel would not send");
    }

    @Test
    void aDemotedServerShowsItsCountdownAndReasonThenClears() {
        vm.onEvents(List.of(new EngineEvent.UpstreamDemoted(T0, "192.0.2.53:53", "timeout", T0.plusSeconds(30), false)));
        vm.onSnapshot(snapshot(T0, 0, 1, new ResolverSnapshot.Server("192.0.2.53:53", true, T0.plusSeconds(30), Duration.ofMillis(29_500))));
        UpstreamRow row = vm.servers().get(0);
        assertThat(row.scope()).isEqualTo("corp (default)");
        assertThat(row.stateText()).isEqualTo("DEMOTED 29.5 s (no answer in time)");

        vm.onSnapshot(snapshot(T0.plusSeconds(30), 0, 1, new ResolverSnapshot.Server("192.0.2.53:53", false, null, Duration.ZERO)));
        assertThat(vm.servers().get(0)).isSameAs(row);
        // issue 17 item 7: its mark is gone, but it has never answered: not "OK"
        assertThat(row.stateText()).isEqualTo("no answer yet");
        vm.onSnapshot(snapshotWithTimes(T0.plusSeconds(31), 0, 2, T0.plusSeconds(31), null,
                new ResolverSnapshot.Server("192.0.2.53:53", false, null, Duration.ZERO)));
        assertThat(row.stateText()).isEqualTo("OK");
        assertThat(row.markLeft()).isZero();
    }

    /** Issue 17 item 11: the local zones, with their records and SOA serials. */
    @Test
    void theLocalZonesAreListed() {
        ResolverSnapshot base = snapshot(T0, 0, 1).resolver();
        ResolverSnapshot r = new ResolverSnapshot(base.listen(), 0, 0, 0, 100, 0, 0, 0, Map.of(), 0, 0, 0, 0, 0, 0, 4096, 0,
                List.of(), List.of(), List.of(), -1, -1, 0, 0, 0, 0, List.of(new ResolverSnapshot.Zone("example.test.", 5, 0, 1),
                        new ResolverSnapshot.Zone("lookout.test.", 6, 2, 2026112901L), new ResolverSnapshot.Zone("x.test.", 1, 0, -1)));
        vm.onSnapshot(new EngineSnapshot(EngineState.RUNNING, T0, T0, null, r, null, null, null, List.of(), List.of()));
        assertThat(vm.zones()).containsExactly(new ResolverViewModel.ZoneRow("example.test.", "5", "1"),
                new ResolverViewModel.ZoneRow("lookout.test.", "6 (2 pools)", "2026112901"),
                new ResolverViewModel.ZoneRow("x.test.", "1", "no SOA"));
    }

    @Test
    void inFlightKeepsItsHighWaterMark() {
        vm.onSnapshot(snapshot(T0, 300, 1));
        vm.onSnapshot(snapshot(T0.plusSeconds(1), 12, 1));
        assertThat(vm.inFlightTextProperty().get()).isEqualTo("In flight 12 / 4096 · high-water 300 · refused 0");
        assertThat(vm.inFlightFractionProperty().get()).isEqualTo(12 / 4096.0);
    }

    @Test
    void sendRateFromCounterDeltas() {
        vm.onSnapshot(snapshot(T0, 0, 100, new ResolverSnapshot.Server("192.0.2.53:53", false, null, Duration.ZERO)));
        vm.onSnapshot(snapshot(T0.plusMillis(500), 0, 110, new ResolverSnapshot.Server("192.0.2.53:53", false, null, Duration.ZERO)));
        assertThat(vm.servers().get(0).perSecond.get()).isEqualTo(20.0);
    }

    @Test
    void theResolveBoxShowsEachAttempt() {
        vm.resolve("www.corp.example", "A");
        assertThat(vm.traceProperty().get()).startsWith("www.corp.example A → SERVFAIL (unavailable, from none, 2000.0 ms)")
                .contains("1. www.corp.example via 192.0.2.53:53/udp at +0.0 ms: timeout (2000.0 ms) [demoted]");
    }

    @Test
    void noResolverIsSaidPlainly() {
        vm.onSnapshot(new EngineSnapshot(EngineState.RUNNING, T0, T0, null, null, null, null, null, List.of(), List.of()));
        assertThat(vm.status().text()).startsWith("Not running");
        assertThat(vm.servers()).isEmpty();
    }

    @Test
    void lastSuccessAndFailureSayHowLongAgoInEngineTime() {
        ResolverSnapshot.Server ok = new ResolverSnapshot.Server("192.0.2.53:53", false, null, Duration.ZERO);
        vm.onSnapshot(snapshotWithTimes(T0.plusSeconds(10), 0, 1, null, null, ok));
        UpstreamRow row = vm.servers().get(0);
        assertThat(row.lastSuccess.get()).isEqualTo("—");
        assertThat(row.lastFailure.get()).isEqualTo("—");

        vm.onSnapshot(snapshotWithTimes(T0.plusSeconds(600), 0, 2, T0.plusSeconds(596), T0.plusSeconds(10), ok));
        assertThat(vm.servers().get(0)).isSameAs(row);
        assertThat(row.lastSuccess.get()).isEqualTo("4 s ago");
        assertThat(row.lastFailure.get()).isEqualTo("9 min ago");
        assertThat(ResolverViewModel.ago(T0.plusSeconds(3 * 3600 + 5), T0)).isEqualTo("3 h ago");
    }
}
