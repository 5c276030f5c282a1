package lookout.engine.pva.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import lookout.engine.pva.wire.ClientValidation;
import lookout.engine.pva.wire.ConnectionValidated;
import lookout.engine.pva.wire.Decoded;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.PvaMessage;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.ServerValidation;
import lookout.engine.pva.wire.WireAddress;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The TCP name server: handshake, searches and pings on the connection, hostile streams. */
class NameServerTcpTest {

    final FakeResolved resolved = new FakeResolved();
    ServerHarness h;

    @BeforeEach
    void start() {
        resolved.resolve("demo:pv", "0102030405060708090a0b0c", new InetSocketAddress("127.0.0.9", 5999));
        h = new ServerHarness(resolved, false).start(ServerHarness.pva(0, 0, List.of(), List.of(), true));
    }

    @AfterEach
    void stop() {
        h.close();
    }

    static PvaMessage readFrame(DataInputStream in) throws IOException {
        byte[] head = new byte[8];
        in.readFully(head);
        boolean be = (head[2] & 0x80) != 0;
        boolean control = (head[2] & 0x01) != 0;
        int len = control ? 0 : ByteBuffer.wrap(head, 4, 4).order(be ? java.nio.ByteOrder.BIG_ENDIAN
                : java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] all = new byte[8 + len];
        System.arraycopy(head, 0, all, 0, 8);
        in.readFully(all, 8, len);
        Decoded d = PvaCodec.decodeFrame(Unpooled.wrappedBuffer(all));
        assertThat(d).isInstanceOf(Decoded.Ok.class);
        return ((Decoded.Ok) d).frame().message();
    }

    /** Connects and completes the handshake as a client; returns the socket. */
    private Socket handshake() throws IOException {
        Socket s = new Socket("127.0.0.1", h.tcpPort());
        s.setSoTimeout(5000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        PvaMessage first = readFrame(in); // SET_BYTE_ORDER
        PvaMessage second = readFrame(in);
        assertThat(second).isInstanceOf(ServerValidation.class);
        s.getOutputStream().write(RawPva.bytes(ClientValidation.anonymous()));
        assertThat(readFrame(in)).isEqualTo(ConnectionValidated.OK);
        assertThat(first).isNotNull();
        return s;
    }

    private static byte[] tcpSearch(int flags, String... names) {
        List<SearchRequest.Name> ns = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            ns.add(new SearchRequest.Name(i + 1, names[i]));
        }
        return RawPva.bytes(new SearchRequest(3, flags, WireAddress.ANY_ZERO, 0, List.of("tcp"), ns));
    }

