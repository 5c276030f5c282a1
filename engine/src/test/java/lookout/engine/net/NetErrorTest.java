package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.channel.ChannelException;
import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NetError}: the errno comes from where the call failed (Netty's native exceptions, ours,
 * the number in Netty's connect failures, the JDK's exception types) and never from a message's
 * words, which follow the host's locale.
 */
class NetErrorTest {

    /** Netty's exceptions need its native library (they read the errno table from it). */
    @BeforeAll
    static void nettyNative() {
        Assumptions.assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "Netty's epoll library does not load here");
    }

    @Test
    void theErrnoComesFromNettysNativeExceptionsAndOursAlongTheCauses() {
        assertThat(NetError.errnoOf(new Errors.NativeIoException("sendto", -NetError.ENOBUFS))).isEqualTo(NetError.ENOBUFS);
        assertThat(NetError.errnoOf(new NetError.NativeIoError("bind: Die Adresse wird bereits verwendet", NetError.EADDRINUSE, null)))
                .isEqualTo(NetError.EADDRINUSE);
        // socket(2) failing in a Netty channel's constructor: a ChannelException around it
        assertThat(NetError.errnoOf(new ChannelException(new Errors.NativeIoException("newSocketDgram", -NetError.EMFILE))))
                .isEqualTo(NetError.EMFILE);
        assertThat(NetError.errnoOf(new IOException("outer", new PortUnreachableException("x")))).isEqualTo(NetError.ECONNREFUSED);
    }

    /** Netty's native transport gives a failed connect no errno field: its message carries the number. */
    @ParameterizedTest
    @ValueSource(ints = {NetError.EPERM, NetError.EACCES, NetError.EADDRNOTAVAIL, NetError.ECONNREFUSED, NetError.ETIMEDOUT})
    void aFailedConnectOfNettysNativeTransportSaysItsErrnoInItsNumber(int errno) {
        Throwable t = catchThrowable(() -> Errors.handleConnectErrno("connect", -errno)); // Netty's own code
        assertThat(t).isInstanceOf(ConnectException.class);
        assertThat(NetError.errnoOf(t)).isEqualTo(errno);
        // as the epoll channel hands it on, with the remote address appended
        ConnectException annotated = new ConnectException(t.getMessage() + ": /192.0.2.1:53");
        annotated.initCause(t);
        assertThat(NetError.errnoOf(annotated)).isEqualTo(errno);
    }

    @Test
    void theJdksSocketsSayWhatMattersByTheirExceptionTypes() {
        assertThat(NetError.errnoOf(new BindException("Adresse bereits verwendet"))).isEqualTo(NetError.EADDRINUSE);
        assertThat(NetError.errnoOf(new NoRouteToHostException())).isEqualTo(NetError.EHOSTUNREACH);
        assertThat(NetError.errnoOf(new ConnectException("Verbindungsaufbau abgelehnt"))).isEqualTo(NetError.ECONNREFUSED);
        assertThat(NetError.errnoOf(new ClosedChannelException())).isEqualTo(NetError.EBADF);
    }

    @Test
    void theWordsOfAMessageAreNeverRead() {
        for (String words : new String[] {"Too many open files", "sendto(..) failed: No buffer space available",
                "Operation not permitted", "Zu viele offene Dateien", "EMFILE"}) {
            NetError e = NetError.of(new SocketException(words));
            assertThat(e.errno()).as(words).isZero();
            assertThat(e.local()).as(words).isFalse();
            assertThat(e.message()).isEqualTo(words);
        }
    }

    /** seed 000 §4.6.2's list, and nothing else: a closed channel (EBADF) is a hang-up, not a local resource. */
    @Test
    void localMeansTheSeedsListOfLocalResourceAndPermissionErrors() {
        Set<Integer> local = Set.of(NetError.EMFILE, NetError.ENFILE, NetError.ENOMEM, NetError.ENOBUFS,
                NetError.EADDRNOTAVAIL, NetError.EADDRINUSE, NetError.EACCES, NetError.EPERM);
        for (int errno = 0; errno < 134; errno++) {
            assertThat(new NetError(errno, "m", null).local()).as("errno %d", errno).isEqualTo(local.contains(errno));
        }
        assertThat(new NetError(NetError.ECONNREFUSED, "m", null).refused()).isTrue();
        for (int errno : new int[] {NetError.ENETUNREACH, NetError.EHOSTUNREACH, NetError.ENETDOWN, NetError.EHOSTDOWN}) {
            NetError e = new NetError(errno, "m", null);
            assertThat(e.unreachable()).isTrue();
            assertThat(e.local()).isFalse();
        }
    }

    @Test
    void anErrorGivenOnAsAnExceptionKeepsItsErrno() {
        IOException x = new NetError(NetError.EPERM, "sendmmsg: Die Operation ist nicht erlaubt", null).asException();
        assertThat(NetError.errnoOf(x)).isEqualTo(NetError.EPERM);
        assertThat(x).hasMessage("sendmmsg: Die Operation ist nicht erlaubt");
    }

    @Test
    void aBriefReasonComesFromTheErrnoNotTheWords() {
        Throwable t = catchThrowable(() -> Errors.handleConnectErrno("finishConnect", -NetError.ECONNREFUSED));
        ConnectException annotated = new ConnectException(t.getMessage() + ": /127.0.0.1:5075");
        annotated.initCause(t);
        assertThat(NetError.of(annotated).brief()).isEqualTo("connection refused");
        assertThat(new NetError(NetError.ETIMEDOUT, "m", null).brief()).isEqualTo("timed out");
        assertThat(new NetError(NetError.EHOSTUNREACH, "m", null).brief()).isEqualTo("host unreachable");
        // no errno: the message as it is
        assertThat(NetError.of(new SocketException("Zu viele offene Dateien")).brief()).isEqualTo("Zu viele offene Dateien");
    }
}
