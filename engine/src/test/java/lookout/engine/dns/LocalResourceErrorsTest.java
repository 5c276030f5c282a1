package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.List;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.RrType;
import lookout.engine.net.NetError;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * seed 000 §4.6.2 end to end, against a fake upstream on loopback: a synchronous failure to open
 * the upstream socket with a local resource or permission error spends the question's attempts
 * without demoting the server — told by its errno, so in whatever language the host words it —
 * while a refusal demotes. (The socket opener is the resolver's injectable one: the errors are
 * thrown as the engine's native calls and Netty's native transport throw them.)
 */
class LocalResourceErrorsTest {

    @TempDir
    Path tmp;

    /** Netty's exceptions need its native library (they read the errno table from it). */
    @BeforeAll
    static void nettyNative() {
        Assumptions.assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "Netty's epoll library does not load here");
    }

    /** Asks one question with every upstream socket failing to open with {@code error}; the harness's verdict. */
    private static void askWithSocketsFailing(Path tmp, Throwable error, Verdict verdict) throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = new ResolverHarness(tmp, 14, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            h.onLoop(() -> {
                h.service.useSockets(new UpstreamSockets() {
                    @Override
                    public Handle udp(InetSocketAddress server, byte[] query, Listener listener) throws Exception {
                        throw sneaky(error);
                    }

                    @Override
                    public Handle tcp(InetSocketAddress server, byte[] query, Listener listener) throws Exception {
                        throw sneaky(error);
                    }
                });
                return null;
            });
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            byte[] r = c.receive(10_000);
            assertThat(r).as("an answer").isNotNull();
            assertThat(DnsTestClient.decode(r).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count()).isZero();
            verdict.check(h, a.address, h.snapshot());
        }
    }

    private static Exception sneaky(Throwable t) {
        return t instanceof Exception e ? e : new IOException(t);
    }

    private interface Verdict {
        void check(ResolverHarness h, InetSocketAddress server, ResolverSnapshot s);
    }

    private static void spentWithoutDemoting(ResolverHarness h, InetSocketAddress server, ResolverSnapshot s) {
        assertThat(s.upstreamFailed().get("local_resource")).isEqualTo(3);
        assertThat(s.demotions()).isZero();
        assertThat(h.demoted(server)).isFalse();
        assertThat(s.inFlight()).isZero();
    }

    /** glibc's English and German strerror texts (de.po) for seed 000 §4.6.2's list. */
    @ParameterizedTest
    @CsvSource({
            "24, Too many open files, Zu viele offene Dateien",
            "23, Too many open files in system, Zu viele offene Dateien im System",
            "12, Cannot allocate memory, Nicht genügend Hauptspeicher verfügbar",
            "105, No buffer space available, Kein Pufferspeicher verfügbar",
            "99, Cannot assign requested address, Die angeforderte Adresse kann nicht zugewiesen werden",
            "98, Address already in use, Die Adresse wird bereits verwendet",
            "13, Permission denied, Keine Berechtigung",
            "1, Operation not permitted, Die Operation ist nicht erlaubt"})
    void aLocalResourceErrorSpendsWithoutDemotingInAnyLanguage(int errno, String english, String german) throws Exception {
        // as the engine's own native calls say it (errno and the host's words) ...
        askWithSocketsFailing(tmp, new NetError.NativeIoError("socket: " + english + " (errno " + errno + ")", errno, null),
                LocalResourceErrorsTest::spentWithoutDemoting);
        // ... and as Netty's native transport does, worded in German around it
        askWithSocketsFailing(tmp, new IOException("newSocketDgram(..) failed: " + german,
                new Errors.NativeIoException("newSocketDgram", -errno)), LocalResourceErrorsTest::spentWithoutDemoting);
    }

    @Test
    void aRefusalInGermanDemotes() throws Exception {
        askWithSocketsFailing(tmp, new IOException("sendto(..) failed: Verbindungsaufbau abgelehnt",
                new Errors.NativeIoException("sendto", -NetError.ECONNREFUSED)), (h, server, s) -> {
                    assertThat(s.upstreamFailed().get("udp_receive_error")).isEqualTo(3);
                    assertThat(s.upstreamFailed().get("local_resource")).isZero();
                    assertThat(h.demoted(server)).isTrue();
                });
    }

    /**
     * The JDK's own sockets (the NIO transport) give no errno for these: the words are not read,
     * English or not, and the failure is the send's, which demotes.
     */
    @Test
    void wordsWithoutAnErrnoAreNotRead() throws Exception {
        for (String words : List.of("Too many open files", "Zu viele offene Dateien")) {
            askWithSocketsFailing(tmp, new SocketException(words), (h, server, s) -> {
                assertThat(s.upstreamFailed().get("send_error")).as(words).isEqualTo(3);
                assertThat(s.upstreamFailed().get("local_resource")).isZero();
                assertThat(h.demoted(server)).isTrue();
            });
        }
    }
}
