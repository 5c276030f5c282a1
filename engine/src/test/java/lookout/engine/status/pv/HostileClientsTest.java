package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.StatusPvsSnapshot;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.wire.ClientValidation;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile clients of the status PVs over real TCP on loopback, the engine in virtual time: a client
 * that never reads while a thousand monitors of its connection are posted to is dropped by the
 * slow-client rule (so its bytes never reached the connection's hard limit: memory stayed bounded),
 * and oversized lengths, garbage, truncated bodies and unknown commands close only their own
 * connection while a well-behaved client is served throughout. No exception reaches a log.
 */
class HostileClientsTest {

    static final String CONFIG = """
            resolver => { listen => [ 127.0.0.1:0 ] }
            pva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              broadcast_port => UDP
              server_port => TCP
              beacon_addr_list => [ 127.0.0.1 ]
              auto_beacon_addr_list => false
              server => { enable => true, name_server => true }
            }
            status => { pv_prefix => "H:" }
            """;

    @TempDir
    Path dir;
    private VirtualScheduler clock;
    private Engine engine;
    private int port;
    private final List<LogRecord> thrown = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public synchronized void publish(LogRecord r) {
            if (r.getThrown() != null && r.getLevel().intValue() >= Level.INFO.intValue()) {
                thrown.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void start() {
        Logger.getLogger("").addHandler(capture);
        clock = new VirtualScheduler();
        engine = Engines.create(EngineOptions.forTest(clock, new Random(3), dir).withPvaForwarding(false));
        ConfigResult cr = new ConfigLoader(Map.of()).parse(CONFIG.replace("UDP", String.valueOf(freeUdpPort()))
                .replace("TCP", String.valueOf(freeTcpPort())), "h.conf", dir);
        assertThat(cr.problems()).isEmpty();
        engine.start(cr.config());
        clock.advance(Duration.ofMillis(300)); // the first tick publishes
        port = engine.snapshot().pvaServer().tcpPort();
        assertThat(engine.snapshot().statusPvs().pvs()).hasSize(StatusPvCatalog.ALL.size());
    }

    @AfterEach
    void stop() {
        engine.stop();
        clock.close();
        Logger.getLogger("").removeHandler(capture);
    }

    static int freeTcpPort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static int freeUdpPort() {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] message(int command, java.util.function.Consumer<PvWriter> body) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(0xCA).writeByte(2).writeByte(0x80).writeByte(command).writeInt(0);
        body.accept(new PvWriter(b));
        b.setInt(4, b.writerIndex() - 8);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    static byte[] validation() {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(ClientValidation.anonymous(), b);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    static byte[] emptyRequest() {
        return new byte[] {(byte) 0x80, 0, 0};
    }

    private Socket connect(int receiveBuffer) throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(5000);
        s.getOutputStream().write(validation());
        return s;
    }

    /** Reads messages until one of {@code command} arrives (bounded by the socket timeout). */
    private static byte[] await(InputStream in, int command) throws IOException {
        DataInputStream d = new DataInputStream(in);
        for (int i = 0; i < 100; i++) {
            byte[] h = new byte[8];
            d.readFully(h);
            int len = ((h[2] & 0x01) != 0) ? 0 : java.nio.ByteBuffer.wrap(h, 4, 4).getInt();
            byte[] body = new byte[len];
            d.readFully(body);
            if ((h[2] & 0x01) == 0 && (h[3] & 0xFF) == command) {
                return body;
            }
        }
        throw new IOException("no message 0x" + Integer.toHexString(command));
    }

    private void assertServed(Socket good) throws IOException {
        OutputStream out = good.getOutputStream();
        out.write(message(0x07, w -> w.i16(1).i32(1).string("H:config:version")));
        byte[] created = await(good.getInputStream(), 0x07);
        int sid = java.nio.ByteBuffer.wrap(created, 4, 4).getInt();
        assertThat(sid).isPositive();
        int ioid = 1000 + sid;
        out.write(message(0x0A, w -> {
            w.i32(sid).i32(ioid).u8(0x08);
            w.buffer().writeBytes(emptyRequest());
        }));
        await(good.getInputStream(), 0x0A);
        out.write(message(0x0A, w -> w.i32(sid).i32(ioid).u8(0x50)));
        byte[] got = await(good.getInputStream(), 0x0A);
        assertThat(got[5] & 0xFF).isEqualTo(0xFF); // Status OK
    }

    private StatusPvsSnapshot pvs() {
        return engine.snapshot().statusPvs();
    }

    @Test
    void aClientThatNeverReadsIsDroppedBeforeItsBacklogReachesTheHardLimit() throws Exception {
        try (Socket slow = connect(1024); Socket good = connect(0)) {
            OutputStream out = slow.getOutputStream();
            out.write(message(0x07, w -> w.i16(1).i32(1).string("H:engine:uptime_s")));
            for (int ioid = 1; ioid <= 1000; ioid++) {
                int id = ioid;
                out.write(message(0x0D, w -> {
                    w.i32(1).i32(id).u8(0x08);
                    w.buffer().writeBytes(emptyRequest());
                }));
                out.write(message(0x0D, w -> w.i32(1).i32(id).u8(0x44)));
            }
            out.flush();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (pvs().monitors() < 1000 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(pvs().monitors()).isEqualTo(1000);
            long refusedBefore = engine.snapshot().pvaServer().nameServerRefused();
            for (int s = 0; s < 180 && pvs().slowClients() == 0; s++) {
                clock.advance(Duration.ofSeconds(1)); // uptime changes: 1000 updates a second
                Thread.sleep(5);
            }
            assertThat(pvs().slowClients()).as("dropped as a slow client").isEqualTo(1);
            // dropped by the slow-client rule, not by the hard backlog limit of the connection
            assertThat(engine.snapshot().pvaServer().nameServerRefused()).isEqualTo(refusedBefore);
            assertThat(pvs().monitors()).isZero();
            assertServed(good);
        }
        assertThat(thrown).isEmpty();
    }

    @Test
    void hostileStreamsCloseOnlyTheirOwnConnection() throws Exception {
        List<byte[]> hostile = List.of(
                // a header announcing 2 GiB
                new byte[] {(byte) 0xCA, 2, (byte) 0x80, 0x07, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0, 0, 1},
                // not PVA at all
                "GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                // a channel name whose Size is beyond the message
                message(0x07, w -> w.i16(1).i32(1).u8(0xFE).i32(0x7FFFFFFF)),
                // a type description cut short
                message(0x0D, w -> w.i32(1).i32(1).u8(0x08).u8(0x80).u8(0x05)));
        try (Socket good = connect(0)) {
            assertServed(good);
            long malformedBefore = pvs().malformed();
            for (byte[] h : hostile) {
                try (Socket bad = connect(0)) {
                    bad.getOutputStream().write(h);
                    assertThat(closedByServer(bad)).as("closed after %d hostile bytes", h.length).isTrue();
                }
            }
            try (Socket odd = connect(0)) { // an unknown command is skipped, not fatal
                odd.getOutputStream().write(message(0x33, w -> w.i32(7)));
                odd.getOutputStream().write(message(0x07, w -> w.i16(1).i32(1).string("H:config:version")));
                assertThat(await(odd.getInputStream(), 0x07)).isNotEmpty();
            }
            assertServed(good);
            assertThat(pvs().malformed()).isEqualTo(malformedBefore + 2);
        }
        assertThat(thrown).isEmpty();
    }

    /** True when the server closes the connection (reads end) within the socket timeout. */
    private static boolean closedByServer(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        try {
            for (int i = 0; i < 1000; i++) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
        return false;
    }
}
