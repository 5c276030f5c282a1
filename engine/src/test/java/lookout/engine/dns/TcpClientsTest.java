package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 7766 clients over real TCP, in virtual time, with the limits from the configuration
 * ({@code resolver.tcp_clients}, {@code tcp_idle_timeout}): a connection beyond the limit is closed
 * at once and counted, an idle one is closed after its timeout and counted, and both show.
 */
class TcpClientsTest {

    @TempDir
    Path tmp;

    @Test
    void theConfiguredLimitAndIdleTimeoutHoldAndShow() throws Exception {
        try (ResolverHarness h = new ResolverHarness(tmp, 77, oneScope().withTcp(5, 2, 8));
             Socket a = new Socket(); Socket b = new Socket(); Socket c = new Socket()) {
            for (Socket s : new Socket[]{a, b}) {
                s.connect(h.listen, 5_000);
                s.setSoTimeout(5_000);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> h.snapshot().tcpClients() == 2);
            // both answer: localhost is synthetic
            for (Socket s : new Socket[]{a, b}) {
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                byte[] q = DnsTestClient.query(7, "localhost.", RrType.A, false, 0);
                out.writeShort(q.length);
                out.write(q);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                Message m = DnsTestClient.decode(in.readNBytes(in.readUnsignedShort()));
                assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            }
            // a third is one too many: closed at once, counted
            c.connect(h.listen, 5_000);
            c.setSoTimeout(5_000);
            assertThat(c.getInputStream().read()).as("closed by the resolver").isEqualTo(-1);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.snapshot().tcpRejected() == 1);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.tcpClients()).isEqualTo(2);
            // five idle seconds later both are closed, and counted
            h.advance(Duration.ofSeconds(5));
            assertThat(a.getInputStream().read()).isEqualTo(-1);
            assertThat(b.getInputStream().read()).isEqualTo(-1);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.snapshot().tcpClients() == 0);
            assertThat(h.engine.snapshot().metrics()).anySatisfy(m -> {
                assertThat(m.name()).isEqualTo("lookout_resolver_tcp_idle_closed_total");
                assertThat(m.value()).isEqualTo(2.0);
            });
        }
    }
}