    @Test
    void searchAndDiscoveryOnTheConnection() throws Exception {
        try (Socket s = handshake()) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            s.getOutputStream().write(tcpSearch(0, "nope", "demo:pv"));
            SearchResponse r = (SearchResponse) readFrame(in);
            assertThat(r.found()).isTrue();
            assertThat(r.cids()).containsExactly(2);
            assertThat(r.serverPort()).isEqualTo(5999); // §6: the endpoint named need not be ourselves

            s.getOutputStream().write(RawPva.bytes(SearchRequest.discoveryPing(0)));
            SearchResponse ping = (SearchResponse) readFrame(in);
            assertThat(ping.found()).isFalse();
            assertThat(ping.cids()).isEmpty();
            assertThat(ping.serverPort()).isEqualTo(h.tcpPort()); // the receiving listener's port
            assertThat(ping.guid().toString()).isEqualTo(h.serverSnapshot().guid());
        }
    }

    @Test
    void aTcpClientIsOneAskerPerConnectionAndItsOwnConnectionIsNeverWanted() throws Exception {
        try (Socket a = handshake(); Socket b = handshake()) {
            a.getOutputStream().write(tcpSearch(0, "tcp:one", "tcp:two"));
            b.getOutputStream().write(tcpSearch(0, "tcp:three"));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> resolved.wanted.size() == 3);
            assertThat(resolved.wanted).containsExactlyInAnyOrder("tcp:one", "tcp:two", "tcp:three");
            List<String> clients = h.serverSnapshot().onDemand().topClients().stream()
                    .map(c -> c.client() + "=" + c.unresolved()).toList();
            assertThat(clients).containsExactlyInAnyOrder("tcp 127.0.0.1:" + a.getLocalPort() + "=2",
                    "tcp 127.0.0.1:" + b.getLocalPort() + "=1");
        }
        // the engine's own client searching over a connection of its own: answered, never wanted
        try (Socket own = handshake()) {
            resolved.ownSearchers.add(new InetSocketAddress("127.0.0.1", own.getLocalPort()));
            own.getOutputStream().write(tcpSearch(Pva.SEARCH_MUST_REPLY, "own:pv", "demo:pv"));
            DataInputStream in = new DataInputStream(own.getInputStream());
            PvaMessage m = readFrame(in);
            assertThat(m).isInstanceOf(SearchResponse.class);
            assertThat(((SearchResponse) m).cids()).containsExactly(2);
            assertThat(resolved.wanted).doesNotContain("own:pv");
            assertThat(h.serverSnapshot().ownSearches()).isEqualTo(1);
        }
    }

    private void assertStillServing() throws Exception {
        try (Socket s = handshake()) {
            s.getOutputStream().write(RawPva.bytes(SearchRequest.discoveryPing(0)));
            assertThat(readFrame(new DataInputStream(s.getInputStream()))).isInstanceOf(SearchResponse.class);
        }
    }

    private static boolean closedByPeer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            byte[] buf = new byte[4096];
            while (System.nanoTime() < end) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    void garbageAfterHandshakeClosesTheConnectionOnly() throws Exception {
        try (Socket s = handshake()) {
            byte[] junk = new byte[4096];
            new SplittableRandom(1).nextBytes(junk);
            junk[0] = 0x00; // not the magic
            s.getOutputStream().write(junk);
            assertThat(closedByPeer(s)).isTrue();
        }
        assertStillServing();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> h.serverSnapshot().nameServerRefused() >= 1);
    }

    @Test
    void oversizedLengthIsNotBufferedToward() throws Exception {
        try (Socket s = handshake()) {
            OutputStream out = s.getOutputStream();
            // a SEARCH header announcing 2 GiB
            out.write(new byte[] {(byte) 0xCA, 2, (byte) 0x80, 3, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
            out.write(new byte[1024]);
            assertThat(closedByPeer(s)).isTrue();
        }
        assertStillServing();
    }

    @Test
    void mutatedFramesAfterHandshakeNeverKillTheServer() throws Exception {
        byte[] good = tcpSearch(Pva.SEARCH_MUST_REPLY, "demo:pv", "x");
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 50; round++) {
            try (Socket s = handshake()) {
                byte[] m = good.clone();
                for (int k = 0; k < 3; k++) {
                    m[8 + rnd.nextInt(m.length - 8)] = (byte) rnd.nextInt(256);
                }
                s.getOutputStream().write(m);
                s.getOutputStream().write(RawPva.bytes(SearchRequest.discoveryPing(0)));
                s.setSoTimeout(300);
                try {
                    while (true) {
                        readFrame(new DataInputStream(s.getInputStream()));
                    }
                } catch (SocketTimeoutException | EOFException e) {
                    // either answered, or the frame was counted malformed
                }
            }
        }
        assertStillServing();
    }

    @Test
    void aClientThatNeverReadsIsStoppedNotBuffered() throws Exception {
        ByteBuf one = Unpooled.wrappedBuffer(tcpSearch(Pva.SEARCH_MUST_REPLY, "demo:pv", "a", "b", "c"));
        byte[] chunk = new byte[one.readableBytes() * 256];
        for (int i = 0; i < 256; i++) {
            one.getBytes(0, chunk, i * one.readableBytes(), one.readableBytes());
        }
        long written = 0;
        boolean closed = false;
        try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", h.tcpPort()))) {
            ch.write(ByteBuffer.wrap(RawPva.bytes(ClientValidation.anonymous())));
            ch.configureBlocking(false);
            long end = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            long lastProgress = System.nanoTime();
            ByteBuffer buf = ByteBuffer.wrap(chunk);
            // Write as fast as the server reads; never read a reply. Bounded by time and volume.
            while (System.nanoTime() < end && written < 512L * 1024 * 1024) {
                if (!buf.hasRemaining()) {
                    buf.rewind();
                }
                int n;
                try {
                    n = ch.write(buf);
                } catch (IOException e) {
                    closed = true;
                    break;
                }
                if (n > 0) {
                    written += n;
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > Duration.ofSeconds(2).toNanos()) {
                    break; // stalled: the server stopped reading
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        System.out.println("never-reading client: wrote " + written + " bytes, closed " + closed);
        // Each search is answered with ~53 bytes; had the server kept reading and queueing replies,
        // 512 MiB of searches would have been accepted. It either stopped reading (the kernel
        // window then stopped us) or closed the connection at its backlog limit.
        assertThat(closed || written < 64L * 1024 * 1024).as("written " + written + ", closed " + closed).isTrue();
        assertStillServing();
    }
}
