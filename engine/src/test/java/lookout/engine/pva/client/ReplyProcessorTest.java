package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import lookout.engine.api.EngineEvent;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.OriginTag;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.PvaMessage;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client's one dispatch routine for decoded datagrams, without sockets: whatever socket a
 * datagram arrived on, its replies resolve, its beacons feed the server table, anything else is
 * ignored and counted, a malformed one is counted and dropped.
 */
class ReplyProcessorTest {

    static final Guid G1 = Guid.parse("0102030405060708090a0b0c");
    static final Guid G2 = Guid.parse("0c0b0a090807060504030201");
    static final InetSocketAddress SERVER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000);

    final VirtualScheduler clock = new VirtualScheduler();
    final ClientCounters counters = new ClientCounters();
    final List<String> ring = new ArrayList<>();
    final List<EngineEvent> events = new ArrayList<>();
    final int[] hurryUps = {0};
    final ChannelRegistry registry = new ChannelRegistry(new ChannelRegistry.Searching() {
        @Override
        public boolean fits(int utf8Length) {
            return true;
        }

        @Override
        public void begin(PvChannel c) {
            ring.add("begin " + c.name);
        }

        @Override
        public void end(PvChannel c) {
            ring.add("end " + c.name);
        }

        @Override
        public void again(PvChannel c) {
            ring.add("again " + c.name);
        }
    }, (name, bytes) -> { }, counters);
    final ReplyProcessor replies = new ReplyProcessor(clock, events::add, registry, counters, () -> ++hurryUps[0] > 0,
            (entry, now) -> null);
    final PvChannel channel = registry.reference("dispatch:pv", PvChannel.REF_WATCHED);

    ReplyProcessorTest() {
        replies.running(true);
    }

    @AfterEach
    void closeClock() {
        clock.close();
    }

    static DatagramContents datagram(PvaMessage... messages) {
        ByteBuf b = Unpooled.buffer();
        for (PvaMessage m : messages) {
            PvaCodec.encode(m, b);
        }
        return PvaCodec.decodeDatagram(b);
    }

    static Beacon beacon(Guid g) {
        return new Beacon(g, 0, 0, 0, WireAddress.ANY_MAPPED, 5075, "tcp");
    }

    SearchResponse claim(Guid g, int... cids) {
        List<Integer> l = new ArrayList<>();
        for (int c : cids) {
            l.add(c);
        }
        return new SearchResponse(g, Pva.SEARCH_SEQUENCE_FIND, WireAddress.ANY_MAPPED, 5075, "tcp", true, l);
    }

    static Arrival arrival(Kind kind) {
        return new Arrival(kind, InetAddress.getLoopbackAddress(), null);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void whereADatagramArrivedDoesNotChangeWhatItMeans(Kind kind) {
        replies.datagram(datagram(beacon(G1)), SERVER, arrival(kind));
        replies.datagram(datagram(claim(G1, channel.cid)), SERVER, arrival(kind));
        assertThat(counters.beacons).isEqualTo(1);
        assertThat(replies.servers().size()).isEqualTo(1);
        assertThat(counters.replies).isEqualTo(1);
        assertThat(channel.state).isEqualTo(ChannelState.RESOLVED);
        assertThat(channel.endpoint).isEqualTo(new InetSocketAddress(SERVER.getAddress(), 5075));
        assertThat(ring).containsExactly("begin dispatch:pv", "end dispatch:pv");
    }

    @Test
    void everyMessageOfADatagramIsTakenAndTheRestCounted() {
        SearchRequest someoneElses = new SearchRequest(Pva.SEARCH_SEQUENCE_FIND, 0, WireAddress.ANY_ZERO, 5076,
                List.of("tcp"), List.of(new SearchRequest.Name(7, "other:pv")));
        replies.datagram(datagram(beacon(G1), claim(G1, channel.cid), someoneElses), SERVER, arrival(Kind.WILDCARD));
        assertThat(counters.beacons).isEqualTo(1);
        assertThat(counters.replies).isEqualTo(1);
        assertThat(counters.ignored).isEqualTo(1);
        assertThat(channel.state).isEqualTo(ChannelState.RESOLVED);
        assertThat(events).hasExactlyElementsOfTypes(EngineEvent.PvaServerFound.class, EngineEvent.PvResolved.class);
        assertThat(hurryUps[0]).as("a new server hurries the search up").isEqualTo(1);

        // a second server's claim: reported, never re-resolved
        replies.datagram(datagram(claim(G2, channel.cid)), SERVER, arrival(Kind.SEARCH_SOCKET));
        assertThat(counters.duplicateClaims).isEqualTo(1);
        assertThat(channel.guid).isEqualTo(G1);
    }

    @Test
    void forwardedCopiesAndMalformedDatagramsAreNotTheClients() {
        SearchRequest fwd = new SearchRequest(Pva.SEARCH_SEQUENCE_FIND, 0, SERVER.getAddress(), 5076, List.of("tcp"),
                List.of(new SearchRequest.Name(1, "x")));
        replies.datagram(datagram(new OriginTag(SERVER.getAddress()), fwd), SERVER, arrival(Kind.WILDCARD));
        assertThat(counters.ignored).isEqualTo(2);
        byte[] cut = {(byte) 0xCA, 2, (byte) 0x80, 0, 0, 0, 0, 40, 1, 2};
        replies.datagram(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(cut)), SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(counters.malformed).isEqualTo(1);
        assertThat(counters.beacons + counters.replies).isZero();
        assertThat(channel.state).isEqualTo(ChannelState.SEARCHING);
    }

    @Test
    void ignoredGuidsNegativeRepliesAndAStoppedClientResolveNothing() {
        replies.ignoreGuids(Set.of(G1));
        replies.datagram(datagram(claim(G1, channel.cid)), SERVER, arrival(Kind.SEARCH_SOCKET));
        assertThat(counters.ignoredGuid).isEqualTo(1);
        replies.datagram(datagram(new SearchResponse(G2, 0, WireAddress.ANY_MAPPED, 5075, "tcp", false,
                List.of(channel.cid))), SERVER, arrival(Kind.SEARCH_SOCKET));
        assertThat(channel.state).isEqualTo(ChannelState.SEARCHING);
        replies.running(false);
        replies.datagram(datagram(claim(G2, channel.cid)), SERVER, arrival(Kind.SEARCH_SOCKET));
        assertThat(channel.state).isEqualTo(ChannelState.SEARCHING);
        assertThat(counters.replies).isEqualTo(2);
    }

    @Test
    void aNameServersReplyNamesTheConnectionsPortWhenItGivesNone() {
        replies.onSearchResponse(new SearchResponse(G1, 0, WireAddress.ANY_MAPPED, 0, "tcp", true,
                List.of(channel.cid)), 2, SERVER, true);
        assertThat(channel.endpoint).isEqualTo(SERVER);
    }

    @Test
    void namesClaimedByOneServerShareItsEndpointAndGuid() {
        // each reply decodes a GUID and an endpoint of its own; 100 000 names claimed by one server
        // must not keep 100 000 copies of them (about 150 bytes a name of live heap)
        PvChannel other = registry.reference("dispatch:pv2", PvChannel.REF_WATCHED);
        replies.datagram(datagram(claim(G1, channel.cid)), SERVER, arrival(Kind.OWN_UNICAST));
        replies.datagram(datagram(claim(G1, other.cid)), new InetSocketAddress(SERVER.getAddress(), SERVER.getPort()),
                arrival(Kind.OWN_UNICAST));
        assertThat(other.state).isEqualTo(ChannelState.RESOLVED);
        assertThat(other.endpoint).isEqualTo(new InetSocketAddress(SERVER.getAddress(), 5075)).isSameAs(channel.endpoint);
        assertThat(other.guid).isEqualTo(G1).isSameAs(channel.guid);
        // a restarted server's GUID is its own object, and its names share that one
        replies.datagram(datagram(beacon(G2)), SERVER, arrival(Kind.OWN_UNICAST));
        replies.datagram(datagram(claim(G2, channel.cid, other.cid)), SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(channel.guid).isEqualTo(G2).isSameAs(other.guid);
    }

    @Test
    void anotherGuidAnnouncedAtAClaimedEndpointWithdrawsTheClaims() {
        // G1 claimed the name at 127.0.0.1:5075 and never beaconed; G2 now announces that endpoint:
        // one TCP endpoint is one server, so G1's claims are gone (seed 002 §3.4: a changed GUID)
        replies.datagram(datagram(claim(G1, channel.cid)), SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(channel.state).isEqualTo(ChannelState.RESOLVED);
        replies.datagram(datagram(beacon(G2)), SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(channel.state).isEqualTo(ChannelState.SEARCHING);
        assertThat(ring).containsExactly("begin dispatch:pv", "end dispatch:pv", "again dispatch:pv");
        assertThat(events).anySatisfy(e -> assertThat(e.message()).isEqualTo("PVA server at 127.0.0.1:5075 is now "
                + G2 + ": the 1 name another server there claimed is searched again"));
        // and G2's claim is not undone by its own beacons
        replies.datagram(datagram(claim(G2, channel.cid)), SERVER, arrival(Kind.OWN_UNICAST));
        replies.datagram(datagram(beacon(G2)), SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(channel.state).isEqualTo(ChannelState.RESOLVED);
        assertThat(channel.guid).isEqualTo(G2);
    }

    @Test
    void announcementsNamingNoTcpPortAreNoServer() {
        // a responder without a TCP listener answers MustReply with port 0: no endpoint to track
        replies.datagram(datagram(new Beacon(G1, 0, 0, 0, WireAddress.ANY_MAPPED, 0, "tcp")), SERVER,
                arrival(Kind.OWN_UNICAST));
        replies.datagram(datagram(new SearchResponse(G1, 0, WireAddress.ANY_MAPPED, 0, "tcp", false, List.of())),
                SERVER, arrival(Kind.OWN_UNICAST));
        assertThat(replies.servers().size()).isZero();
        assertThat(counters.ignored).isEqualTo(2);
        assertThat(events).isEmpty();
    }
}
