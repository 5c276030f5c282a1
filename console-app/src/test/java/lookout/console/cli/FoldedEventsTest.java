package lookout.console.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import lookout.engine.api.EngineOptions;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The headless event log folds a failing upstream (issue 14's acceptance): one dead upstream
 * under 2 000 questions in 10 s writes at most 10 lines about it, and one recovery line when it
 * answers again. A real engine in virtual time, its resolver on loopback, a fake upstream on
 * loopback that swallows questions (then answers them), and the lines of logger
 * {@code lookout.events} as the headless launcher writes them.
 */
class FoldedEventsTest {

    @TempDir
    Path dir;

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger events = Logger.getLogger("lookout.events");
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.INFO.intValue()) {
                lines.add(r.getLevel() + " " + r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @AfterEach
    void detach() {
        events.removeHandler(capture);
    }

    /** An upstream on 127.0.0.1 that swallows every question until told to answer (NOERROR, no data). */
    static final class Upstream implements AutoCloseable {
        final DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        final AtomicInteger received = new AtomicInteger();
        volatile boolean answering;
        private final Thread thread = new Thread(this::serve, "fake-upstream");

        Upstream() throws SocketException {
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            byte[] buf = new byte[1500];
            while (!socket.isClosed()) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    socket.receive(p);
                } catch (IOException e) {
                    return;
                }
                received.incrementAndGet();
                if (!answering || p.getLength() < 12) {
                    continue;
                }
                byte[] reply = java.util.Arrays.copyOf(p.getData(), p.getLength());
                reply[2] = (byte) 0x81; // QR, RD
                reply[3] = (byte) 0x80; // RA, NOERROR
                try {
                    socket.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
                } catch (IOException e) {
                    return;
                }
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** A DNS question for {@code name}, type A, recursion desired (RFC 1035 §4.1). */
    static byte[] question(int id, String name) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(id >> 8);
        b.write(id);
        b.writeBytes(new byte[] {0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0});
        for (String label : name.split("\\.")) {
            b.write(label.length());
            b.writeBytes(label.getBytes(StandardCharsets.US_ASCII));
        }
        b.writeBytes(new byte[] {0, 0, 1, 0, 1});
        return b.toByteArray();
    }

    @Test
    void aDeadUpstreamUnderLoadWritesAFewLinesAndOneRecovery() throws Exception {
        events.addHandler(capture);
        try (Upstream upstream = new Upstream();
             VirtualScheduler clock = new VirtualScheduler();
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Path f = dir.resolve("lookout.conf");
            Files.writeString(f, "resolver => {\n  listen => [ 127.0.0.1:0 ]\n  scopes => { lan => { default => true, "
                    + "servers => [ 127.0.0.1:" + upstream.port() + " ] } }\n}\n" + loopbackPva() + "state_dir => state\n");
            EngineOptions options = EngineOptions.forTest(clock, new Random(14), null).withPvaForwarding(false);
            Headless h = Headless.start(f, options, new PrintStream(new ByteArrayOutputStream(), true,
                    StandardCharsets.UTF_8));
            assertThat(h).isNotNull();
            try {
                String listen = h.engine().snapshot().resolver().listen().get(0);
                InetSocketAddress resolver = new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1)));
                String dead = "127.0.0.1:" + upstream.port();

                // 2 000 questions over 10 s of engine time, the upstream silent
                long sent = 0;
                for (int second = 0; second < 10; second++) {
                    for (int i = 0; i < 200; i++) {
                        byte[] q = question((int) sent, "q" + second + "-" + i + ".example.org");
                        client.send(new DatagramPacket(q, q.length, resolver));
                        sent++;
                    }
                    awaitQuestions(h, sent);
                    clock.advance(Duration.ofSeconds(1));
                }
                clock.advance(Duration.ofSeconds(5)); // the last attempts time out
                assertThat(upstream.received.get()).as("the resolver asked the dead upstream").isGreaterThan(100);
                long demotions = h.engine().snapshot().resolver().demotions();
                assertThat(demotions).as("every failure demoted it (or renewed the mark)").isGreaterThan(100);
                List<String> about = lines.stream().filter(l -> l.contains(dead)).toList();
                assertThat(about).as("log lines about %s after %d demotions", dead, demotions).hasSizeBetween(1, 10);
                assertThat(about.get(0)).startsWith("WARNING upstream " + dead + " failing: ");

                // it comes back: one line says so
                upstream.answering = true;
                for (int i = 0; i < 20; i++) {
                    byte[] q = question(5000 + i, "back" + i + ".example.org");
                    client.send(new DatagramPacket(q, q.length, resolver));
                }
                awaitQuestions(h, sent + 20);
                for (int k = 0; k < 50 && lines.stream().noneMatch(l -> l.contains("recovered")); k++) {
                    clock.advance(Duration.ofMillis(100));
                    Thread.sleep(20);
                }
                List<String> recovered = lines.stream().filter(l -> l.contains(dead) && l.contains("recovered")).toList();
                assertThat(recovered).singleElement().asString().startsWith("INFO upstream " + dead + " recovered after ");
                assertThat(lines.stream().filter(l -> l.contains(dead)).count()).isLessThanOrEqualTo(11);
            } finally {
                h.stop();
            }
        }
    }

    private static void awaitQuestions(Headless h, long n) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (h.engine().snapshot().resolver().queries() < n && System.nanoTime() < end) {
            Thread.sleep(10);
        }
    }

    private static String loopbackPva() throws IOException {
        try (DatagramSocket d = new DatagramSocket(0, InetAddress.getLoopbackAddress());
             ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return """
                    pva => {
                      addr_list => [ 127.0.0.1 ]
                      auto_addr_list => false
                      beacon_addr_list => [ 127.0.0.1 ]
                      auto_beacon_addr_list => false
                      broadcast_port => %d
                      server_port => %d
                    }
                    """.formatted(d.getLocalPort(), s.getLocalPort());
        }
    }
}
