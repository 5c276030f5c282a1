package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeDatagram}, the natively read UDP socket, against the JDK's own datagram sockets on
 * loopback: what a receive hands over (length, bytes, sender, cut datagrams), where answers go
 * (back over the sender's own name, to any address, from another thread), and that a reader
 * blocked in {@code recvmmsg} is woken by a shutdown; that errors come with their errno; and, on a
 * wildcard address, each datagram's destination and answers leaving from it (127.0.0.2 is as much
 * this host's as 127.0.0.1). The engine's build puts liblookoutnet.so among the classes
 * (engine/pom.xml); where it cannot load, these are skipped and say why.
 */
class NativeDatagramTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @BeforeEach
    void available() {
        String why = Transport.nativeDatagramsUnavailable();
        assumeTrue(why == null, () -> "native datagrams unavailable here: " + why);
    }

    private static DatagramSocket client() throws IOException {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        s.setSoTimeout(5000); // a bound on a lost datagram, never reached when the code works
        return s;
    }

    private static void send(DatagramSocket from, String text, InetSocketAddress to) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        from.send(new DatagramPacket(b, b.length, to));
    }

    private static String receive(DatagramSocket s) throws IOException {
        DatagramPacket p = new DatagramPacket(new byte[70000], 70000);
        s.receive(p);
        return new String(p.getData(), 0, p.getLength(), StandardCharsets.US_ASCII);
    }

    /** Receives on a reader thread of its own (a batch is confined to the thread that made it). */
    private static <T> T onReader(NativeDatagram socket, int slot, java.util.function.Function<NativeDatagram.Batch, T> work)
            throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (NativeDatagram.Batch b = socket.new Batch(slot)) {
                result.complete(work.apply(b));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        t.start();
        try {
            return result.get(10, TimeUnit.SECONDS);
        } finally {
            socket.shutdown();
            t.join(5000);
        }
    }

    @Test
    void aBurstIsReceivedWithLengthsBytesAndSendersAndAnsweredOverEachSendersName() throws Exception {
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client(); DatagramSocket b = client()) {
            InetSocketAddress server = socket.localAddress();
            assertThat(server.getAddress()).isEqualTo(LOOPBACK);
            assertThat(server.getPort()).isPositive();
            send(a, "one", server);
            send(b, "second", server);
            send(a, "third!", server);
            Set<String> seen = onReader(socket, 4096, batch -> {
                Set<String> got = new HashSet<>();
                int total = 0;
                for (int round = 0; round < 3 && total < 3; round++) { // MSG_WAITFORONE: 1 to 3 at a time
                    int n = batch.receive();
                    assertThat(n).isBetween(1, 3);
                    for (int i = 0; i < n; i++) {
                        byte[] bytes = new byte[batch.length(i)];
                        batch.copy(i, bytes, bytes.length);
                        String text = new String(bytes, StandardCharsets.US_ASCII);
                        InetSocketAddress from = batch.sender(i);
                        assertThat(batch.truncated(i)).isFalse();
                        got.add(text + "@" + from.getPort());
                        byte[] answer = ("re:" + text).getBytes(StandardCharsets.US_ASCII);
                        batch.answer(i, answer, answer.length);
                    }
                    batch.flush();
                    total += n;
                }
                assertThat(batch.sendErrors()).isZero();
                return got;
            });
            assertThat(seen).containsExactlyInAnyOrder("one@" + a.getLocalPort(), "second@" + b.getLocalPort(),
                    "third!@" + a.getLocalPort());
            assertThat(Set.of(receive(a), receive(a))).containsExactlyInAnyOrder("re:one", "re:third!");
            assertThat(receive(b)).isEqualTo("re:second");
        }
    }

    @Test
    void moreAnswersThanOneSendTakesAreSentInSeveralAndNoneIsLost() throws Exception {
        int count = NativeDatagram.BATCH * 2 + 3;
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            send(a, "go", socket.localAddress());
            onReader(socket, 512, batch -> {
                assertThat(batch.receive()).isEqualTo(1);
                InetSocketAddress to = batch.sender(0);
                for (int k = 0; k < count; k++) {
                    byte[] answer = ("answer " + k).getBytes(StandardCharsets.US_ASCII);
                    if (k % 2 == 0) {
                        batch.answer(0, answer, answer.length); // the sender's own name
                    } else {
                        batch.answer(to, answer, answer.length); // an address encoded
                    }
                }
                batch.flush();
                return null;
            });
            Set<String> got = new HashSet<>();
            for (int k = 0; k < count; k++) {
                got.add(receive(a));
            }
            assertThat(got).hasSize(count).contains("answer 0", "answer " + (count - 1));
        }
    }

    @Test
    void aDatagramLongerThanTheSlotArrivesCutAndFlagged() throws Exception {
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            send(a, "x".repeat(700), socket.localAddress());
            int[] lengthAndFlag = onReader(socket, 512, batch -> {
                assertThat(batch.receive()).isEqualTo(1);
                return new int[] {batch.length(0), batch.truncated(0) ? 1 : 0};
            });
            assertThat(lengthAndFlag).containsExactly(512, 1);
        }
    }

    /** The flag and the length are each datagram's own: a cut one beside a whole one in the same burst. */
    @Test
    void inABurstOnlyTheLongDatagramIsFlaggedCut() throws Exception {
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            send(a, "y".repeat(700), socket.localAddress());
            send(a, "short", socket.localAddress());
            java.util.List<String> got = onReader(socket, 512, batch -> {
                java.util.List<String> seen = new java.util.ArrayList<>();
                for (int round = 0; round < 2 && seen.size() < 2; round++) { // MSG_WAITFORONE: 1 or 2 at a time
                    int n = batch.receive();
                    for (int i = 0; i < n; i++) {
                        seen.add(batch.length(i) + (batch.truncated(i) ? " cut" : " whole"));
                    }
                }
                return seen;
            });
            assertThat(got).containsExactly("512 cut", "5 whole");
        }
    }

    @Test
    void anyThreadMaySendAndAnIpv4SocketRefusesAnIpv6Destination() throws Exception {
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            byte[] hello = "hello from elsewhere".getBytes(StandardCharsets.US_ASCII);
            CompletableFuture<Boolean> sent = CompletableFuture.supplyAsync(
                    () -> socket.sendTo(hello, hello.length, new InetSocketAddress(LOOPBACK, a.getLocalPort())));
            assertThat(sent.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(receive(a)).isEqualTo("hello from elsewhere");
            assertThat(socket.sendTo(hello, hello.length, new InetSocketAddress(InetAddress.getByName("::1"), 53))).isFalse();
        }
    }

    @Test
    void aReaderBlockedInReceiveIsWokenByShutdown() throws Exception {
        NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
        CompletableFuture<Integer> got = new CompletableFuture<>();
        CompletableFuture<Void> reading = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (NativeDatagram.Batch b = socket.new Batch(512)) {
                reading.complete(null);
                got.complete(b.receive());
            } catch (Throwable e) {
                got.completeExceptionally(e);
            }
        });
        t.start();
        reading.get(10, TimeUnit.SECONDS);
        assertThat(got).isNotDone(); // nothing was sent: it blocks (or is about to)
        socket.shutdown();
        assertThat(got.get(10, TimeUnit.SECONDS)).isZero();
        t.join(5000);
        assertThat(t.isAlive()).isFalse();
        socket.close();
        assertThat(socket.isShut()).isTrue();
        byte[] late = {1};
        assertThat(socket.sendTo(late, 1, new InetSocketAddress(LOOPBACK, 9))).isFalse(); // closed: refused, no crash
    }

    /** gdnsd's socket options: no DF, no path-MTU discovery on answers (IPv6: also at the minimum MTU). */
    @Test
    void answersLeaveWithoutPathMtuDiscovery() throws Exception {
        try (NativeDatagram v4 = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0)) {
            assertThat(v4.intOption(NativeDatagram.SOL_IP, NativeDatagram.IP_MTU_DISCOVER)).isEqualTo(NativeDatagram.PMTUDISC_OMIT);
        }
        NativeDatagram v6;
        try {
            v6 = NativeDatagram.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0), 0, 0);
        } catch (IOException e) {
            return; // no IPv6 loopback here: the IPv4 half stands
        }
        try (NativeDatagram s = v6) {
            assertThat(s.intOption(NativeDatagram.SOL_IPV6, NativeDatagram.IPV6_MTU_DISCOVER)).isEqualTo(NativeDatagram.PMTUDISC_OMIT);
        }
    }

    @Test
    void aTakenPortIsABindErrorUnlessBothShareIt() throws Exception {
        try (NativeDatagram first = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0)) {
            assertThatThrownBy(() -> NativeDatagram.bind(first.localAddress(), 0, 0))
                    .isInstanceOf(IOException.class).hasMessageContaining("in use");
        }
        try (NativeDatagram first = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), NativeDatagram.SHARE_PORT, 0);
             NativeDatagram second = NativeDatagram.bind(first.localAddress(), NativeDatagram.SHARE_PORT, 0)) {
            assertThat(second.localAddress()).isEqualTo(first.localAddress());
        }
    }

    @Test
    void anIpv6SocketReceivesAndAnswersIpv6Clients() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        DatagramSocket probe;
        try {
            probe = new DatagramSocket(new InetSocketAddress(v6, 0));
        } catch (IOException e) {
            assumeTrue(false, "no ::1 here: " + e.getMessage());
            return;
        }
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(v6, 0), 0, 0); DatagramSocket a = probe) {
            a.setSoTimeout(5000);
            assertThat(socket.localAddress().getAddress()).isInstanceOf(Inet6Address.class);
            send(a, "six", socket.localAddress());
            InetSocketAddress from = onReader(socket, 512, batch -> {
                assertThat(batch.receive()).isEqualTo(1);
                byte[] answer = "re:six".getBytes(StandardCharsets.US_ASCII);
                batch.answer(0, answer, answer.length);
                batch.flush();
                return batch.sender(0);
            });
            assertThat(from).isEqualTo(new InetSocketAddress(v6, a.getLocalPort()));
            assertThat(receive(a)).isEqualTo("re:six");
        }
    }

    @Test
    void aTakenPortIsEaddrinuseByItsErrno() throws Exception {
        try (NativeDatagram first = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0)) {
            Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> NativeDatagram.bind(first.localAddress(), 0, 0));
            assertThat(t).isInstanceOf(NetError.NativeIoError.class);
            assertThat(NetError.errnoOf(t)).isEqualTo(NetError.EADDRINUSE);
            assertThat(NetError.of(t).local()).isTrue();
            assertThat(t.getMessage()).endsWith("(errno " + NetError.EADDRINUSE + ")");
        }
    }

    /** The kernel refuses it (EAFNOSUPPORT), and the rest of the batch still goes. */
    @Test
    void anIpv6DestinationOfAnIpv4SocketIsRefusedWithItsErrnoAndCounted() throws Exception {
        InetSocketAddress six = new InetSocketAddress(InetAddress.getByName("::1"), 53);
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            byte[] b = "x".getBytes(StandardCharsets.US_ASCII);
            assertThat(socket.sendTo(b, 1, six)).isFalse();
            assertThat(socket.sendErrno()).isEqualTo(NetError.EAFNOSUPPORT);
            InetSocketAddress to = new InetSocketAddress(LOOPBACK, a.getLocalPort());
            long[] errors = onReader(socket, 512, batch -> {
                byte[] before = "before".getBytes(StandardCharsets.US_ASCII);
                byte[] after = "after".getBytes(StandardCharsets.US_ASCII);
                batch.answer(to, before, before.length);
                batch.answer(six, b, 1);
                batch.answer(to, after, after.length);
                batch.flush();
                return new long[] {batch.sendErrors(), batch.sendErrno()};
            });
            assertThat(errors).containsExactly(1, NetError.EAFNOSUPPORT);
            assertThat(Set.of(receive(a), receive(a))).containsExactlyInAnyOrder("before", "after");
        }
    }

    @Test
    void aReceiveAfterShutdownReturnsAtOnceAndAnErrnoReadsAsTheHostSaysIt() throws Exception {
        NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
        socket.shutdown();
        int[] got = onReader(socket, 512, batch -> new int[] {batch.receive(), batch.errno()});
        assertThat(got).containsExactly(0, 0);
        socket.close();
        assertThat(socket.intOption(NativeDatagram.SOL_IP, NativeDatagram.IP_MTU_DISCOVER)).isEqualTo(-1);
        assertThat(NativeDatagram.describe(NetError.ECONNREFUSED)).isNotBlank().endsWith("(errno 111)");
    }

    /**
     * On a wildcard address every datagram says where it was sent (IP_PKTINFO) and its answer
     * leaves from there — from the reader's batch, and later from any thread with its {@code via}.
     */
    @Test
    void onAWildcardAddressEachDatagramSaysItsDestinationAndItsAnswersLeaveFromIt() throws Exception {
        InetAddress second = InetAddress.getByName("127.0.0.2");
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0), 0, 0);
             DatagramSocket a = client()) {
            int port = socket.localAddress().getPort();
            send(a, "to-first", new InetSocketAddress(LOOPBACK, port));
            send(a, "to-second", new InetSocketAddress(second, port));
            byte[] late = "late".getBytes(StandardCharsets.US_ASCII);
            InetSocketAddress to = new InetSocketAddress(LOOPBACK, a.getLocalPort());
            java.util.Map<String, InetAddress> destinations = onReader(socket, 512, batch -> {
                java.util.Map<String, InetAddress> seen = new java.util.HashMap<>();
                byte[] viaSecond = null;
                for (int round = 0; round < 2 && seen.size() < 2; round++) {
                    int n = batch.receive();
                    for (int i = 0; i < n; i++) {
                        byte[] bytes = new byte[batch.length(i)];
                        batch.copy(i, bytes, bytes.length);
                        String text = new String(bytes, StandardCharsets.US_ASCII);
                        seen.put(text, batch.destination(i));
                        if (text.equals("to-second")) {
                            viaSecond = batch.via(i);
                        }
                        byte[] answer = ("re:" + text).getBytes(StandardCharsets.US_ASCII);
                        batch.answer(i, answer, answer.length);
                    }
                    batch.flush();
                }
                // answers given later, off the batch: with the datagram's via, and with via(address)
                assertThat(socket.sendTo(late, late.length, to, viaSecond)).isTrue();
                assertThat(socket.sendTo(late, late.length, to, socket.via(second))).isTrue();
                return seen;
            });
            assertThat(destinations).containsEntry("to-first", LOOPBACK).containsEntry("to-second", second);
            java.util.Map<String, InetAddress> from = new java.util.HashMap<>();
            java.util.List<InetAddress> lateFrom = new java.util.ArrayList<>();
            for (int k = 0; k < 4; k++) {
                DatagramPacket p = new DatagramPacket(new byte[100], 100);
                a.receive(p);
                String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.US_ASCII);
                if (text.equals("late")) {
                    lateFrom.add(p.getAddress());
                } else {
                    from.put(text, p.getAddress());
                }
            }
            assertThat(from).containsEntry("re:to-first", LOOPBACK).containsEntry("re:to-second", second);
            assertThat(lateFrom).containsExactly(second, second);
            assertThat(socket.via(InetAddress.getByName("0.0.0.0"))).isNull(); // the kernel's choice
        }
    }

    /** A socket on a specific address knows no destinations: its answers leave from its address. */
    @Test
    void aSocketOnASpecificAddressSaysNoDestination() throws Exception {
        try (NativeDatagram socket = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0);
             DatagramSocket a = client()) {
            send(a, "q", socket.localAddress());
            Object[] got = onReader(socket, 512, batch -> {
                assertThat(batch.receive()).isEqualTo(1);
                return new Object[] {batch.destination(0), batch.via(0)};
            });
            assertThat(got).containsExactly(null, null);
            assertThat(socket.via(LOOPBACK)).isNull();
        }
    }

    /**
     * PVA's port is shared: with another process's socket (SO_REUSEADDR, here a JDK socket bound to
     * the wildcard as a PVA client binds it) and among the responder's own (SO_REUSEPORT).
     */
    @Test
    void aPortIsSharedWithOtherProcessesAndAmongItsOwnSockets() throws Exception {
        int share = NativeDatagram.SHARE_PORT | NativeDatagram.SHARE_ADDRESS | NativeDatagram.SHARE_BROADCAST;
        try (NativeDatagram first = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), share, 0);
             NativeDatagram second = NativeDatagram.bind(first.localAddress(), share, 0);
             java.net.DatagramSocket other = new java.net.DatagramSocket(null)) {
            assertThat(second.localAddress()).isEqualTo(first.localAddress());
            other.setReuseAddress(true);
            other.bind(new InetSocketAddress(first.localAddress().getPort()));
            assertThat(other.getLocalPort()).isEqualTo(first.localAddress().getPort());
        }
        // without the flags the port is not shared
        try (NativeDatagram alone = NativeDatagram.bind(new InetSocketAddress(LOOPBACK, 0), 0, 0)) {
            assertThatThrownBy(() -> NativeDatagram.bind(alone.localAddress(), NativeDatagram.SHARE_ADDRESS, 0)
                    .close()).hasMessageContaining("errno 98");
        }
    }
}
