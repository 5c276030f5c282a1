package lookout.engine.pva.udp;

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
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.random.RandomGenerator;
import lookout.engine.core.TestServiceContext;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Interest;
import lookout.engine.seams.PvaPorts.Kind;
import lookout.engine.seams.PvaPorts.LocalAddress;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The owner of the PVA UDP ports on loopback: each datagram reaches every listener of the port
 * whose interest covers the socket it arrived on, once; sockets are shared and closed with their
 * last holder; answers leave from the address searched; the client's search socket sends and reads.
 */
class PortOwnerTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final Guid G = Guid.parse("0102030405060708090a0b0c");

    final VirtualScheduler clock = new VirtualScheduler();
    final TestServiceContext ctx = new TestServiceContext(clock, RandomGenerator.of("L64X128MixRandom"),
            Path.of("target"), Map.of());
    final PortOwner owner = new PortOwner();

    PortOwnerTest() {
        owner.start(ctx, null);
    }

    @AfterEach
    void tearDown() {
        clock.call(() -> {
            owner.stop();
            return null;
        });
        ctx.close();
    }

    /** What a listener was given. */
    record Got(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
    }

    static class Recorder implements PvaPorts.Receiver {
        final List<Got> got = new CopyOnWriteArrayList<>();
        final List<InetSocketAddress> sent = new CopyOnWriteArrayList<>();
        final List<NetError> failed = new CopyOnWriteArrayList<>();

        @Override
        public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
            got.add(new Got(contents, source, arrival));
        }

        @Override
        public void sent(InetSocketAddress to) {
            sent.add(to);
        }

        @Override
        public void sendFailed(InetSocketAddress to, NetError error) {
            failed.add(error);
        }
    }

    static Interest searchesOn(InetAddress... addresses) {
        return new Interest(false, java.util.Arrays.stream(addresses).map(a -> new LocalAddress(a, null)).toList(),
                false, false, false, true);
    }

    PvaPorts.Port listen(int port, Interest interest, PvaPorts.Receiver r) {
        return clock.call(() -> owner.listen(port, interest, r));
    }

    void close(PvaPorts.Port p) {
        clock.call(() -> {
            p.close();
            return null;
        });
    }

    static byte[] beacon(int sequence) {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(G, 0, sequence, 0, WireAddress.ANY_MAPPED, 5075, "tcp"), b);
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        return a;
    }

    static void send(DatagramSocket s, byte[] data, InetAddress to, int port) throws Exception {
        s.send(new DatagramPacket(data, data.length, new InetSocketAddress(to, port)));
    }

    static int freeUdpPort() throws SocketException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            return s.getLocalPort();
        }
    }

    static int sequenceOf(Got g) {
        return ((Beacon) g.contents().frames().get(0).message()).sequence();
    }

    /** A concurrent receiver (the server's responder): records the thread it was called on. */
    static final class Responder extends Recorder {
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public boolean concurrent() {
            return true;
        }

        @Override
        public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
            threads.add(Thread.currentThread().getName());
            super.datagram(contents, source, arrival);
        }
    }

    static byte[] search(int replyPort) {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new lookout.engine.pva.wire.SearchRequest(1, 0, WireAddress.ANY_ZERO, replyPort,
                List.of("tcp"), List.of(new lookout.engine.pva.wire.SearchRequest.Name(1, "x"))), b);
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        return a;
    }

    @Test
    void aListenerWithReadersIsServedOnItsResponderLoopsAndTheEngineLoopGetsOnlyWhatItsListenersWant()
            throws Exception {
        int port = freeUdpPort();
        Responder server = new Responder();
        Recorder client = new Recorder() {
            @Override
            public boolean accepts(DatagramContents c) {
                return c.frames().stream().anyMatch(f -> f.message() instanceof Beacon);
            }
        };
        PvaPorts.Port s = listen(port, new Interest(false, List.of(new LocalAddress(LO, null)), false, false, false,
                true, 3), server);
        PvaPorts.Port c = listen(port, Interest.everything(), client);
        assertThat(s.readers()).isEqualTo(3);
        // issue 24: the responder's unicast sockets are read natively on its loops where the
        // engine's library watches sockets from an epoll loop; the client's wildcard by Netty
        List<String> unicast = clock.call(() -> owner.readBy(port, PvaPorts.Kind.OWN_UNICAST));
        assertThat(unicast).hasSize(3);
        boolean steered = lookout.engine.net.Udp.nativeOnLoopUnavailable(owner.loop(3, 0)) == null;
        if (steered) {
            assertThat(unicast).containsOnly("native-loop");
        } else {
            assertThat(unicast).noneMatch("native-loop"::equals);
        }
        assertThat(clock.call(() -> owner.readBy(port, PvaPorts.Kind.WILDCARD))).noneMatch("native-loop"::equals);
        // three sockets share the address (SO_REUSEPORT): read natively, every sender goes to the
        // first while its loop keeps up (ReadSteering); read by Netty, the kernel spreads them
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            for (int i = 0; i < 60; i++) {
                try (DatagramSocket from = new DatagramSocket(new InetSocketAddress(LO, 0))) {
                    send(from, search(a.getLocalPort()), LO, port);
                }
            }
            send(a, beacon(7), LO, port);
            await().atMost(Duration.ofSeconds(10)).until(() -> server.got.size() == 61);
            // served where it was read, never on the engine loop nor the virtual clock's
            assertThat(server.threads).allMatch(t -> t.startsWith("lookout-pva-responder"));
            if (steered) {
                assertThat(server.threads.stream().distinct().count()).isEqualTo(1);
            } else {
                assertThat(server.threads.stream().distinct().count()).isGreaterThan(1);
            }
            // the client is handed the beacon only: the searches were not worth the hop
            await().atMost(Duration.ofSeconds(10)).until(() -> client.got.size() == 1);
            clock.runPending();
            assertThat(client.got).singleElement().satisfies(g -> assertThat(sequenceOf(g)).isEqualTo(7));
        }
        close(c);
        close(s);
    }

    @Test
    void aUnicastReachesEveryListenerOfItsSocketOnceAndTheRestOnlyTheCatchAll() throws Exception {
        int port = freeUdpPort();
        Recorder client = new Recorder();
        Recorder server = new Recorder();
        PvaPorts.Port c = listen(port, Interest.everything(), client);
        PvaPorts.Port s = listen(port, searchesOn(LO), server);
        assertThat(c.bound()).containsExactly("0.0.0.0:" + port);
        assertThat(s.bound()).containsExactly("127.0.0.1:" + port);
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            // to the address the server listens on: the kernel gives it to that socket only
            send(peer, beacon(1), LO, port);
            await().atMost(Duration.ofSeconds(5)).until(() -> client.got.size() == 1 && server.got.size() == 1);
            assertThat(client.got.get(0).arrival()).isEqualTo(new Arrival(Kind.OWN_UNICAST, LO, LO));
            assertThat(server.got.get(0).arrival()).isEqualTo(new Arrival(Kind.OWN_UNICAST, LO, LO));
            assertThat(client.got.get(0).source()).isEqualTo(peer.getLocalSocketAddress());

            // to another loopback address: only the wildcard socket reads it, only the catch-all gets it
            send(peer, beacon(2), InetAddress.getByName("127.0.0.2"), port);
            send(peer, beacon(3), LO, port);
            await().atMost(Duration.ofSeconds(5)).until(() -> client.got.size() == 3 && server.got.size() == 2);
            assertThat(client.got).extracting(PortOwnerTest::sequenceOf).containsExactlyInAnyOrder(1, 2, 3);
            assertThat(server.got).extracting(PortOwnerTest::sequenceOf).containsExactly(1, 3);
            Got wild = client.got.stream().filter(g -> sequenceOf(g) == 2).findFirst().orElseThrow();
            assertThat(wild.arrival().kind()).isEqualTo(Kind.WILDCARD);
            assertThat(wild.arrival().replyFrom()).isNull();
        }
        close(c);
        close(s);
    }

    @Test
    void socketsAreSharedAndClosedWithTheirLastHolder() throws Exception {
        int port = freeUdpPort();
        PvaPorts.Port a = listen(port, searchesOn(LO), new Recorder());
        PvaPorts.Port b = listen(port, searchesOn(LO), new Recorder());
        assertThat(clock.call(owner::ports)).containsExactly(port);
        close(a);
        // still held by b: a socket without SO_REUSEADDR cannot have the address
        assertThatThrownBy(() -> new DatagramSocket(new InetSocketAddress(LO, port)).close())
                .isInstanceOf(BindException.class);
        close(b);
        new DatagramSocket(new InetSocketAddress(LO, port)).close();
        assertThat(clock.call(owner::ports)).isEmpty();
    }

    @Test
    void answersLeaveFromTheAddressSearched() throws Exception {
        PvaPorts.Port[] port = new PvaPorts.Port[1];
        Recorder server = new Recorder() {
            @Override
            public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
                super.datagram(contents, source, arrival);
                port[0].reply(Unpooled.wrappedBuffer(beacon(9)), source, arrival.replyFrom());
            }
        };
        port[0] = listen(0, searchesOn(LO), server);
        int p = port[0].port();
        assertThat(p).isPositive();
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            peer.setSoTimeout(5000);
            send(peer, beacon(1), LO, p);
            DatagramPacket in = new DatagramPacket(new byte[100], 100);
            peer.receive(in);
            assertThat(in.getSocketAddress()).isEqualTo(new InetSocketAddress(LO, p));
            await().atMost(Duration.ofSeconds(5)).until(() -> server.sent.size() == 1);
            assertThat(server.sent.get(0)).isEqualTo(peer.getLocalSocketAddress());
        }
        close(port[0]);
    }

    @Test
    void answersMadeWhileReadingLeaveAtTheEndOfTheReadFromTheirOwnSocket() throws Exception {
        // a real clock: the engine loop is the reader loop, as in the engine, so answers made
        // during a read are held and leave together when it ends
        try (TestServiceContext real = new TestServiceContext(null, RandomGenerator.of("L64X128MixRandom"),
                Path.of("target"), Map.of())) {
            PortOwner own = new PortOwner();
            own.start(real, null);
            InetAddress other = InetAddress.getByName("127.0.0.2");
            PvaPorts.Port[] port = new PvaPorts.Port[1];
            Recorder server = new Recorder() {
                @Override
                public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
                    super.datagram(contents, source, arrival);
                    // read on 127.0.0.2, answered from 127.0.0.1: another socket than the one read
                    port[0].reply(Unpooled.wrappedBuffer(beacon(sequenceOf(got.get(got.size() - 1)))), source, LO);
                }
            };
            java.util.concurrent.CompletableFuture<PvaPorts.Port> opened = new java.util.concurrent.CompletableFuture<>();
            real.scheduler.execute(() -> {
                try {
                    opened.complete(own.listen(0, searchesOn(LO, other), server));
                } catch (Exception e) {
                    opened.completeExceptionally(e);
                }
            });
            port[0] = opened.get(5, java.util.concurrent.TimeUnit.SECONDS);
            int p = port[0].port();
            try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
                peer.setSoTimeout(5000);
                for (int i = 0; i < 8; i++) {
                    send(peer, beacon(i), other, p);
                }
                java.util.Set<Integer> answered = new java.util.TreeSet<>();
                for (int i = 0; i < 8; i++) {
                    DatagramPacket in = new DatagramPacket(new byte[100], 100);
                    peer.receive(in);
                    assertThat(in.getSocketAddress()).isEqualTo(new InetSocketAddress(LO, p));
                    answered.add(in.getData()[21] & 0xFF);
                }
                assertThat(answered).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> server.sent.size() == 8);
            real.scheduler.execute(own::stop);
        }
    }

    @Test
    void anEphemeralPortIsChosenOnceAndSharedByLaterListeners() throws Exception {
        Recorder server = new Recorder();
        Recorder client = new Recorder();
        PvaPorts.Port s = listen(0, searchesOn(LO), server);
        PvaPorts.Port c = listen(s.port(), Interest.everything(), client);
        assertThat(c.port()).isEqualTo(s.port());
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            send(peer, beacon(1), LO, s.port());
            await().atMost(Duration.ofSeconds(5)).until(() -> client.got.size() == 1 && server.got.size() == 1);
        }
        close(s);
        close(c);
    }

    @Test
    void aListenerThatThrowsStopsNoOtherAndMalformedDatagramsArriveAsDrops() throws Exception {
        int port = freeUdpPort();
        Recorder second = new Recorder();
        PvaPorts.Port a = listen(port, searchesOn(LO), (contents, source, arrival) -> {
            throw new IllegalStateException("a listener's bug");
        });
        PvaPorts.Port b = listen(port, searchesOn(LO), second);
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            send(peer, new byte[] {(byte) 0xCA, 2, 0, 0, 0, 0, 0, 99, 1}, LO, port);
            send(peer, beacon(1), LO, port);
            await().atMost(Duration.ofSeconds(5)).until(() -> second.got.size() == 2);
        }
        assertThat(second.got.get(0).contents().dropped()).isTrue();
        assertThat(second.got.get(1).contents().dropped()).isFalse();
        close(a);
        close(b);
    }

    @Test
    void theSearchSocketSendsAndReadsTheRepliesSentBack() throws Exception {
        Recorder client = new Recorder();
        PvaPorts.Port search = clock.call(() -> owner.searchSocket(client));
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            server.setSoTimeout(5000);
            InetSocketAddress to = (InetSocketAddress) server.getLocalSocketAddress();
            clock.call(() -> search.send(Unpooled.wrappedBuffer(beacon(4)), to));
            DatagramPacket in = new DatagramPacket(new byte[100], 100);
            server.receive(in);
            assertThat(((InetSocketAddress) in.getSocketAddress()).getPort()).isEqualTo(search.port());
            await().atMost(Duration.ofSeconds(5)).until(() -> client.sent.size() == 1);
            send(server, beacon(5), LO, search.port());
            await().atMost(Duration.ofSeconds(5)).until(() -> client.got.size() == 1);
            assertThat(client.got.get(0).arrival().kind()).isEqualTo(Kind.SEARCH_SOCKET);
            assertThat(sequenceOf(client.got.get(0))).isEqualTo(5);
        }
        close(search);
        assertThat(clock.call(() -> search.send(Unpooled.wrappedBuffer(beacon(6)), new InetSocketAddress(LO, 9))))
                .as("closed").isFalse();
    }
}
