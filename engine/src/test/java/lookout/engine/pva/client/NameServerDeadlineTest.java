package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.api.PvaNameServerSnapshot;
import lookout.engine.config.PvaConfig;
import org.junit.jupiter.api.Test;

/**
 * The name-server connect and handshake deadlines run on the injected scheduler: in virtual time
 * nothing gives up until the clock is moved, and then at once.
 */
class NameServerDeadlineTest {

    private static PvaNameServerSnapshot ns(TestContext ctx, PvaClientService svc) {
        return ctx.virtual().call(() -> svc.snapshot().nameServers().get(0));
    }

    private static PvaClientService start(TestContext ctx, int port) throws Exception {
        PvaConfig pva = TestContext.pva(List.of(), List.of(new PvaConfig.PvaAddress("127.0.0.1", port)),
                TestContext.freeUdpPort(), List.of(), List.of());
        PvaClientService svc = new PvaClientService();
        ctx.virtual().call(() -> {
            svc.start(ctx, TestContext.config(pva));
            return null;
        });
        return svc;
    }

    @Test
    void aServerThatNeverValidatesIsGivenUpAfterTenVirtualSeconds() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
             TestContext ctx = new TestContext()) {
            PvaClientService svc = start(ctx, listener.getLocalPort());
            try (Socket accepted = listener.accept()) { // accepted, and never a word
                await().atMost(Duration.ofSeconds(10)).until(() -> ns(ctx, svc).state().equals("VALIDATING"));
                Thread.sleep(300); // real time passing changes nothing
                assertThat(ns(ctx, svc).state()).isEqualTo("VALIDATING");
                ctx.virtual().advance(Duration.ofSeconds(9));
                assertThat(ns(ctx, svc).state()).isEqualTo("VALIDATING");
                ctx.virtual().advance(Duration.ofSeconds(1));
                assertThat(ns(ctx, svc).state()).isEqualTo("DISCONNECTED");
                assertThat(ns(ctx, svc).lastError()).contains("not validated within 10 s");
            }
            ctx.virtual().call(() -> {
                svc.stop();
                return null;
            });
        }
    }

    @Test
    void aConnectThatHangsIsGivenUpAfterFiveVirtualSeconds() throws Exception {
        List<Socket> filling = new ArrayList<>();
        // a listener that never accepts, its queue full: further SYNs are dropped and connects hang
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             TestContext ctx = new TestContext()) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            for (int i = 0; i < 8; i++) {
                Socket s = new Socket();
                try {
                    s.connect(at, 200);
                    filling.add(s);
                } catch (java.io.IOException e) {
                    s.close();
                    break; // the queue is full
                }
            }
            PvaClientService svc = start(ctx, listener.getLocalPort());
            Thread.sleep(1000); // a real second: a connect with nowhere to go is still going
            org.junit.jupiter.api.Assumptions.assumeTrue(ns(ctx, svc).state().equals("CONNECTING"),
                    "this kernel completed the connect anyway (accept queue not full)");
            ctx.virtual().advance(Duration.ofSeconds(4));
            assertThat(ns(ctx, svc).state()).isEqualTo("CONNECTING");
            ctx.virtual().advance(Duration.ofSeconds(1));
            assertThat(ns(ctx, svc).state()).isEqualTo("DISCONNECTED");
            assertThat(ns(ctx, svc).lastError()).contains("no connection within 5 s");
            ctx.virtual().call(() -> {
                svc.stop();
                return null;
            });
        } finally {
            for (Socket s : filling) {
                s.close();
            }
        }
    }
}
