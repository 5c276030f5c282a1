package lookout.engine.dns.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.BindException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import lookout.engine.net.NetError;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * seed 000 §4.6.2 by errno: local resource and permission errors spend an attempt without
 * demoting, in whatever language the host words them; refusals, unreachable paths, hang-ups and
 * errors of unknown errno demote.
 */
class FailureKindTest {

    /** Netty's exceptions need its native library (they read the errno table from it). */
    @BeforeAll
    static void nettyNative() {
        Assumptions.assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "Netty's epoll library does not load here");
    }

    /** glibc's German strerror texts (de.po), as a host with LANG=de_DE.UTF-8 would give them. */
    @ParameterizedTest
    @CsvSource({
            "24, Zu viele offene Dateien",
            "23, Zu viele offene Dateien im System",
            "12, Nicht genügend Hauptspeicher verfügbar",
            "105, Kein Pufferspeicher verfügbar",
            "99, Die angeforderte Adresse kann nicht zugewiesen werden",
            "98, Die Adresse wird bereits verwendet",
            "13, Keine Berechtigung",
            "1, Die Operation ist nicht erlaubt"})
    void localResourceErrorsInGermanAreLocalAndDoNotDemote(int errno, String german) {
        // the engine's own native calls: errno and the host's words
        Throwable ours = new NetError.NativeIoError("sendto(..) failed: " + german + " (errno " + errno + ")", errno, null);
        // Netty's native transport: its exception (whose own words follow the JVM's locale at
        // start) inside one worded by the host
        Throwable netty = new IOException("sendto(..) failed: " + german, new Errors.NativeIoException("sendto", -errno));
        for (Throwable t : new Throwable[] {ours, netty}) {
            for (FailureKind phase : new FailureKind[] {FailureKind.SEND_ERROR, FailureKind.TCP_CONNECT, FailureKind.UDP_RECEIVE_ERROR}) {
                FailureKind k = FailureKind.classify(t, phase);
                assertThat(k).as("%s at %s", t, phase).isEqualTo(FailureKind.LOCAL_RESOURCE);
                assertThat(k.demotes()).isFalse();
            }
        }
    }

    @Test
    void aRefusalInGermanIsARefusalAndDemotes() {
        // Netty's connected datagram channel turns ECONNREFUSED into the JDK's type, cause kept
        PortUnreachableException udp = new PortUnreachableException("recvmsg(..) failed: Verbindungsaufbau abgelehnt");
        udp.initCause(new Errors.NativeIoException("recvmsg", -NetError.ECONNREFUSED));
        assertThat(FailureKind.classify(udp, FailureKind.UDP_RECEIVE_ERROR)).isEqualTo(FailureKind.UDP_RECEIVE_ERROR);
        // the same refusal reported by the send
        Throwable sent = new IOException("sendto(..) failed: Verbindungsaufbau abgelehnt",
                new Errors.NativeIoException("sendto", -NetError.ECONNREFUSED));
        assertThat(FailureKind.classify(sent, FailureKind.SEND_ERROR)).isEqualTo(FailureKind.UDP_RECEIVE_ERROR);
        assertThat(FailureKind.UDP_RECEIVE_ERROR.demotes()).isTrue();
        // TCP: Netty's own connect failure
        Throwable tcp = catchThrowable(() -> Errors.handleConnectErrno("finishConnect", -NetError.ECONNREFUSED));
        assertThat(FailureKind.classify(tcp, FailureKind.TCP_CONNECT)).isEqualTo(FailureKind.TCP_CONNECT);
        assertThat(FailureKind.classify(tcp, FailureKind.TCP_WRITE)).isEqualTo(FailureKind.TCP_CONNECT);
    }

    /** A firewall rule refusing the connect (EPERM) is this host's doing, though Netty says it as a ConnectException. */
    @Test
    void aConnectForbiddenHereIsLocal() {
        Throwable t = catchThrowable(() -> Errors.handleConnectErrno("connect", -NetError.EPERM));
        assertThat(FailureKind.classify(t, FailureKind.TCP_CONNECT)).isEqualTo(FailureKind.LOCAL_RESOURCE);
        Throwable timedOut = catchThrowable(() -> Errors.handleConnectErrno("finishConnect", -NetError.ETIMEDOUT));
        assertThat(FailureKind.classify(timedOut, FailureKind.TCP_WRITE)).isEqualTo(FailureKind.TCP_CONNECT);
    }

    @Test
    void unreachableHangUpsAndUnknownErrnosAreThePhasesOwnAndDemote() {
        assertThat(FailureKind.classify(new NoRouteToHostException(), FailureKind.SEND_ERROR)).isEqualTo(FailureKind.SEND_ERROR);
        assertThat(FailureKind.classify(new Errors.NativeIoException("sendto", -NetError.ENETUNREACH), FailureKind.SEND_ERROR))
                .isEqualTo(FailureKind.SEND_ERROR);
        assertThat(FailureKind.classify(new ClosedChannelException(), FailureKind.TCP_WRITE)).isEqualTo(FailureKind.TCP_WRITE);
        assertThat(FailureKind.classify(new IOException("connection closed before a whole reply"), FailureKind.TCP_CLOSED))
                .isEqualTo(FailureKind.TCP_CLOSED);
        // no errno (the JDK's own sockets, NIO): the words, English or not, are not read
        assertThat(FailureKind.classify(new SocketException("Too many open files"), FailureKind.SEND_ERROR))
                .isEqualTo(FailureKind.SEND_ERROR);
        assertThat(FailureKind.SEND_ERROR.demotes()).isTrue();
    }

    @Test
    void theJdksBindExceptionAndTheJvmOutOfMemoryAreLocal() {
        assertThat(FailureKind.classify(new BindException("Adresse bereits verwendet"), FailureKind.SEND_ERROR))
                .isEqualTo(FailureKind.LOCAL_RESOURCE);
        assertThat(FailureKind.classify(new IOException("x", new OutOfMemoryError("Direct buffer memory")), FailureKind.SEND_ERROR))
                .isEqualTo(FailureKind.LOCAL_RESOURCE);
    }
}
