package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18's acceptance, black-box against a whole engine (client, server, port owner) in virtual
 * time, its searches and its clients on loopback: bounded on-demand names under a flood, a second
 * client's share, continuity of a name asked steadily, and "Stop searching" stops. The engine's
 * client searches a sink socket (a silent PVA "subnet"), so that nothing ever answers the
 * flooded names.
 */
class GoodNeighbourTest {

    /** seed 002 §3.2: a channel's searches in its first 40 s — at 0, ~1, 2, 4, 7, 11, 16, 22, 29, 37 s. */
    static final int SEARCHES_IN_40_S = 10;

    VirtualScheduler clock;
    Engine engine;
    int udp;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
        if (clock != null) {
            clock.close();
        }
    }

    /** An engine with its server on a free port, its client searching {@code destination} (0: the server's own port). */
    void start(int destination, String serverExtra) throws Exception {
        udp = freeUdpPort();
        String text = """
                resolver => { listen => [ 127.0.0.1:0 ] }
                pva => {
                  addr_list => [ 127.0.0.1%s ]
                  auto_addr_list => false
                  beacon_addr_list => [ ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                  server => { enable => true, name_server => false %s }
                }
                """.formatted(destination == 0 ? "" : ":" + destination, udp, freeTcpPort(), serverExtra);
        Path dir = Files.createTempDirectory("lookout-neighbour");
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "neighbour.conf", dir);
        assertThat(r.problems()).isEmpty();
        clock = new VirtualScheduler();
        engine = Engines.create(EngineOptions.forTest(clock, new Random(7), dir).withPvaForwarding(false));
        engine.start(r.config());
    }

    PvaServerSnapshot server() {
        return engine.snapshot().pvaServer();
    }

    InetSocketAddress responder() {
        return new InetSocketAddress("127.0.0.1", udp);
    }

    /** Sends {@code names} in datagrams of 50 and waits until the responder has read them all. */
    void ask(RawPva client, List<String> names) throws Exception {
        long before = server().namesSearched();
        for (int i = 0; i < names.size(); i += 50) {
            List<String> part = names.subList(i, Math.min(names.size(), i + 50));
            client.send(RawPva.bytes(RawPva.search(1, 0, null, client.port(), part.toArray(String[]::new))),
                    responder());
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> server().namesSearched() >= before + names.size());
        clock.runPending(); // the admitted names reach the client
    }

    static List<String> names(String prefix, int from, int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = from; i < from + n; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    long searchNames() {
        return engine.snapshot().pva().counters().searchNames();
    }

    @Test
    void aFloodOfNamesCreatesAtMostTheAllowanceAndItsSearchesAndASecondClientKeepsItsShare() throws Exception {
        try (DatagramSocket sink = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             RawPva flooder = new RawPva(new InetSocketAddress("127.0.0.1", 0));
             RawPva second = new RawPva(new InetSocketAddress("127.0.0.2", 0))) {
            start(sink.getLocalPort(), "");
            PvaServerSnapshot.OnDemand limits = server().onDemand();
            assertThat(limits.limit()).isEqualTo(5000);
            assertThat(limits.perSecond()).isEqualTo(100);
            assertThat(limits.perClient()).isEqualTo(1250);
            assertThat(limits.holdSeconds()).isEqualTo(90);
            // 20 000 never-existing names from one client over 20 s
            for (int s = 0; s < 20; s++) {
                ask(flooder, names("flood:", s * 1000, 1000));
                if (s == 5) {
                    // a second client asks for 20 names in the middle of the flood: all are admitted
                    ask(second, names("second:", 0, 20));
                    PvaServerSnapshot.OnDemand od = server().onDemand();
                    assertThat(od.topClients()).anySatisfy(c -> {
                        assertThat(c.client()).isEqualTo("udp 127.0.0.2");
                        assertThat(c.unresolved()).isEqualTo(20);
                        assertThat(c.refused()).isZero();
                    });
                    assertThat(engine.snapshot().pva().channels()).filteredOn(c -> c.name().startsWith("second:"))
                            .hasSize(20);
                }
                clock.advance(Duration.ofSeconds(1));
            }
            PvaServerSnapshot.OnDemand od = server().onDemand();
            long channels = engine.snapshot().pva().channelCount();
            assertThat(od.unresolved()).isEqualTo((int) channels);
            assertThat(channels).isLessThanOrEqualTo(5000);
            // the flooder alone: its share of the allowance, and of the admissions per second
            assertThat(od.topClients().get(0).client()).isEqualTo("udp 127.0.0.1");
            assertThat(od.topClients().get(0).unresolved()).isLessThanOrEqualTo(1250);
            assertThat(od.refusedTotal()).isGreaterThan(15_000);
            assertThat(od.refused().get("client_rate")).isPositive();
            assertThat(od.refusing()).contains("client_rate");
            assertThat(engine.snapshot().pva().channels()).filteredOn(c -> c.name().startsWith("second:")).hasSize(20);
            // told, folded: one WARNING about it, not one per name
            // the searches of the next 40 s are bounded by the allowance times the ring's schedule
            long before = searchNames();
            clock.advance(Duration.ofSeconds(40));
            long sent = searchNames() - before;
            assertThat(sent).isLessThanOrEqualTo(5000L * SEARCHES_IN_40_S);
            assertThat(sent).isLessThanOrEqualTo(channels * SEARCHES_IN_40_S);
            assertThat(sent).isPositive();
        }
    }

    @Test
    void refusalsAreToldOnceAndFolded() throws Exception {
        List<lookout.engine.api.EngineEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (DatagramSocket sink = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             RawPva flooder = new RawPva(new InetSocketAddress("127.0.0.1", 0))) {
            start(sink.getLocalPort(), ", on_demand_limit => 100, on_demand_rate => 1000");
            try (AutoCloseable sub = engine.subscribe(events::add)) {
                for (int s = 0; s < 5; s++) {
                    ask(flooder, names("flood:", s * 500, 500));
                    clock.advance(Duration.ofSeconds(1));
                }
                clock.advance(Duration.ofSeconds(2));
            }
            PvaServerSnapshot.OnDemand od = server().onDemand();
            assertThat(od.unresolved()).isLessThanOrEqualTo(100);
            assertThat(od.refused().get("client_share")).isPositive();
            List<String> warnings = events.stream().filter(e -> e.severity() == lookout.engine.api.Severity.WARNING)
                    .map(lookout.engine.api.EngineEvent::message).filter(m -> m.contains("on-demand")).toList();
            // one line per reason that started refusing, not one per name nor per second
            assertThat(warnings).isNotEmpty().hasSizeLessThanOrEqualTo(3);
            assertThat(warnings).anySatisfy(m -> assertThat(m).contains("udp 127.0.0.1")
                    .contains("pva.server.on_demand_per_client").doesNotContain("Exception"));
        }
    }

    @Test
    void aNameAskedEvery35sKeepsItsChannelAndIsSearchedAtTheSteadyRate() throws Exception {
        try (DatagramSocket sink = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             RawPva client = new RawPva(new InetSocketAddress("127.0.0.1", 0))) {
            start(sink.getLocalPort(), "");
            int cid = -1;
            for (int t = 0; t <= 140; t += 35) {
                ask(client, List.of("steady:pv"));
                PvaChannelSnapshot c = channel("steady:pv");
                assertThat(c).as("channel at %d s", t).isNotNull();
                if (cid >= 0) {
                    assertThat(c.cid()).as("the same channel at %d s", t).isEqualTo(cid);
                }
                cid = c.cid();
                if (t < 140) {
                    clock.advance(Duration.ofSeconds(35));
                }
            }
            // §3.2: 0, ~1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56, 67, 79, 92, 106, 121, 137 s — ~18;
            // a channel recreated every time it had been dropped was searched 33 times
            assertThat(channel("steady:pv").searches()).isLessThanOrEqualTo(22).isGreaterThan(12);
            assertThat(server().onDemand().admitted()).isEqualTo(1);
            // nobody asks for 90 s: let go
            clock.advance(Duration.ofSeconds(101));
            assertThat(channel("steady:pv")).isNull();
            assertThat(server().onDemand().released()).isEqualTo(1);
        }
    }

    @Test
    void stopSearchingStopsTheEnginesOwnSearchesNeverMakeItSearch() throws Exception {
        // the embedded default's shape: the client searches the engine's own server
        start(0, "");
        engine.searchPv("op:stopme").get();
        clock.advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> server().ownSearches() >= 5);
        assertThat(server().onDemand().admitted()).isZero();
        assertThat(server().onDemand().unresolved()).isZero();
        engine.dropPv("op:stopme").get();
        clock.runPending();
        Thread.sleep(200); // anything sent before the drop has arrived
        long searched = server().namesSearched();
        long sent = searchNames();
        clock.advance(Duration.ofSeconds(60));
        Thread.sleep(200);
        // no search of the name for 60 s after: none sent, none received
        assertThat(searchNames()).isEqualTo(sent);
        assertThat(server().namesSearched()).isEqualTo(searched);
        assertThat(channel("op:stopme")).isNull();
        assertThat(server().onDemand().admitted()).isZero();
    }

    PvaChannelSnapshot channel(String name) {
        EngineSnapshot s = engine.snapshot();
        return s.pva().channels().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }

    static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A search with MustReply from {@code client}: the first reply, or null. */
    static SearchResponse mustReply(RawPva client, InetSocketAddress to, String name) throws Exception {
        client.send(RawPva.bytes(new SearchRequest(Pva.SEARCH_SEQUENCE_FIND, Pva.SEARCH_MUST_REPLY, WireAddress.ANY_ZERO,
                client.port(), List.of("tcp"), List.of(new SearchRequest.Name(77, name)))), to);
        return client.reply(2000);
    }
}
