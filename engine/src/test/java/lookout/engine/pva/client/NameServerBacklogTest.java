package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.config.PvaConfig;
import lookout.engine.pva.wire.ConnectionValidated;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.ServerValidation;
import lookout.engine.pva.wire.SetByteOrder;
import org.junit.jupiter.api.Test;

/** seed 002 §6: a name-server connection with more than 64 KiB queued is skipped. */
class NameServerBacklogTest {

    @Test
    void appendsStopAt64KiBQueuedAndResumeOnALaterTick() throws Exception {
        AtomicLong received = new AtomicLong();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             TestContext ctx = new TestContext()) {
            Thread server = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    OutputStream out = s.getOutputStream();
                    ByteBuf b = Unpooled.buffer();
                    PvaCodec.encode(new SetByteOrder(true), b);
                    PvaCodec.encode(ServerValidation.standard(), b);
                    out.write(bytes(b));
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[65536];
                    int n = in.read(buf); // the client's CONNECTION_VALIDATION
                    received.addAndGet(-Math.max(0, n));
                    b = Unpooled.buffer();
                    PvaCodec.encode(ConnectionValidated.OK, b);
                    out.write(bytes(b));
                    while ((n = in.read(buf)) > 0) {
                        received.addAndGet(n);
                    }
                } catch (Exception e) {
                    // closed at the end of the test
                }
            }, "fake-name-server");
            server.setDaemon(true);
            server.start();

            PvaConfig pva = TestContext.pva(List.of(), List.of(new PvaConfig.PvaAddress("127.0.0.1",
                    listener.getLocalPort())), TestContext.freeUdpPort(), List.of(), List.of());
            PvaClientService svc = new PvaClientService();
            ctx.virtual().call(() -> {
                svc.start(ctx, TestContext.config(pva));
                return null;
            });
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    ctx.virtual().call(() -> svc.snapshot().nameServers().get(0).state()).equals("READY"));
            received.set(0);
            // 3000 names of 100 characters: ~315 KB of searches in the first (coalesced) drain
            ctx.virtual().call(() -> {
                for (int i = 0; i < 3000; i++) {
                    svc.searchPv(String.format("backlog:%092d", i));
                }
                return null;
            });
            ctx.virtual().advance(Duration.ofMillis(10));
            PvaNameServerSnapshot ns = ctx.virtual().call(() -> svc.snapshot().nameServers().get(0));
            long datagrams = ctx.virtual().call(() -> svc.snapshot().lastTick().datagrams());
            long size = ctx.virtual().call(() -> svc.snapshot().lastTick().maxDatagram());
            assertThat(datagrams).isGreaterThan(200);
            // appended until about 64 KiB was queued (Netty also counts ~96 bytes per queued
            // message), then every further datagram of the tick skipped
            assertThat(ns.searchesSent() * size).isBetween(64L * 1024 * 9 / 10, 64L * 1024 + size);
            assertThat(ns.skipped()).isEqualTo(datagrams - ns.searchesSent());
            // what the server got is exactly the appended datagrams, nothing of the skipped ones
            await().atMost(Duration.ofSeconds(10)).until(() -> received.get() >= ns.searchesSent() * size);
            assertThat(received.get()).isEqualTo(ns.searchesSent() * size);
            // once drained, the next tick appends again
            ctx.virtual().advance(Duration.ofSeconds(1));
            PvaNameServerSnapshot later = ctx.virtual().call(() -> svc.snapshot().nameServers().get(0));
            assertThat(later.searchesSent()).isGreaterThan(ns.searchesSent());
            ctx.virtual().call(() -> {
                svc.stop();
                return null;
            });
        }
    }

    @Test
    void theSkipIsAbove64KiBQueuedWhicheverWayTheQueueMoves() {
        // Netty's writability keeps a connection unwritable until its queue falls below the low
        // water mark (32 KiB by default): §6 skips only while more than 64 KiB is queued
        io.netty.channel.embedded.EmbeddedChannel ch = new io.netty.channel.embedded.EmbeddedChannel();
        try {
            assertThat(NameServerConnection.backlogged(ch)).isFalse();
            ch.write(Unpooled.wrappedBuffer(new byte[30 * 1024]));
            ch.write(Unpooled.wrappedBuffer(new byte[40 * 1024]));
            io.netty.channel.ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            assertThat(ch.isWritable()).isFalse();
            assertThat(NameServerConnection.backlogged(ch)).isTrue();
            // the first 30 KiB leave: 40 KiB (and Netty's per-message overhead) still queued —
            // still unwritable by Netty's flag, no longer backlogged by §6
            out.addFlush();
            out.removeBytes(30 * 1024);
            long queued = out.totalPendingWriteBytes();
            assertThat(queued).isBetween(40L * 1024, 41L * 1024);
            assertThat(ch.isWritable()).isFalse();
            assertThat(NameServerConnection.backlogged(ch)).isFalse();
            // up to exactly 64 KiB is not "more than"; one byte more is
            long perMessage = queued - 40L * 1024;
            ch.write(Unpooled.wrappedBuffer(new byte[(int) (64L * 1024 - queued - perMessage)]));
            assertThat(out.totalPendingWriteBytes()).isEqualTo(64L * 1024);
            assertThat(NameServerConnection.backlogged(ch)).isFalse();
            ch.write(Unpooled.wrappedBuffer(new byte[1]));
            assertThat(NameServerConnection.backlogged(ch)).isTrue();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        return a;
    }

}
