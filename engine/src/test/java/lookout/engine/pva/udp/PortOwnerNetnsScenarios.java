package lookout.engine.pva.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
import lookout.engine.core.TestServiceContext;
import lookout.engine.net.HostPort;
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

/**
 * Broadcasts on the shared port, in a private network namespace (its {@code lo} carries
 * 10.9.0.1/24; {@link PortOwnerNetnsTest} starts this class there and reads its verdict lines):
 * the kernel gives a broadcast to the broadcast address's socket and to the wildcard socket both,
 * and the port owner hands it to a catch-all listener (the PVA client) once and to a listener of
 * that broadcast address (the PVA server) once. Before the port owner the client counted such a
 * beacon twice (its own socket's copy, and the one the server passed on).
 */
public final class PortOwnerNetnsScenarios {

    static final int PORT = 5076;
    private static int failures;

    public static void main(String[] args) throws Exception {
        if (!"broadcast".equals(args[0])) {
            throw new IllegalArgumentException(args[0]);
        }
        broadcast();
        System.out.flush();
        System.exit(failures);
    }

    private static void check(String name, boolean ok, String why) {
        if (ok) {
            System.out.println("PASS " + name);
        } else {
            failures++;
            System.out.println("FAIL " + name + ": " + why);
        }
    }

    record Got(int sequence, Arrival arrival) {
    }

    static final class Recorder implements PvaPorts.Receiver {
        final List<Got> got = new CopyOnWriteArrayList<>();

        @Override
        public void datagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
            if (!contents.dropped() && contents.frames().get(0).message() instanceof Beacon b) {
                got.add(new Got(b.sequence(), arrival));
            }
        }

        long count(int sequence) {
            return got.stream().filter(g -> g.sequence() == sequence).count();
        }

        Kind kind(int sequence) {
            return got.stream().filter(g -> g.sequence() == sequence).map(g -> g.arrival().kind()).findFirst()
                    .orElse(null);
        }
    }

    static byte[] beacon(int sequence) {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(new Beacon(Guid.parse("0102030405060708090a0b0c"), 0, sequence, 0, WireAddress.ANY_MAPPED,
                5075, "tcp"), b);
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        return a;
    }

    static boolean await(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    private static void broadcast() throws Exception {
        InetAddress own = HostPort.literal("10.9.0.1");
        InetAddress subnet = HostPort.literal("10.9.0.255");
        VirtualScheduler clock = new VirtualScheduler();
        try (TestServiceContext ctx = new TestServiceContext(clock, RandomGenerator.of("L64X128MixRandom"),
                Path.of(System.getProperty("java.io.tmpdir")), Map.of());
             DatagramSocket peer = new DatagramSocket(new InetSocketAddress(own, 0))) {
            peer.setBroadcast(true);
            PortOwner owner = new PortOwner();
            owner.start(ctx, null);
            System.out.println("INFO destinations known (epoll): " + owner.knowsDestinations());
            Recorder client = new Recorder();
            Recorder server = new Recorder();
            clock.call(() -> owner.listen(PORT, Interest.everything(), client));
            PvaPorts.Port s = clock.call(() -> owner.listen(PORT, new Interest(false,
                    List.of(new LocalAddress(own, subnet, 24)), true, false, true, false), server));
            check("server listens on its address, broadcast and the limited broadcast",
                    s.bound().containsAll(List.of("10.9.0.1:" + PORT, "10.9.0.255:" + PORT)), "bound " + s.bound());

            byte[] toSubnet = beacon(1);
            peer.send(new DatagramPacket(toSubnet, toSubnet.length, new InetSocketAddress(subnet, PORT)));
            byte[] toOwn = beacon(2);
            peer.send(new DatagramPacket(toOwn, toOwn.length, new InetSocketAddress(own, PORT)));
            byte[] limited = beacon(3);
            peer.send(new DatagramPacket(limited, limited.length, new InetSocketAddress(PvaPorts.LIMITED_BROADCAST, PORT)));
            // each socket's read is handed to every listener at once: once both have seen every
            // datagram, no copy can still come
            boolean all = await(() -> client.count(1) >= 1 && client.count(2) >= 1 && client.count(3) >= 1
                    && server.count(1) >= 1 && server.count(2) >= 1);
            check("every datagram reached both", all, "client " + client.got + ", server " + server.got);
            check("a broadcast reaches the client once, from the wildcard socket",
                    client.count(1) == 1 && client.kind(1) == Kind.WILDCARD, "client " + client.got);
            check("a broadcast reaches the server once, from its broadcast socket, answered from its own address",
                    server.count(1) == 1 && server.kind(1) == Kind.BROADCAST
                            && own.equals(server.got.stream().filter(g -> g.sequence() == 1).findFirst().orElseThrow()
                                    .arrival().replyFrom()), "server " + server.got);
            check("a unicast reaches both once", client.count(2) == 1 && server.count(2) == 1
                    && client.kind(2) == Kind.OWN_UNICAST, "client " + client.got + ", server " + server.got);
            check("a limited broadcast is told apart on epoll, answered from the address on the sender's subnet",
                    !owner.knowsDestinations() || (client.kind(3) == Kind.LIMITED_BROADCAST && await(() -> server.count(3) == 1)
                            && own.equals(server.got.stream().filter(g -> g.sequence() == 3).findFirst().orElseThrow()
                                    .arrival().replyFrom())), "client " + client.got + ", server " + server.got);
            clock.call(() -> {
                owner.stop();
                return null;
            });
        }
    }
}
