package lookout.console;

import static lookout.console.TestConsole.waitFor;
import static lookout.console.TestConsole.fx;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import lookout.console.pva.ChannelRow;
import lookout.engine.config.ConfigResult;
import lookout.engine.pva.wire.ConnectionValidated;
import lookout.engine.pva.wire.Decoded;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.ServerValidation;
import lookout.engine.pva.wire.SetByteOrder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17 item 12: the "why?" panel of a PV, against a real engine in virtual time with fake PVA
 * servers on loopback — a name no server has (one server online there), a name two servers claim,
 * a name resolved through the TCP name server, a name whose only destination refuses the send.
 */
@ExtendWith(ApplicationExtension.class)
class WhyPanelFXTest {

    static final Guid A = Guid.parse("aaaaaaaaaaaaaaaaaaaaaaaa");
    static final Guid B = Guid.parse("bbbbbbbbbbbbbbbbbbbbbbbb");

    private Stage stage;
    private Path dir;
    private TestConsole console;
    private ConsoleWindow window;
    private final List<AutoCloseable> fakes = new ArrayList<>();

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        dir = Files.createTempDirectory("lookout-why");
    }

    @AfterEach
    void stop() throws Exception {
        if (window != null) {
            WaitForAsyncUtils.asyncFx(() -> window.close()).get(10, TimeUnit.SECONDS);
        }
        if (console != null) {
            console.close();
        }
        for (AutoCloseable c : fakes) {
            c.close();
        }
    }

    /** The console on the test configuration with {@code pva} replacing its address list lines. */
    private int open(String addrList, String extra) throws Exception {
        console = new TestConsole(dir);
        String text = TestConsole.with("", "").replace("  addr_list => [ 127.0.0.1 ]", "  addr_list => [ " + addrList + " ]"
                + (extra.isEmpty() ? "" : "\n" + extra));
        ConfigResult initial = console.parse(text, dir);
        assertThat(initial.problems()).isEmpty();
        WaitForAsyncUtils.asyncFx(() -> {
            window = console.open(initial, stage);
            window.mainView().select(ConsoleWindow.PVA);
            return null;
        }).get(10, TimeUnit.SECONDS);
        return initial.config().pva().broadcastPort();
    }

    /** Searches {@code name}, lets the ring search it {@code ticks} times, then opens its "why?". */
    private String why(FxRobot robot, String name, int ticks, java.util.concurrent.Callable<Boolean> until) throws Exception {
        robot.interact(() -> window.pvaViewModel().search(name));
        @SuppressWarnings("unchecked")
        TableView<ChannelRow> channels = robot.lookup("#channelTable").queryAs(TableView.class);
        waitFor(() -> fx(() -> channels.getItems().stream().anyMatch(r -> r.name().equals(name))));
        for (int i = 0; i < ticks; i++) {
            console.scheduler.advance(Duration.ofMillis(1100));
            WaitForAsyncUtils.waitForFxEvents();
        }
        try {
            waitFor(until);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("diagnosis " + console.engine.diagnosePv(name).get(10, TimeUnit.SECONDS)
                    + "\nsnapshot " + console.engine.snapshot().pva().counters(), e);
        }
        robot.interact(() -> channels.getSelectionModel().select(
                channels.getItems().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow()));
        robot.clickOn("#pvWhy");
        waitFor(() -> robot.lookup("#whyDiagnosis").tryQuery().isPresent()
                && !robot.lookup("#whyDiagnosis").queryAs(Label.class).getText().isEmpty());
        return robot.lookup("#whyDiagnosis").queryAs(Label.class).getText();
    }

    /**
     * The panel's title, diagnosis and checks as drawn, each one that is not drawn whole (a
     * wrapped label too short for its lines is drawn cut: "What to check:…"); whitespace folded,
     * since wrapping breaks lines where the text has spaces.
     */
    private static List<String> drawnCut(FxRobot robot) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        return fx(() -> {
            List<String> cut = new ArrayList<>();
            for (String id : List.of("#whyTitle", "#whyDiagnosis", "#whyChecks")) {
                Labeled l = robot.lookup(id).queryAs(Labeled.class);
                if (!l.isVisible() || l.getText().isEmpty()) {
                    continue;
                }
                String drawn = l.getChildrenUnmodifiable().stream().filter(n -> n instanceof Text)
                        .map(n -> ((Text) n).getText()).findFirst().orElse("");
                if (!fold(drawn).equals(fold(l.getText()))) {
                    cut.add(id + " drawn as \"" + drawn + "\" of \"" + l.getText() + "\"");
                }
            }
            return cut;
        });
    }

    private static String fold(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static String facts(FxRobot robot) throws Exception {
        return fx(() -> CopyFXTest.textOf(robot.lookup("#whyFacts").query()));
    }

    @Test
    void aNameNoServerHas(FxRobot robot) throws Exception {
        FakeUdpServer server = new FakeUdpServer(A, 5075, n -> false);
        int beaconPort = open("127.0.0.1:" + server.port(), "");
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            byte[] b = PvaPaneFXTest.beacon(1, 5075);
            s.send(new DatagramPacket(b, b.length, InetAddress.getLoopbackAddress(), beaconPort));
        }
        String d = why(robot, "why:nobody:1", 4, () -> server.searched.get() >= 2
                && console.engine.snapshot().pva().servers().size() == 1);
        assertThat(d).startsWith("No server on 127.0.0.1:" + server.port() + " claims it after ")
                .contains("1 server is online there");
        assertThat(facts(robot)).contains("Searches: ").contains("an operator searched it")
                .contains("Servers online: 1: 127.0.0.1:5075");
        assertThat(robot.lookup("#whyDiagnosis").query().getStyleClass()).contains("level-advisory");
        assertThat(fx(() -> CopyFXTest.textOf(robot.lookup("#whyChecks").query()))).startsWith("What to check:\n• ");
        assertThat(drawnCut(robot)).isEmpty();
        // the panel grew to its answer: the facts keep their rows rather than give them to the checks
        assertThat(fx(() -> {
            DialogPane pane = robot.lookup("#whyPanel").queryAs(DialogPane.class);
            return pane.getHeight() - pane.prefHeight(pane.getWidth());
        })).isGreaterThan(-1.0);
    }

    @Test
    void aNameTwoServersClaim(FxRobot robot) throws Exception {
        FakeUdpServer first = new FakeUdpServer(A, 5101, n -> n.startsWith("why:"));
        FakeUdpServer second = new FakeUdpServer(B, 5102, n -> n.startsWith("why:"));
        open("127.0.0.1:" + first.port() + ", 127.0.0.1:" + second.port(), "");
        String d = why(robot, "why:twice:1", 2, () -> first.answered.get() >= 1 && second.answered.get() >= 1
                && console.engine.diagnosePv("why:twice:1").get(10, TimeUnit.SECONDS).replies().size() == 2);
        assertThat(d).startsWith("Resolved: the server at 127.0.0.1:510").contains("1 other server also claims it")
                .contains("the first reply won");
        assertThat(facts(robot)).contains("Claimed by: ").contains("Also claimed by: ");
        assertThat(robot.lookup("#whyDiagnosis").query().getStyleClass()).contains("level-advisory");
    }

    @Test
    void aNameResolvedThroughTheTcpNameServer(FxRobot robot) throws Exception {
        FakeNameServer ns = new FakeNameServer(B, n -> n.startsWith("why:"));
        open("", "  name_servers => [ 127.0.0.1:" + ns.port() + " ]");
        String d = why(robot, "why:tcp:1", 3, () -> ns.answered.get() >= 1
                && "RESOLVED".equals(console.engine.diagnosePv("why:tcp:1").get(10, TimeUnit.SECONDS).state()));
        assertThat(d).startsWith("Resolved: the server at 127.0.0.1:" + ns.port() + " (GUID " + B + ")")
                .contains("through the TCP name server 127.0.0.1:" + ns.port());
        assertThat(facts(robot)).contains("Name servers (TCP): 127.0.0.1:" + ns.port() + " READY");
        assertThat(robot.lookup("#whyDiagnosis").query().getStyleClass()).contains("level-normal");
    }

    @Test
    void aNameWhoseOnlyDestinationRefusesTheSend(FxRobot robot) throws Exception {
        // the search socket is IPv4: the kernel refuses every send to an IPv6 address (nothing leaves)
        open("\"[::1]:5076\"", "");
        String d = why(robot, "why:nowhere:1", 3,
                () -> !console.engine.diagnosePv("why:nowhere:1").get(10, TimeUnit.SECONDS).sendFailures().isEmpty());
        assertThat(d).startsWith("No search for it leaves this machine: its only destination, [::1]:5076, refuses the send (")
                .doesNotContain("Exception");
        assertThat(robot.lookup("#whyDiagnosis").query().getStyleClass()).contains("level-alarm");
        assertThat(fx(() -> CopyFXTest.textOf(robot.lookup("#whyChecks").query()))).contains("pva.addr_list");
        assertThat(drawnCut(robot)).isEmpty();
    }

    // ------------------------------------------------------------------ fake servers

    /** A PVA server's UDP side on loopback: answers searches for the names it has (and nothing else). */
    final class FakeUdpServer implements AutoCloseable {
        final DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        final AtomicInteger searched = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();

        FakeUdpServer(Guid guid, int tcpPort, java.util.function.Predicate<String> has) throws Exception {
            fakes.add(this);
            Thread t = new Thread(() -> {
                byte[] buf = new byte[65536];
                while (!socket.isClosed()) {
                    try {
                        DatagramPacket p = new DatagramPacket(buf, buf.length);
                        socket.receive(p);
                        for (Frame f : PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(buf, 0, p.getLength())).frames()) {
                            if (f.message() instanceof SearchRequest r && !r.discoveryPing()) {
                                searched.incrementAndGet();
                                List<Integer> cids = r.names().stream().filter(n -> has.test(n.name()))
                                        .map(SearchRequest.Name::cid).toList();
                                if (!cids.isEmpty()) {
                                    byte[] out = encode(new SearchResponse(guid, r.sequenceId(),
                                            InetAddress.getLoopbackAddress(), tcpPort, "tcp", true, cids));
                                    socket.send(new DatagramPacket(out, out.length, p.getAddress(),
                                            r.replyPort() == 0 ? p.getPort() : r.replyPort()));
                                    answered.incrementAndGet();
                                }
                            }
                        }
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "fake-pva-udp");
            t.setDaemon(true);
            t.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** A PVA name server on loopback (seed 002 §6): validates the connection, answers searches over TCP. */
    final class FakeNameServer implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        final AtomicInteger answered = new AtomicInteger();

        FakeNameServer(Guid guid, java.util.function.Predicate<String> has) throws Exception {
            fakes.add(this);
            Thread t = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket s = listener.accept()) {
                        serve(s, guid, has);
                    } catch (Exception e) {
                        // the next connection, or closed at the end of the test
                    }
                }
            }, "fake-name-server");
            t.setDaemon(true);
            t.start();
        }

        private void serve(Socket s, Guid guid, java.util.function.Predicate<String> has) throws Exception {
            OutputStream out = s.getOutputStream();
            ByteBuf hello = Unpooled.buffer();
            PvaCodec.encode(new SetByteOrder(true), hello);
            PvaCodec.encode(ServerValidation.standard(), hello);
            out.write(bytes(hello));
            InputStream in = s.getInputStream();
            ByteBuf pending = Unpooled.buffer();
            byte[] buf = new byte[65536];
            boolean validated = false;
            int n;
            while ((n = in.read(buf)) > 0) {
                pending.writeBytes(buf, 0, n);
                while (pending.readableBytes() >= 8) {
                    long len = PvaCodec.frameLength(pending, pending.readerIndex());
                    if (len < 0 || pending.readableBytes() < len) {
                        break;
                    }
                    ByteBuf frame = pending.readSlice((int) len);
                    if (!validated) {
                        validated = true; // the client's CONNECTION_VALIDATION
                        ByteBuf ok = Unpooled.buffer();
                        PvaCodec.encode(ConnectionValidated.OK, ok);
                        out.write(bytes(ok));
                        continue;
                    }
                    if (PvaCodec.decodeFrame(frame) instanceof Decoded.Ok ok && ok.frame().message() instanceof SearchRequest r) {
                        List<Integer> cids = r.names().stream().filter(x -> has.test(x.name()))
                                .map(SearchRequest.Name::cid).toList();
                        if (!cids.isEmpty()) {
                            out.write(encode(new SearchResponse(guid, r.sequenceId(), InetAddress.getLoopbackAddress(), 0,
                                    "tcp", true, cids)));
                            answered.incrementAndGet();
                        }
                    }
                }
                pending.discardReadBytes();
            }
        }

        int port() {
            return listener.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            listener.close();
        }
    }

    static byte[] encode(SearchResponse r) {
        ByteBuf b = Unpooled.buffer();
        PvaCodec.encode(r, b);
        return bytes(b);
    }

    static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }
}
