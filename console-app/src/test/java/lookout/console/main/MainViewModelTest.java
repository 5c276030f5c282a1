package lookout.console.main;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import lookout.console.widgets.Indicator.Level;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.config.ConfigDiff;
import lookout.engine.config.ConfigProblem;
import org.junit.jupiter.api.Test;

class MainViewModelTest {

    private static EngineSnapshot snapshot(long version, ReloadResult last, ResolverSnapshot resolver) {
        ConfigStatus cs = new ConfigStatus(version, "0123456789abcdef".repeat(4), "<embedded default>",
                Instant.EPOCH, "", last);
        return new EngineSnapshot(EngineState.RUNNING, Instant.EPOCH, Instant.EPOCH, cs, resolver, null, null, null,
                List.of(), List.of());
    }

    @Test
    void statusBarShowsVersionAndReload() {
        MainViewModel vm = new MainViewModel();
        vm.onSnapshot(snapshot(3, new ReloadResult(true, 3, Instant.EPOCH, new ConfigDiff(List.of()), List.of()), null), 1_000_000_000L);
        assertThat(vm.engineState().text()).isEqualTo("Engine: RUNNING");
        assertThat(vm.engineState().level()).isEqualTo(Level.NORMAL);
        assertThat(vm.configVersion().text()).isEqualTo("Configuration: version 3 (0123456789ab)");
        assertThat(vm.lastReload().text()).isEqualTo("Last reload: version 3 applied");
        assertThat(vm.lastReload().level()).isEqualTo(Level.NORMAL);
    }

    @Test
    void aRejectedReloadIsAbnormalAndNamesTheFirstError() {
        MainViewModel vm = new MainViewModel();
        vm.onSnapshot(snapshot(2, ReloadResult.rejected(2, Instant.EPOCH,
                List.of(new ConfigProblem("f.conf", 4, 9, "pva.addr_list", "expected an address"))), null), 1L);
        assertThat(vm.lastReload().level()).isEqualTo(Level.ADVISORY);
        assertThat(vm.lastReload().text()).contains("REJECTED (1 error)", "f.conf:4:9: expected an address");
        assertThat(vm.configSummary().level()).isEqualTo(Level.ADVISORY);
    }

    @Test
    void servicesNotRunningAreSaidPlainly() {
        MainViewModel vm = new MainViewModel();
        vm.onSnapshot(snapshot(1, null, null), 1L);
        assertThat(vm.resolverSummary().text()).isEqualTo("Resolver: not running");
        assertThat(vm.poolsSummary().text()).isEqualTo("Pools: not running");
        assertThat(vm.poolsSummary().level()).isEqualTo(Level.INACTIVE);
    }

    @Test
    void dataAgeTurnsStaleAfterTwoSeconds() {
        MainViewModel vm = new MainViewModel();
        long t0 = 5_000_000_000L;
        vm.onSnapshot(snapshot(1, null, null), t0);
        vm.tick(t0 + 300_000_000L);
        assertThat(vm.dataAge().text()).isEqualTo("Data: 300 ms old");
        assertThat(vm.dataAge().level()).isEqualTo(Level.NORMAL);
        vm.tick(t0 + 2_500_000_000L);
        assertThat(vm.dataAge().text()).isEqualTo("Data: STALE, 2.5 s old");
        assertThat(vm.dataAge().level()).isEqualTo(Level.ADVISORY);
    }

    @Test
    void anEngineThatNeverStartedKeepsSayingWhyUntilItRuns() {
        MainViewModel vm = new MainViewModel();
        vm.engineNotRunning("the configuration has 2 errors");
        vm.onSnapshot(new EngineSnapshot(EngineState.NEW, Instant.EPOCH, null, null, null, null, null, null,
                List.of(), List.of()), 1L);
        assertThat(vm.engineState().text()).isEqualTo("Engine: NOT RUNNING — the configuration has 2 errors");
        assertThat(vm.engineState().level()).isEqualTo(Level.ALARM);
        vm.onSnapshot(snapshot(1, null, null), 2L);
        assertThat(vm.engineState().text()).isEqualTo("Engine: RUNNING");
        assertThat(vm.configSummary().level()).isEqualTo(Level.NORMAL);
    }
}
