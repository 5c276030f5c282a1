package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The UDP search responder on loopback with real sockets (forwarding off: no multicast here). */
class UdpResponderTest {

    static final String REAL_GUID = "0102030405060708090a0b0c";
    final FakeResolved resolved = new FakeResolved();
    ServerHarness h;

    @AfterEach
    void tearDown() {
        if (h != null) {
            h.close();
        }
    }

    private ServerHarness start(List<PvaAddress> ignore) {
        h = new ServerHarness(resolved, false).start(ServerHarness.pva(0, 0, List.of(), ignore, true));
        return h;
    }

    @Test
    void discoveryPingGetsFoundFalseWithZeroNames() throws Exception {
        start(List.of());
        try (RawPva c = new RawPva()) {
            c.send(RawPva.bytes(SearchRequest.discoveryPing(c.port())), h.udp());
            SearchResponse r = c.reply(2000);
            assertThat(r).isNotNull();
            assertThat(r.found()).isFalse();
            assertThat(r.cids()).isEmpty();
            assertThat(r.sequenceId()).isEqualTo(Pva.SEARCH_SEQUENCE_FIND);
            assertThat(r.guid().toString()).isEqualTo(h.serverSnapshot().guid());
        }
        assertThat(h.serverSnapshot().discoveryReplies()).isEqualTo(1);
    }

    @Test
    void unclaimedSearchWithoutMustReplyGetsNothingButIsWanted() throws Exception {
        start(List.of());
        try (RawPva c = new RawPva()) {
            c.send(RawPva.bytes(RawPva.search(7, 0, null, c.port(), "nobody:has:this")), h.udp());
            assertThat(c.reply(500)).isNull();
            // the same with MustReply: a negative answer
            c.send(RawPva.bytes(RawPva.search(8, Pva.SEARCH_MUST_REPLY, null, c.port(), "nobody:has:this")), h.udp());
            SearchResponse r = c.reply(2000);
            assertThat(r).isNotNull();
            assertThat(r.found()).isFalse();
            assertThat(r.sequenceId()).isEqualTo(8);
        }
        assertThat(resolved.wanted).contains("nobody:has:this");
        assertThat(h.serverSnapshot().namesClaimed()).isZero();
    }

    @Test
    void resolvedNameIsClaimedWithTheRealServersEndpointAndGuid() throws Exception {
        start(List.of());
        InetSocketAddress real = new InetSocketAddress("127.0.0.9", 5999);
        resolved.resolve("demo:pv", REAL_GUID, real);
        try (RawPva c = new RawPva()) {
            c.send(RawPva.bytes(RawPva.search(9, 0, null, c.port(), "other", "demo:pv")), h.udp());
            SearchResponse r = c.reply(2000);
            assertThat(r).isNotNull();
            assertThat(r.found()).isTrue();
            assertThat(r.cids()).containsExactly(101);
            assertThat(r.serverAddress()).isEqualTo(InetAddress.getByName("127.0.0.9"));
            assertThat(r.serverPort()).isEqualTo(5999);
            assertThat(r.guid().toString()).isEqualTo(REAL_GUID);
            assertThat(r.sequenceId()).isEqualTo(9);
        }
        PvaServerSnapshot s = h.serverSnapshot();
        assertThat(s.namesClaimed()).isEqualTo(1);
        assertThat(s.repliesSent()).isEqualTo(1);
        assertThat(s.topNames()).extracting(PvaServerSnapshot.SearchedName::name).contains("demo:pv", "other");
        assertThat(s.topNames().get(0).lastClient()).startsWith("127.0.0.1:");
    }

    @Test
    void replyGoesToTheDeclaredReplyAddressAndPort() throws Exception {
        start(List.of());
        resolved.resolve("demo:pv", REAL_GUID, new InetSocketAddress("127.0.0.9", 5999));
        try (RawPva sender = new RawPva(); RawPva receiver = new RawPva()) {
            sender.send(RawPva.bytes(RawPva.search(1, 0, InetAddress.getByName("127.0.0.1"), receiver.port(),
                    "demo:pv")), h.udp());
            assertThat(receiver.reply(2000)).isNotNull();
            assertThat(sender.reply(200)).isNull();
        }
    }

    @Test
    void ignoreListDropsAndCounts() throws Exception {
        try (RawPva c = new RawPva()) {
            start(List.of(new PvaAddress("127.0.0.1", c.port())));
            c.send(RawPva.bytes(SearchRequest.discoveryPing(c.port())), h.udp());
            assertThat(c.reply(500)).isNull();
            Awaitility.await().atMost(Duration.ofSeconds(5))
                    .until(() -> h.serverSnapshot().drops().get("ignored") == 1L);
        }
    }

    @Test
    void mutatedDatagramsAreCountedAndNeverAnswerGarbage() throws Exception {
        start(List.of());
        resolved.resolve("demo:pv", REAL_GUID, new InetSocketAddress("127.0.0.9", 5999));
        byte[] good = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY, null, 0, "demo:pv", "x:y"));
        SplittableRandom rnd = new SplittableRandom(42);
        int sent = 2000;
        try (RawPva c = new RawPva()) {
            for (int i = 0; i < sent; i++) {
                byte[] m = good.clone();
                int flips = 1 + rnd.nextInt(4);
                for (int k = 0; k < flips; k++) {
                    m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
                }
                int len = rnd.nextInt(8) == 0 ? rnd.nextInt(m.length) : m.length;
                c.send(java.util.Arrays.copyOf(m, len), h.udp());
            }
            // still alive and answering
            c.send(RawPva.bytes(SearchRequest.discoveryPing(c.port())), h.udp());
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                PvaServerSnapshot s = h.serverSnapshot();
                return s.searchesReceived() + s.drops().get("malformed") >= sent / 2;
            });
        }
        PvaServerSnapshot s = h.serverSnapshot();
        assertThat(s.drops().get("malformed")).isPositive();
        assertThat(s.running()).isTrue();
    }
}
