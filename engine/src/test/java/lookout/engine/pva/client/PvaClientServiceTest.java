package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.config.PvaConfig;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.ResolvedNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client service against loopback sockets, in virtual time. */
class PvaClientServiceTest {

    static final Guid G1 = Guid.parse("0102030405060708090a0b0c");
    static final Guid G2 = Guid.parse("0c0b0a090807060504030201");
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    TestContext ctx;
    PvaClientService svc;
    DatagramSocket fakeServer;   // plays the PVA server's search port
    DatagramSocket beaconSender;
    int broadcastPort;

    @BeforeEach
    void setUp() throws Exception {
        ctx = new TestContext();
        fakeServer = new DatagramSocket(new InetSocketAddress(LO, 0));
        fakeServer.setSoTimeout(5000);
        beaconSender = new DatagramSocket(new InetSocketAddress(LO, 0));
        broadcastPort = TestContext.freeUdpPort();
    }

    void start(List<String> watch, List<String> ignore) {
        PvaConfig pva = TestContext.pva(List.of(new PvaConfig.PvaAddress("127.0.0.1", fakeServer.getLocalPort())),
                List.of(), broadcastPort, watch, ignore);
        svc = new PvaClientService();
        ctx.virtual().call(() -> {
            svc.start(ctx, TestContext.config(pva));
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        if (svc != null) {
            ctx.virtual().call(() -> {
                svc.stop();
                return null;
            });
        }
        fakeServer.close();
        beaconSender.close();
        ctx.close();
    }

    SearchRequest receiveSearch(List<InetSocketAddress> from) throws Exception {
        byte[] buf = new byte[70000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        fakeServer.receive(p);
        from.add((InetSocketAddress) p.getSocketAddress());
        DatagramContents c = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(buf, 0, p.getLength()));
        assertThat(c.dropped()).isFalse();
        return (SearchRequest) c.frames().get(0).message();
    }

    void send(DatagramSocket s, InetSocketAddress to, io.netty.buffer.ByteBuf b) throws Exception {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        s.send(new DatagramPacket(a, a.length, to));
    }

    void reply(InetSocketAddress client, Guid guid, int port, int... cids) throws Exception {
        List<Integer> l = new ArrayList<>();
        for (int c : cids) {
            l.add(c);
        }
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new SearchResponse(guid, Pva.SEARCH_SEQUENCE_FIND, WireAddress.ANY_MAPPED, port, "tcp",
                true, l), b);
        send(fakeServer, client, b);
    }

    PvaSnapshot snap() {
        return ctx.virtual().call(svc::snapshot);
    }

    @Test
    void watchedNameIsSearchedResolvedAndDuplicateClaimReported() throws Exception {
        start(List.of("demo:watched"), List.of());
        ctx.virtual().advance(Duration.ofMillis(10));
        List<InetSocketAddress> from = new ArrayList<>();
        SearchRequest s = receiveSearch(from);
        assertThat(s.names()).extracting(SearchRequest.Name::name).containsExactly("demo:watched");
        // 127.0.0.1 is a genuine unicast destination
        assertThat(s.unicast()).isTrue();
        assertThat(s.protocols()).containsExactly("tcp");
        assertThat(s.sequenceId()).isEqualTo(Pva.SEARCH_SEQUENCE_FIND);
        assertThat(from.get(0).getPort()).isEqualTo(s.replyPort());
        int cid = s.names().get(0).cid();

        reply(from.get(0), G1, 5075, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().resolved() == 1);
        PvaSnapshot sn = snap();
        assertThat(sn.channels().get(0).guid()).isEqualTo(G1.toString());
        assertThat(sn.channels().get(0).endpoint()).isEqualTo("127.0.0.1:5075");
        assertThat(sn.channels().get(0).state()).isEqualTo("RESOLVED");
        assertThat(sn.channels().get(0).watched()).isTrue();
        assertThat(ctx.events(EngineEvent.PvResolved.class)).hasSize(1);
        assertThat(ctx.virtual().call(() -> svc.lookup("demo:watched"))).isNotNull();

        // a second server claims it: reported, never re-resolved
        reply(from.get(0), G2, 6000, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> !ctx.events(EngineEvent.DuplicatePvClaim.class).isEmpty());
        assertThat(ctx.virtual().call(() -> svc.lookup("demo:watched").guid())).isEqualTo(G1.toString());
        // the same server claiming again is no duplicate
        reply(from.get(0), G1, 5075, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().counters().replies() == 3);
        assertThat(ctx.events(EngineEvent.DuplicatePvClaim.class)).hasSize(1);
        // resolved: no further search
        ctx.virtual().advance(Duration.ofSeconds(60));
        fakeServer.setSoTimeout(300);
        org.junit.jupiter.api.Assertions.assertThrows(SocketTimeoutException.class, () -> receiveSearch(from));
    }

    @Test
    void restartedServerWithdrawsItsResolutions() throws Exception {
        start(List.of("demo:r"), List.of());
        List<String> heard = new CopyOnWriteArrayList<>();
        ctx.virtual().call(() -> {
            svc.addListener(new ResolvedNames.Listener() {
                @Override
                public void resolved(ResolvedNames.Resolution r) {
                    heard.add("+" + r.name() + "@" + r.guid());
                }

                @Override
                public void withdrawn(ResolvedNames.Resolution r) {
                    heard.add("-" + r.name() + "@" + r.guid());
                }
            });
            return null;
        });
        ctx.virtual().advance(Duration.ofMillis(10));
        List<InetSocketAddress> from = new ArrayList<>();
        int cid = receiveSearch(from).names().get(0).cid();
        // the server beacons, then claims the name
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G1, 0, 0, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        send(beaconSender, new InetSocketAddress(LO, svc.beaconPort()), b);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().servers().size() == 1);
        reply(from.get(0), G1, 5075, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().resolved() == 1);
        // same endpoint, new GUID: the old instance's claims are void, the name searches again at once
        b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G2, 0, 0, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        send(beaconSender, new InetSocketAddress(LO, svc.beaconPort()), b);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().searching() == 1);
        assertThat(ctx.virtual().call(() -> svc.lookup("demo:r"))).isNull();
        assertThat(heard).containsExactly("+demo:r@" + G1, "-demo:r@" + G1);
        ctx.virtual().advance(Duration.ofSeconds(1));
        assertThat(receiveSearch(from).names().get(0).cid()).isEqualTo(cid);
        reply(from.get(0), G2, 5075, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().resolved() == 1);
        assertThat(heard).last().isEqualTo("+demo:r@" + G2);
    }

    @Test
    void ignoredGuidAndNegativeRepliesDoNotResolve() throws Exception {
        start(List.of("demo:x"), List.of(G1.toString()));
        ctx.virtual().advance(Duration.ofMillis(10));
        List<InetSocketAddress> from = new ArrayList<>();
        int cid = receiveSearch(from).names().get(0).cid();
        reply(from.get(0), G1, 5075, cid);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().counters().ignoredGuid() == 1);
        assertThat(snap().resolved()).isZero();
        // the channel keeps searching on schedule
        ctx.virtual().advance(Duration.ofSeconds(1));
        assertThat(receiveSearch(from).names().get(0).cid()).isEqualTo(cid);
    }

    @Test
    void operatorSearchDropAndCacheRule() throws Exception {
        start(List.of(), List.of());
        ctx.virtual().call(() -> {
            svc.searchPv("op:pv");
            return null;
        });
        ctx.virtual().advance(Duration.ofMillis(10));
        List<InetSocketAddress> from = new ArrayList<>();
        assertThat(receiveSearch(from).names().get(0).name()).isEqualTo("op:pv");
        ctx.virtual().call(() -> {
            svc.dropPv("op:pv");
            return null;
        });
        // §3.1: gone after two consecutive 10-s sweeps, i.e. within 10–20 s
        ctx.virtual().advance(Duration.ofSeconds(9));
        assertThat(snap().channelCount()).isEqualTo(1);
        ctx.virtual().advance(Duration.ofSeconds(11));
        assertThat(snap().channelCount()).isZero();
        assertThat(snap().buckets().stream().mapToInt(Integer::intValue).sum()).isZero();
    }

    @Test
    void wantedNamesStayUntilReleasedKeepingTheirPlace() {
        start(List.of(), List.of());
        assertThat(ctx.virtual().call(() -> svc.want("wanted:pv"))).isEqualTo(ResolvedNames.Want.NEW);
        ctx.virtual().advance(Duration.ofSeconds(100));
        // kept through every sweep, searching on: its attempt count grew
        assertThat(snap().channelCount()).isEqualTo(1);
        int attempts = ctx.virtual().call(() -> (int) svc.channel("wanted:pv").attempts);
        assertThat(attempts).isGreaterThan(10);
        assertThat(ctx.virtual().call(() -> svc.want("wanted:pv"))).isEqualTo(ResolvedNames.Want.EXISTING);
        assertThat(ctx.virtual().call(() -> (int) svc.channel("wanted:pv").attempts)).isEqualTo(attempts);
        ctx.virtual().call(() -> {
            svc.release("wanted:pv");
            return null;
        });
        // released: gone at once
        assertThat(snap().channelCount()).isZero();
        // a watched name wanted and released stays watched
        ctx.virtual().call(() -> {
            svc.searchPv("op:pv");
            return null;
        });
        assertThat(ctx.virtual().call(() -> svc.want("op:pv"))).isEqualTo(ResolvedNames.Want.EXISTING);
        ctx.virtual().call(() -> {
            svc.release("op:pv");
            return null;
        });
        assertThat(snap().channelCount()).isEqualTo(1);
    }

    @Test
    void stopSearchingStopsAtOnce() throws Exception {
        start(List.of(), List.of());
        ctx.virtual().call(() -> {
            svc.searchPv("op:stop");
            return null;
        });
        ctx.virtual().advance(Duration.ofSeconds(5));
        long before = ctx.virtual().call(() -> (long) svc.channel("op:stop").searches);
        assertThat(before).isGreaterThan(2);
        ctx.virtual().call(() -> {
            svc.dropPv("op:stop");
            return null;
        });
        ctx.virtual().advance(Duration.ofSeconds(9));
        // still cached (§3.1), no longer searched
        assertThat(ctx.virtual().call(() -> (long) svc.channel("op:stop").searches)).isEqualTo(before);
        assertThat(snap().buckets().stream().mapToInt(Integer::intValue).sum()).isZero();
        // searched again before it went: back into the ring, from the cursor
        ctx.virtual().call(() -> {
            svc.searchPv("op:stop");
            return null;
        });
        ctx.virtual().advance(Duration.ofSeconds(2));
        assertThat(ctx.virtual().call(() -> (long) svc.channel("op:stop").searches)).isGreaterThan(before);
    }

    @Test
    void liveReloadKeepsRingPositionOfWatchedNames() {
        start(List.of("a:1", "a:2"), List.of());
        ctx.virtual().advance(Duration.ofSeconds(17));
        int bucket = ctx.virtual().call(() -> (int) svc.channel("a:1").bucket);
        int attempts = ctx.virtual().call(() -> (int) svc.channel("a:1").attempts);
        PvaConfig next = TestContext.pva(List.of(new PvaConfig.PvaAddress("127.0.0.1", fakeServer.getLocalPort())),
                List.of(), broadcastPort, List.of("a:1", "b:1"), List.of());
        ctx.virtual().call(() -> {
            svc.apply(null, TestContext.config(next));
            return null;
        });
        assertThat(ctx.virtual().call(() -> (int) svc.channel("a:1").bucket)).isEqualTo(bucket);
        assertThat(ctx.virtual().call(() -> (int) svc.channel("a:1").attempts)).isEqualTo(attempts);
        assertThat(ctx.virtual().call(() -> svc.channel("b:1"))).isNotNull();
        // a:2 is no longer watched: discarded by the cache rule
        ctx.virtual().advance(Duration.ofSeconds(21));
        assertThat(ctx.virtual().call(() -> svc.channel("a:2"))).isNull();
        assertThat(ctx.virtual().call(() -> svc.channel("a:1"))).isNotNull();
    }

    @Test
    void beaconsCreateRefreshExpireAndRestart() throws Exception {
        start(List.of(), List.of());
        InetSocketAddress to = new InetSocketAddress(LO, svc.beaconPort());
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G1, 0, 0, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        send(beaconSender, to, b);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().servers().size() == 1);
        var s = snap().servers().get(0);
        assertThat(s.endpoint()).isEqualTo("127.0.0.1:5075");
        assertThat(s.guid()).isEqualTo(G1.toString());
        assertThat(s.beacons()).isEqualTo(1);
        assertThat(ctx.events(EngineEvent.PvaServerFound.class)).hasSize(1);
        // a new beacon source hurries the search up
        assertThat(snap().counters().hurryUps()).isEqualTo(1);

        ctx.virtual().advance(Duration.ofSeconds(15));
        b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G1, 0, 1, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        send(beaconSender, to, b);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().servers().get(0).beacons() == 2);
        assertThat(snap().servers().get(0).observedPeriod()).isEqualTo(Duration.ofSeconds(15));

        // same endpoint, new GUID: a restart
        b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G2, 0, 0, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        send(beaconSender, to, b);
        await().atMost(Duration.ofSeconds(5)).until(() -> ctx.events(EngineEvent.PvaServerRestarted.class).size() == 1);
        assertThat(snap().servers().get(0).restarts()).isEqualTo(1);

        // silent for 360 s: lost at the next 180-s check
        ctx.virtual().advance(Duration.ofSeconds(200));
        assertThat(snap().servers().get(0).status().name()).isEqualTo("STALE");
        ctx.virtual().advance(Duration.ofSeconds(360));
        assertThat(ctx.events(EngineEvent.PvaServerLost.class)).hasSize(1);
        PvaSnapshot sn = snap();
        assertThat(sn.servers()).hasSize(1);
        assertThat(sn.servers().get(0).status().name()).isEqualTo("OFFLINE");
        assertThat(ctx.virtual().call(() -> svc.serverTable().size())).isZero();
    }

    @Test
    void serverTableRefusesThe20001st() {
        start(List.of(), List.of());
        ctx.virtual().call(() -> {
            for (int i = 0; i < 20_001; i++) {
                InetAddress a = InetAddress.getByAddress(new byte[] {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i});
                svc.beaconHeard(new Beacon(G1, 0, 0, 0, a, 5075, "tcp"), 2, new InetSocketAddress(a, 5076));
            }
            return null;
        });
        PvaSnapshot s = snap();
        assertThat(s.counters().serverTableRefused()).isEqualTo(1);
        assertThat(s.servers()).hasSize(20_000);
        assertThat(ctx.events(EngineEvent.Notice.class)).anyMatch(n -> n.message().contains("table full"));
    }

    @Test
    void discoveryPingAndReplyFeedTheTable() throws Exception {
        start(List.of(), List.of());
        ctx.virtual().call(() -> {
            svc.discoveryPing();
            return null;
        });
        List<InetSocketAddress> from = new ArrayList<>();
        SearchRequest ping = receiveSearch(from);
        assertThat(ping.discoveryPing()).isTrue();
        // core-pva style answer: sequence 0, found false, no CIDs
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new SearchResponse(G2, 0, WireAddress.ANY_MAPPED, 15075, "tcp", false, List.of()), b);
        send(fakeServer, from.get(0), b);
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().servers().size() == 1);
        assertThat(snap().servers().get(0).discoveryReplies()).isEqualTo(1);
        assertThat(ctx.events(EngineEvent.PvaServerFound.class).get(0).via()).isEqualTo("discovery");
    }

    @Test
    void discoveryAtStartOnlyWhenConfigured() throws Exception {
        PvaConfig base = TestContext.pva(List.of(new PvaConfig.PvaAddress("127.0.0.1", fakeServer.getLocalPort())),
                List.of(), broadcastPort, List.of(), List.of());
        // passive by default: nothing is sent at start
        start(List.of(), List.of());
        ctx.virtual().advance(Duration.ofSeconds(5));
        assertThat(snap().counters().discoveryPings()).isZero();
        ctx.virtual().call(() -> {
            svc.stop();
            return null;
        });
        fakeServer.setSoTimeout(300);
        org.junit.jupiter.api.Assertions.assertThrows(SocketTimeoutException.class,
                () -> receiveSearch(new ArrayList<>()));
        fakeServer.setSoTimeout(5000);
        PvaConfig active = new PvaConfig(base.addrList(), false, List.of(), broadcastPort, 5075, List.of(), false,
                List.of(), base.server(), List.of(), true, List.of());
        svc = new PvaClientService();
        ctx.virtual().call(() -> {
            svc.start(ctx, TestContext.config(active));
            return null;
        });
        assertThat(receiveSearch(new ArrayList<>()).discoveryPing()).isTrue();
        assertThat(snap().counters().discoveryPings()).isEqualTo(1);
    }

    @Test
    void beaconPortIsSharedWithAnotherPvaProcess() throws Exception {
        // another PVA process already holds the port (with SO_REUSEADDR, as PVXS and core-pva do)
        try (java.nio.channels.DatagramChannel other = java.nio.channels.DatagramChannel.open(
                java.net.StandardProtocolFamily.INET)) {
            other.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            other.bind(new InetSocketAddress(broadcastPort));
            start(List.of(), List.of());
            assertThat(svc.beaconPort()).isEqualTo(broadcastPort);
            assertThat(snap().beaconPort()).isEqualTo(broadcastPort);
            assertThat(ctx.events(EngineEvent.Notice.class)).isEmpty();
        }
    }

    @Test
    void malformedDatagramsAreCounted() throws Exception {
        start(List.of(), List.of());
        byte[] junk = {(byte) 0xCA, 2, 0, 4, 0, 0, 0, 99, 1, 2, 3};
        beaconSender.send(new DatagramPacket(junk, junk.length, new InetSocketAddress(LO, svc.searchPort())));
        beaconSender.send(new DatagramPacket(junk, junk.length, new InetSocketAddress(LO, svc.beaconPort())));
        await().atMost(Duration.ofSeconds(5)).until(() -> snap().counters().malformed() == 2);
    }

    @Test
    void searchNowHurriesUpOncePer30s() {
        start(List.of("x"), List.of());
        ctx.virtual().advance(Duration.ofSeconds(100));
        assertThat(ctx.virtual().call(svc::searchNow)).isTrue();
        assertThat(snap().hurryUp()).isTrue();
        assertThat(ctx.virtual().call(svc::searchNow)).isFalse();
        ctx.virtual().advance(Duration.ofSeconds(10));
        assertThat(snap().hurryUp()).isFalse();
        assertThat(ctx.virtual().call(svc::searchNow)).isFalse();
        ctx.virtual().advance(Duration.ofSeconds(20));
        assertThat(ctx.virtual().call(svc::searchNow)).isTrue();
    }
}
