package lookout.engine.pva;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.BindException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.PvaChannelSnapshot;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.PvaMessage;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;

/**
 * The engine's PVA client and server on one {@code broadcast_port}, through the one port owner:
 * a beacon and a search reply sent to the port reach the client although the server's socket on
 * 127.0.0.1 is the one the kernel gives them to; a search sent there reaches the server; a reload
 * that moves the port moves both, and lets the old port go; the server turned off and on again
 * leaves the client listening throughout.
 */
class SharedPortTest {

    static final Guid OTHER = Guid.parse("0a0b0c0d0e0f101112131415");
    static final String PV = "shared:port:pv";
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    static String config(int udp, int tcp) {
        return config(udp, tcp, true);
    }

    static String config(int udp, int tcp, boolean server) {
        return """
                resolver => { listen => [ 127.0.0.1:0 ] }
                pva => {
                  addr_list => [ 127.0.0.1:%d ]
                  auto_addr_list => false
                  beacon_addr_list => [ ]
                  auto_beacon_addr_list => false
                  broadcast_port => %d
                  server_port => %d
                  server => { enable => %b, name_server => false }
                  watch => [ "%s" ]
                }
                """.formatted(udp, udp, tcp, server, PV);
    }

    static byte[] bytes(PvaMessage m) {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(m, b);
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        return a;
    }

    static void send(DatagramSocket s, PvaMessage m, int port) throws Exception {
        byte[] a = bytes(m);
        s.send(new DatagramPacket(a, a.length, new InetSocketAddress(LO, port)));
    }

    static int cidOf(EngineSnapshot s) {
        return s.pva().channels().stream().filter(c -> c.name().equals(PV)).mapToInt(PvaChannelSnapshot::cid)
                .findFirst().orElseThrow();
    }

    static boolean knows(EngineSnapshot s, Guid g) {
        return s.pva().servers().stream().anyMatch(x -> x.guid().equals(g.toString()));
    }

    /** The discovery reply of the engine's server to a ping sent to {@code port}. */
    static SearchResponse ping(DatagramSocket client, int port) throws Exception {
        send(client, SearchRequest.discoveryPing(client.getLocalPort()), port);
        DatagramPacket in = new DatagramPacket(new byte[1500], 1500);
        client.receive(in);
        Frame f = PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(in.getData(), 0, in.getLength())).frames().get(0);
        return (SearchResponse) f.message();
    }

    @Test
    void clientAndServerShareThePortAndMoveWithIt() throws Exception {
        int first = freeUdpPort();
        int tcp = freeTcpPort();
        Path dir = Files.createTempDirectory("lookout-shared-port");
        ConfigLoader loader = new ConfigLoader(Map.of());
        ConfigResult r = loader.parse(config(first, tcp), "shared.conf", dir);
        assertThat(r.problems()).isEmpty();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(3), dir).withPvaForwarding(false));
             DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            peer.setSoTimeout(5000);
            engine.start(r.config());
            EngineSnapshot s0 = engine.snapshot();
            assertThat(s0.pva().beaconPort()).isEqualTo(first);
            assertThat(s0.pvaServer().udpListeners()).containsExactly("127.0.0.1:" + first);
            String ownGuid = s0.pvaServer().guid();

            // a beacon to 127.0.0.1:port: the server's socket reads it, the client's table gets it
            send(peer, new Beacon(OTHER, 0, 0, 0, WireAddress.ANY_MAPPED, 6064, "tcp"), first);
            await().atMost(Duration.ofSeconds(5)).until(() -> knows(engine.snapshot(), OTHER));
            assertThat(engine.snapshot().pva().counters().beacons()).isEqualTo(1);

            // a search reply sent to the shared port resolves the client's channel
            int cid = cidOf(engine.snapshot());
            send(peer, new SearchResponse(OTHER, Pva.SEARCH_SEQUENCE_FIND, WireAddress.ANY_MAPPED, 6064, "tcp", true,
                    List.of(cid)), first);
            await().atMost(Duration.ofSeconds(5)).until(() -> engine.snapshot().pva().resolved() == 1);

            // a search to the port reaches the server
            SearchResponse pong = ping(peer, first);
            assertThat(pong.guid().toString()).isEqualTo(ownGuid);
            assertThat(engine.snapshot().pvaServer().discoveryReplies()).isEqualTo(1);

            // a reload moves both to another port, and lets the first one go
            int second = freeUdpPort();
            assertThat(engine.apply(loader.parse(config(second, tcp), "shared.conf", dir)).applied()).isTrue();
            EngineSnapshot s1 = engine.snapshot();
            assertThat(s1.pva().beaconPort()).isEqualTo(second);
            assertThat(s1.pvaServer().udpPort()).isEqualTo(second);
            assertThat(s1.pvaServer().guid()).isEqualTo(ownGuid);
            new DatagramSocket(new InetSocketAddress(LO, first)).close();
            assertThatThrownBy(() -> new DatagramSocket(new InetSocketAddress(LO, second)).close())
                    .isInstanceOf(BindException.class);
            Guid third = Guid.parse("1c1d1e1f2021222324252627");
            send(peer, new Beacon(third, 0, 0, 0, WireAddress.ANY_MAPPED, 6065, "tcp"), second);
            await().atMost(Duration.ofSeconds(5)).until(() -> knows(engine.snapshot(), third));
            assertThat(ping(peer, second).guid().toString()).isEqualTo(ownGuid);

            // the server off: its socket on 127.0.0.1 goes, the client's beacons keep coming (the
            // wildcard socket reads them now); the server on again: it answers on the port again
            assertThat(engine.apply(loader.parse(config(second, tcp, false), "shared.conf", dir)).applied()).isTrue();
            assertThat(engine.snapshot().pvaServer().running()).isFalse();
            Guid fourth = Guid.parse("28292a2b2c2d2e2f30313233");
            send(peer, new Beacon(fourth, 0, 0, 0, WireAddress.ANY_MAPPED, 6066, "tcp"), second);
            await().atMost(Duration.ofSeconds(5)).until(() -> knows(engine.snapshot(), fourth));
            assertThat(engine.apply(loader.parse(config(second, tcp, true), "shared.conf", dir)).applied()).isTrue();
            assertThat(ping(peer, second).guid().toString()).isEqualTo(ownGuid);
            assertThat(engine.snapshot().pva().beaconPort()).isEqualTo(second);
        }
    }

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, LO)) {
            return s.getLocalPort();
        }
    }

    private static int freeTcpPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, LO)) {
            return s.getLocalPort();
        }
    }
}
