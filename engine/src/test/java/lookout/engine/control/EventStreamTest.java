package lookout.engine.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/events} over real loopback HTTP: two clients see each other's changes, a
 * reconnecting client resumes exactly after its last id, a resume point the journal never reached
 * starts with a gap message. Waits are real and bounded.
 */
class EventStreamTest {

    @TempDir
    Path dir;

    private ControlHarness h;
    private final List<SseClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        h = new ControlHarness(dir, "");
    }

    @AfterEach
    void stop() {
        clients.forEach(SseClient::close);
        h.close();
    }

    /** One server-sent event as a client reads it. */
    record Sse(String id, String event, String data) {
    }

    /**
     * A reader of one stream on its own thread over a plain socket (closing it ends the stream at
     * once; HttpURLConnection would drain it first), chunked transfer decoded; events in a queue.
     */
    final class SseClient implements AutoCloseable {
        final BlockingQueue<Sse> events = new LinkedBlockingQueue<>();
        final Socket socket;
        final Thread reader;
        final String head;
        final String contentType;

        SseClient(String query, String lastEventId) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), h.base.getPort());
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/events" + query + " HTTP/1.1\r\nHost: test\r\n"
                    + (lastEventId == null ? "" : "Last-Event-ID: " + lastEventId + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            StringBuilder hd = new StringBuilder();
            for (String line; !(line = line(in)).isEmpty(); ) {
                hd.append(line).append('\n');
            }
            head = hd.toString();
            assertThat(head).startsWith("HTTP/1.1 200 OK").containsIgnoringCase("transfer-encoding: chunked");
            contentType = head.lines().filter(l -> l.toLowerCase().startsWith("content-type:")).findFirst()
                    .map(l -> l.substring(13).strip()).orElse("");
            PipedOutputStream body = new PipedOutputStream();
            BufferedReader text = new BufferedReader(new InputStreamReader(new PipedInputStream(body, 1 << 16),
                    StandardCharsets.UTF_8));
            reader = new Thread(() -> {
                Thread parser = new Thread(() -> read(text), "sse-test-parser");
                parser.setDaemon(true);
                parser.start();
                try (body) {
                    while (true) {
                        int size = Integer.parseInt(line(in).strip(), 16);
                        if (size == 0) {
                            break;
                        }
                        byte[] chunk = new byte[size];
                        in.readFully(chunk);
                        line(in);
                        body.write(chunk);
                        body.flush();
                    }
                } catch (IOException | RuntimeException e) {
                    // closed by the test
                }
            }, "sse-test-reader");
            reader.setDaemon(true);
            reader.start();
            clients.add(this);
        }

        private static String line(DataInputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }

        private void read(BufferedReader in) {
            String id = null;
            String event = null;
            StringBuilder data = new StringBuilder();
            try {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.isEmpty()) {
                        if (event != null || data.length() > 0) {
                            events.add(new Sse(id, event == null ? "message" : event, data.toString()));
                        }
                        id = null;
                        event = null;
                        data.setLength(0);
                    } else if (line.startsWith("id: ")) {
                        id = line.substring(4);
                    } else if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                        data.append(line.substring(6));
                    }
                }
            } catch (IOException e) {
                // closed by the test
            }
        }

        /** The next event of {@code type}, skipping others, within 10 s. */
        Sse next(String type) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < end) {
                Sse e = events.poll(100, TimeUnit.MILLISECONDS);
                if (e != null && e.event().equals(type)) {
                    return e;
                }
            }
            throw new AssertionError("no " + type + " event within 10 s");
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @Test
    void twoClientsSeeEachOthersChanges() throws Exception {
        SseClient a = new SseClient("", null);
        SseClient b = new SseClient("", null);
        assertThat(a.contentType).startsWith("text/event-stream");
        String token = h.token();

        // b applies a configuration; a sees it
        String next = Files.readString(h.file).replace("cache_size => 1000", "cache_size => 2000");
        assertThat(h.post("/api/v1/config", token, ControlHarness.applyBody(next, null)).statusCode()).isEqualTo(200);
        Sse applied = a.next("ConfigApplied");
        assertThat(applied.data()).contains("\"version\":2").contains("resolver.cache_size");
        assertThat(b.next("ConfigApplied").id()).isEqualTo(applied.id());
        // and the audit record of it, as an event of its own
        assertThat(a.next("AuditRecorded").data()).contains("\"token\":\"operator\"").contains("\"result\":\"ok\"");

        // a forces a pool item; b sees it
        assertThat(h.post("/api/v1/pools/force", token, "{\"key\":\"127.0.0.9/up\",\"state\":\"DOWN\"}").statusCode())
                .isEqualTo(200);
        assertThat(b.next("ForcedStateChanged").data()).contains("127.0.0.9/up").contains("DOWN");
    }

    @Test
    void aReconnectingClientGetsExactlyWhatCameAfterItsLastId() throws Exception {
        SseClient first = new SseClient("", null);
        String token = h.token();
        h.post("/api/v1/pools/force", token, "{\"key\":\"127.0.0.9/up\",\"state\":\"DOWN\"}");
        Sse seen = first.next("ForcedStateChanged");
        first.close();
        // while it is away
        h.post("/api/v1/pools/release", token, "{\"key\":\"127.0.0.9/up\"}");
        h.post("/api/v1/pools/force", token, "{\"key\":\"127.0.0.8/up\",\"state\":\"UP\"}");

        SseClient again = new SseClient("", seen.id());
        List<Sse> replay = new ArrayList<>();
        Sse e;
        do {
            e = again.next("ForcedStateChanged");
            replay.add(e);
        } while (!e.data().contains("127.0.0.8"));
        assertThat(replay).extracting(Sse::data).satisfiesExactly(
                r -> assertThat(r).contains("127.0.0.9/up").contains("RELEASED"),
                f -> assertThat(f).contains("127.0.0.8/up"));
        // ids rise by one per event, past the last one seen
        assertThat(Long.parseLong(replay.get(0).id())).isGreaterThan(Long.parseLong(seen.id()));

        // ?since= does the same
        SseClient bySince = new SseClient("?since=" + seen.id(), null);
        assertThat(bySince.next("ForcedStateChanged").data()).contains("RELEASED");
    }

    @Test
    void aResumePointTheJournalNeverReachedStartsWithAGap() throws Exception {
        SseClient c = new SseClient("?since=999999", null);
        Sse gap = c.next("gap");
        assertThat(gap.data()).startsWith("{\"from\":999999,\"to\":1}");
        // then everything kept, from the start
        assertThat(c.next("EngineStarted").id()).isEqualTo("1");
    }

    @Test
    void aBadResumePointIs400() throws Exception {
        assertThat(h.get("/api/v1/events?since=yesterday", null).statusCode()).isEqualTo(400);
    }

    @Test
    void theJournalSurvivesARestart() throws Exception {
        String token = h.token();
        h.post("/api/v1/pools/force", token, "{\"key\":\"127.0.0.9/up\",\"state\":\"DOWN\"}");
        long before = h.engine.eventsSince(0).last();
        h.stop();
        h.start();
        var kept = h.engine.eventsSince(0);
        assertThat(kept.events()).anySatisfy(e -> assertThat(e.event().message()).contains("127.0.0.9/up"));
        assertThat(kept.events().get(0).seq()).isEqualTo(1);
        assertThat(kept.last()).isGreaterThan(before);
        // a client that saw everything before the restart resumes after it
        SseClient c = new SseClient("?since=" + before, null);
        assertThat(Long.parseLong(c.next("EngineStarted").id())).isGreaterThan(before);
    }
}
