package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.pva.wire.Beacon;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.PvaCodec;
import org.junit.jupiter.api.Test;

/** Beacons from the running service on loopback, with the schedule driven in virtual time. */
class BeaconSenderTest {

    static List<Beacon> drain(DatagramSocket s, int millis) throws Exception {
        List<Beacon> out = new ArrayList<>();
        byte[] buf = new byte[2048];
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            s.setSoTimeout((int) Math.max(1, (end - System.nanoTime()) / 1_000_000L));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                s.receive(p);
            } catch (SocketTimeoutException e) {
                break;
            }
            for (Frame f : PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(p.getData(), 0, p.getLength())).frames()) {
                if (f.message() instanceof Beacon b) {
                    out.add(b);
                }
            }
        }
        return out;
    }

    @Test
    void tenAtFifteenSecondsThenEvery180AndChangeCountFollowsSources() throws Exception {
        try (DatagramSocket rx = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             ServerHarness h = new ServerHarness(new FakeResolved(), false)
                     .start(ServerHarness.pva(0, 0, List.of(new PvaAddress("127.0.0.1", rx.getLocalPort())),
                             List.of(), true))) {
            List<Beacon> first = drain(rx, 1000);
            assertThat(first).hasSize(1); // at start
            Beacon b0 = first.get(0);
            assertThat(b0.guid().toString()).isEqualTo(h.serverSnapshot().guid());
            assertThat(b0.serverPort()).isEqualTo(h.tcpPort());
            assertThat(b0.sequence()).isZero();
            int change0 = b0.changeCount();

            List<Integer> perStep = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                h.scheduler.advance(Duration.ofSeconds(15));
                perStep.add(drain(rx, 300).size());
            }
            assertThat(perStep).containsOnly(1); // beacons 2..10, 15 s apart
            // the 11th is 180 s after the 10th: nothing at +15 s .. +165 s
            h.scheduler.advance(Duration.ofSeconds(165));
            assertThat(drain(rx, 300)).isEmpty();

            // a source registered: the change count moves
            h.scheduler.call(() -> {
                h.service.registry().add(new Source() {
                    @Override
                    public String name() {
                        return "test";
                    }

                    @Override
                    public void onSearch(SearchOperation op) {
                    }
                });
                return null;
            });
            h.scheduler.advance(Duration.ofSeconds(15));
            List<Beacon> eleventh = drain(rx, 500);
            assertThat(eleventh).hasSize(1);
            assertThat(eleventh.get(0).changeCount()).isNotEqualTo(change0);
            assertThat(eleventh.get(0).sequence()).isEqualTo(10);
            h.scheduler.advance(Duration.ofSeconds(179));
            assertThat(drain(rx, 300)).isEmpty();
            h.scheduler.advance(Duration.ofSeconds(1));
            assertThat(drain(rx, 500)).hasSize(1);
            assertThat(h.serverSnapshot().beaconsSent()).isEqualTo(12);
            assertThat(h.serverSnapshot().beaconChangeCount()).isEqualTo(eleventh.get(0).changeCount());
        }
    }

    @Test
    void guidIsNewPerStart() throws Exception {
        String a;
        try (ServerHarness h = new ServerHarness(new FakeResolved(), false)
                .start(ServerHarness.pva(0, 0, List.of(), List.of(), false))) {
            a = h.serverSnapshot().guid();
            assertThat(h.serverSnapshot().tcpPort()).isZero(); // name server off
        }
        // a different random stream, as every real start gets from a fresh SecureRandom
        ServerHarness h2 = new ServerHarness(new FakeResolved(), false);
        h2.random.nextLong();
        try (ServerHarness h = h2.start(ServerHarness.pva(0, 0, List.of(), List.of(), false))) {
            assertThat(h.serverSnapshot().guid()).hasSize(24).isNotEqualTo(a);
        }
    }

    @Test
    void withoutATcpListenerNothingAnnouncesAnEndpoint() throws Exception {
        // issue 25: with the name server off the server beaconed server_port (5075 by default),
        // where another PVA server listened: its claims looked vouched for by our beacons
        int taken;
        try (java.net.ServerSocket other = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             DatagramSocket rx = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             ServerHarness h = new ServerHarness(new FakeResolved(), false)
                     .start(ServerHarness.pva(0, taken = other.getLocalPort(),
                             List.of(new PvaAddress("127.0.0.1", rx.getLocalPort())), List.of(), false))) {
            h.scheduler.advance(Duration.ofSeconds(15));
            assertThat(drain(rx, 500)).isEmpty();
            assertThat(h.serverSnapshot().beaconsSent()).isZero();
            try (RawPva c = new RawPva()) {
                c.send(RawPva.bytes(lookout.engine.pva.wire.SearchRequest.discoveryPing(c.port())), h.udp());
                lookout.engine.pva.wire.SearchResponse r = c.reply(2000);
                assertThat(r).isNotNull();
                assertThat(r.found()).isFalse();
                assertThat(r.serverPort()).isZero().isNotEqualTo(taken);
            }
        }
    }
}
