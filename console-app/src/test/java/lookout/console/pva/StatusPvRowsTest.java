package lookout.console.pva;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.StatusPvsSnapshot;
import org.junit.jupiter.api.Test;

/** The PVA pane's list of the engine's own status PVs: rows kept in place, alarms in words. */
class StatusPvRowsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final PvaViewModel vm = new PvaViewModel(new PvaViewModel.Commands() {
        @Override
        public CompletableFuture<Void> searchPv(String name) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> dropPv(String name) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Boolean> searchNow() {
            return CompletableFuture.completedFuture(false);
        }

        @Override
        public CompletableFuture<Void> discoveryPing() {
            return CompletableFuture.completedFuture(null);
        }
    });

    private static EngineSnapshot snapshot(StatusPvsSnapshot pvs) {
        return new EngineSnapshot(EngineState.RUNNING, T0, T0, null, null, null, null, null, List.of(), List.of(), pvs);
    }

    private static StatusPvsSnapshot pvs(String severity, String message, int monitors) {
        return new StatusPvsSnapshot("LOOKOUT:demo:", true, null, 1, 3, monitors, 120, 0, 0, 0, List.of(
                new StatusPvsSnapshot.Pv("LOOKOUT:demo:config:version", "NTScalar int", "1", "NO_ALARM", "", "", 0),
                new StatusPvsSnapshot.Pv("LOOKOUT:demo:resolver:servers_demoted", "NTScalar int", "1", severity, message,
                        "MINOR when any server is demoted, MAJOR when every server of a scope is", monitors)));
    }

    @Test
    void thePublishedPvsAreListedWithTheirAlarmsAndUpdatedInPlace() {
        vm.onSnapshot(snapshot(pvs("MAJOR", "every server of scope corp demoted", 2)));
        assertThat(vm.statusPvs()).extracting(StatusPvRow::name)
                .containsExactly("LOOKOUT:demo:config:version", "LOOKOUT:demo:resolver:servers_demoted");
        StatusPvRow row = vm.statusPvs().get(1);
        assertThat(row.alarm()).isEqualTo("MAJOR: every server of scope corp demoted");
        assertThat(vm.statusPvTextProperty().get())
                .isEqualTo("2 status PVs under LOOKOUT:demo: · 1 client connection, 2 monitors · 120 updates sent");
        vm.onSnapshot(snapshot(pvs("NO_ALARM", "", 1)));
        assertThat(vm.statusPvs().get(1)).isSameAs(row);
        assertThat(row.alarm()).isEqualTo("NO_ALARM");
    }

    @Test
    void withoutAPrefixThePaneSaysHowToPublish() {
        vm.onSnapshot(snapshot(null));
        assertThat(vm.statusPvs()).isEmpty();
        assertThat(vm.statusPvTextProperty().get()).contains("pv_prefix");
    }
}
