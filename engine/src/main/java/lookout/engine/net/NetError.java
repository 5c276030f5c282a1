package lookout.engine.net;

import io.netty.channel.unix.Errors;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.nio.channels.ClosedChannelException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A socket error as the kernel reported it: its errno where known (taken where the call failed —
 * by Netty's native transport or by our own native calls — never guessed from a message, whose
 * language follows the host's locale), and the message for people.
 *
 * @param errno   the positive errno ({@code ECONNREFUSED} = 111 on Linux), or 0 when not known
 * @param message what an operator reads
 * @param cause   the exception it came from, or null
 */
public record NetError(int errno, String message, Throwable cause) {

    // Linux errno values (asm-generic/errno-base.h, errno.h): the ones the engine tells apart
    public static final int EPERM = 1;
    public static final int EINTR = 4;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int EMSGSIZE = 90;
    public static final int EAFNOSUPPORT = 97;
    public static final int EADDRINUSE = 98;
    public static final int EADDRNOTAVAIL = 99;
    public static final int ENETDOWN = 100;
    public static final int ENETUNREACH = 101;
    public static final int ENOBUFS = 105;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTDOWN = 112;
    public static final int EHOSTUNREACH = 113;
    public static final int ECONNRESET = 104;
    public static final int EPIPE = 32;

    /**
     * Netty's native transport reports a failed connect as a plain {@link ConnectException}
     * ({@code Errors.newConnectException0}, Netty 4.2) whose message carries the errno as a number,
     * {@code connect(..) failed with error(-13): Permission denied}: the number is the kernel's and
     * is read; the words after it are in the host's language and are not. NetErrorTest pins the
     * format against Netty's own code.
     */
    private static final Pattern NETTY_CONNECT_ERRNO = Pattern.compile("\\(\\.\\.\\) failed with error\\((-\\d{1,5})\\)");

    /**
     * The errno of {@code t} or of one of its causes: Netty's native transport carries it
     * ({@link Errors.NativeIoException#expectedErr()}, negative; a failed connect's
     * {@link ConnectException} in its number), our native layer too ({@link NativeIoError}); for
     * the JDK's own sockets (NIO, where there is no errno) the exception type says what the
     * kernel said for the few that matter; otherwise 0. Never from a message's words.
     */
    public static int errnoOf(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof NativeIoError n) {
                return n.errno();
            }
            if (c instanceof Errors.NativeIoException n) {
                return Math.abs(n.expectedErr());
            }
            if (c instanceof ConnectException && c.getMessage() != null) {
                Matcher m = NETTY_CONNECT_ERRNO.matcher(c.getMessage());
                if (m.find()) {
                    return Math.abs(Integer.parseInt(m.group(1)));
                }
            }
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof PortUnreachableException) {
                return ECONNREFUSED;
            }
            if (c instanceof NoRouteToHostException) {
                return EHOSTUNREACH;
            }
            if (c instanceof ConnectException) {
                return ECONNREFUSED;
            }
            if (c instanceof BindException) {
                return EADDRINUSE;
            }
            if (c instanceof ClosedChannelException) {
                return EBADF;
            }
        }
        return 0;
    }

    /** The error of {@code t}: its errno and its message (the first of its causes that has one). */
    public static NetError of(Throwable t) {
        String m = null;
        for (Throwable c = t; c != null && m == null; c = c.getCause()) {
            m = c.getMessage();
        }
        return new NetError(errnoOf(t), m == null ? t.getClass().getSimpleName() : m, t);
    }

    /**
     * What an operator reads for a failed connection: the kernel's answer in a few words where its
     * errno says it (Netty's own text is "finishConnect(..) failed with error(-111): Connection
     * refused: /127.0.0.1:5075", its address repeating what the reader already has), else the
     * message.
     */
    public String brief() {
        return switch (errno) {
            case ECONNREFUSED -> "connection refused";
            case ECONNRESET -> "connection reset";
            case ETIMEDOUT -> "timed out";
            case EHOSTUNREACH, EHOSTDOWN -> "host unreachable";
            case ENETUNREACH, ENETDOWN -> "network unreachable";
            default -> message;
        };
    }

    /**
     * True for errors of this host's resources rather than of the peer or the path, seed 000
     * §4.6.2's list: out of descriptors (EMFILE, ENFILE), memory or buffers (ENOMEM, ENOBUFS),
     * local addresses (EADDRNOTAVAIL, EADDRINUSE), or not permitted (EACCES, EPERM: a firewall
     * rule). Such a failure must not demote a server that did nothing wrong. Not EBADF: a channel
     * closed under a write is a hang-up, which the seed counts against the server.
     */
    public boolean local() {
        return switch (errno) {
            case EPERM, EACCES, ENFILE, EMFILE, ENOMEM, ENOBUFS, EADDRINUSE, EADDRNOTAVAIL -> true;
            default -> false;
        };
    }

    /** True when the peer refused (an ICMP port unreachable, a TCP RST to the connect). */
    public boolean refused() {
        return errno == ECONNREFUSED;
    }

    /** True when the path to the peer failed (no route, host or network unreachable or down). */
    public boolean unreachable() {
        return errno == EHOSTUNREACH || errno == ENETUNREACH || errno == EHOSTDOWN || errno == ENETDOWN;
    }

    /** An exception carrying this error's errno, for callers that report through exceptions. */
    public IOException asException() {
        return new NativeIoError(message, errno, cause);
    }

    /** An {@link IOException} raised by our own native calls, with the errno taken where the call failed. */
    public static final class NativeIoError extends IOException {
        private static final long serialVersionUID = 1L;
        private final int errno;

        public NativeIoError(String message, int errno, Throwable cause) {
            super(message, cause);
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }
}
