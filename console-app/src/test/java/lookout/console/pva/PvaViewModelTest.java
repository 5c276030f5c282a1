package lookout.console.pva;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaCounters;
import lookout.engine.api.PvaDiscoveredServer;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.PvaTickSnapshot;
import org.junit.jupiter.api.Test;

class PvaViewModelTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final List<String> searched = new ArrayList<>();

    private final PvaViewModel vm = new PvaViewModel(new PvaViewModel.Commands() {
        @Override
        public CompletableFuture<Void> searchPv(String name) {
            searched.add(name);
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

    private static PvaDiscoveredServer server(String guid, String endpoint, PvaDiscoveredServer.Status st) {
        return new PvaDiscoveredServer(guid, endpoint, "tcp", endpoint, 2, T0, T0.plusSeconds(15), 3, 0,
                Duration.ofSeconds(15), 0, T0.plusSeconds(375), st);
    }

    private static PvaChannelSnapshot channel(String name, String state, int bucket) {
        return new PvaChannelSnapshot(name, name.hashCode(), state, 2, 3, bucket, T0.plusMillis(2500), null, null, true, false);
    }

    private static EngineSnapshot snapshot(int cursor, List<Integer> buckets, long searching, List<PvaChannelSnapshot> channels,
                                           List<PvaDiscoveredServer> servers) {
        PvaSnapshot p = new PvaSnapshot(true, 40000, 5076, cursor, buckets, 0, false, 0, null, T0.plusSeconds(1),
                channels.size(), searching, channels.size() - searching,
                new PvaTickSnapshot(T0, cursor, 4, 1, 120, 120, false), channels, false, servers, 20_000,
                List.of("127.0.0.1:5076 (unicast)"), List.of(), PvaCounters.ZERO);
        return new EngineSnapshot(EngineState.RUNNING, T0, T0, null, null, null, p, null, List.of(), List.of());
    }

    @Test
    void ringBarsFollowTheBucketsAndAddUpToTheSearchingCount() {
        List<Integer> buckets = new ArrayList<>(Collections.nCopies(30, 0));
        buckets.set(3, 2);
        buckets.set(17, 5);
        vm.onSnapshot(snapshot(3, buckets, 7, List.of(), List.of()));
        assertThat(vm.buckets()).hasSize(30);
        assertThat(vm.buckets().get(17).get()).isEqualTo(5);
        assertThat(vm.bucketMaxProperty().get()).isEqualTo(5);
        assertThat(vm.ringTotalProperty().get()).isEqualTo(vm.searchingProperty().get()).isEqualTo(7);
        assertThat(vm.cursorProperty().get()).isEqualTo(3);
        assertThat(vm.tickTextProperty().get()).isEqualTo("Last tick: bucket 3 · 4 names · 1 datagrams · 120 bytes");
    }

    @Test
    void rowsAreUpdatedInPlaceNotReplaced() {
        vm.onSnapshot(snapshot(0, Collections.nCopies(30, 0), 1, List.of(channel("a", "SEARCHING", 4)),
                List.of(server("g1", "127.0.0.1:5075", PvaDiscoveredServer.Status.ONLINE))));
        ChannelRow a = vm.channels().get(0);
        ServerRow s = vm.servers().get(0);
        assertThat(a.nextSearch()).isEqualTo("in 2.5 s");

        vm.onSnapshot(snapshot(1, Collections.nCopies(30, 0), 1,
                List.of(channel("a", "RESOLVED", -1), channel("b", "SEARCHING", 9)),
                List.of(server("g1", "127.0.0.1:5075", PvaDiscoveredServer.Status.STALE))));
        assertThat(vm.channels().get(0)).isSameAs(a);
        assertThat(a.state()).isEqualTo("RESOLVED");
        assertThat(a.bucket()).isEmpty();
        assertThat(vm.channels()).extracting(ChannelRow::name).containsExactly("a", "b");
        assertThat(vm.servers().get(0)).isSameAs(s);
        assertThat(s.status()).isEqualTo(PvaDiscoveredServer.Status.STALE);
        assertThat(vm.serverTextProperty().get()).startsWith("0 online · 1 stale · 0 offline");

        vm.onSnapshot(snapshot(2, Collections.nCopies(30, 0), 0, List.of(channel("b", "SEARCHING", 9)), List.of()));
        assertThat(vm.channels()).extracting(ChannelRow::name).containsExactly("b");
        assertThat(vm.servers()).isEmpty();
    }

    @Test
    void serverFilterMatchesGuidEndpointAndState() {
        vm.onSnapshot(snapshot(0, Collections.nCopies(30, 0), 0, List.of(), List.of(
                server("aaaa", "10.0.0.1:5075", PvaDiscoveredServer.Status.ONLINE),
                server("bbbb", "10.0.0.2:5075", PvaDiscoveredServer.Status.OFFLINE))));
        vm.serverFilterProperty().set("offline");
        assertThat(vm.visibleServers()).extracting(ServerRow::guid).containsExactly("bbbb");
        vm.serverFilterProperty().set("10.0.0.1");
        assertThat(vm.visibleServers()).extracting(ServerRow::guid).containsExactly("aaaa");
    }

    @Test
    void searchRemembersHistoryMostRecentFirstWithoutDuplicates() {
        vm.search(" ring:demo:1 ");
        vm.search("ring:demo:2");
        vm.search("ring:demo:1");
        assertThat(searched).containsExactly("ring:demo:1", "ring:demo:2", "ring:demo:1");
        assertThat(vm.searchHistory()).containsExactly("ring:demo:1", "ring:demo:2");
        vm.searchNow();
        assertThat(vm.actionMessageProperty().get()).contains("refused", "30 s");
    }

    @Test
    void theOwnServersOnDemandNamesAndItsRefusalsAreSaidWithTheTopClients() {
        lookout.engine.api.PvaServerSnapshot.OnDemand quiet = new lookout.engine.api.PvaServerSnapshot.OnDemand(5000,
                100, 1250, 90, 0, 0, 0, 0, 0, java.util.Map.of(), List.of(), List.of());
        assertThat(PvaViewModel.describeOnDemand(quiet)).isEqualTo("\nSearched for clients: 0 of 5000 unresolved, 0 resolved");
        lookout.engine.api.PvaServerSnapshot.OnDemand busy = new lookout.engine.api.PvaServerSnapshot.OnDemand(5000,
                100, 1250, 90, 1250, 3, 0, 1253, 0, java.util.Map.of("client_share", 812L), List.of("client_share"),
                List.of(new lookout.engine.api.PvaServerSnapshot.Client("udp 10.0.0.7", 1250, 1250, 812, T0)));
        assertThat(PvaViewModel.describeOnDemand(busy))
                .contains("1250 of 5000 unresolved, 3 resolved · refused 812")
                .contains("Refusing new names now (client share)")
                .contains("Top clients: udp 10.0.0.7 holds 1250, refused 812");
        assertThat(PvaViewModel.describeOnDemand(null)).isEmpty();
    }

    @Test
    void aStoppedClientIsSaidPlainly() {
        vm.onSnapshot(new EngineSnapshot(EngineState.RUNNING, T0, T0, null, null, null, null, null, List.of(), List.of()));
        assertThat(vm.status().text()).startsWith("Not running");
        assertThat(vm.cursorProperty().get()).isEqualTo(-1);
    }

    @Test
    void subnetProposalChecksItsFieldsAndHandsOverTheAddresses() {
        List<Object> proposed = new ArrayList<>();
        vm.setSubnetProposer((addrs, port) -> {
            proposed.add(addrs);
            proposed.add(port);
            return "proposed";
        });
        vm.subnetAddressesProperty().set("  ");
        vm.proposeSubnet();
        assertThat(vm.actionMessageProperty().get()).startsWith("Give at least one address");
        vm.subnetAddressesProperty().set("10.0.0.255, 10.0.1.255 10.0.2.7:5077");
        vm.subnetPortProperty().set("70000");
        vm.proposeSubnet();
        assertThat(vm.actionMessageProperty().get()).contains("1 to 65535");
        assertThat(proposed).isEmpty();
        vm.subnetPortProperty().set("5076");
        vm.proposeSubnet();
        assertThat(proposed).containsExactly(List.of("10.0.0.255", "10.0.1.255", "10.0.2.7:5077"), 5076);
        assertThat(vm.actionMessageProperty().get()).isEqualTo("proposed");
    }
}
