package lookout.engine.dns.upstream;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.PortUnreachableException;
import java.util.Locale;

/**
 * seed 000 §4.6.2: what ended an attempt. Every kind adds one to upstream_failed and spends an
 * attempt; all but {@link #LOCAL_RESOURCE} demote the server.
 */
public enum FailureKind {
    TIMEOUT("timeout"),
    SEND_ERROR("send_error"),
    UDP_RECEIVE_ERROR("udp_receive_error"),
    TCP_CONNECT("tcp_connect"),
    TCP_WRITE("tcp_write"),
    TCP_CLOSED("tcp_closed"),
    RCODE("rcode"),
    MALFORMED("malformed"),
    LOCAL_RESOURCE("local_resource");

    public final String label;

    FailureKind(String label) {
        this.label = label;
    }

    public boolean demotes() {
        return this != LOCAL_RESOURCE;
    }

    /**
     * seed 000 §4.6.2: exhausted descriptors (EMFILE, ENFILE), memory or buffers (ENOMEM,
     * ENOBUFS), local address allocation (EADDRNOTAVAIL, EADDRINUSE) or permission (EACCES,
     * EPERM). Java hides errno, so the JDK's and Netty's strerror texts are matched along the
     * cause chain.
     */
    public static boolean isLocalResource(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError || c instanceof SecurityException) {
                return true;
            }
            if (c instanceof BindException) {
                return true; // EADDRINUSE / EADDRNOTAVAIL
            }
            String m = c.getMessage();
            if (m == null) {
                continue;
            }
            String s = m.toLowerCase(Locale.ROOT);
            if (s.contains("too many open files") // EMFILE, ENFILE ("... in system")
                    || s.contains("cannot allocate memory") // ENOMEM
                    || s.contains("no buffer space available") // ENOBUFS
                    || s.contains("cannot assign requested address") // EADDRNOTAVAIL
                    || s.contains("address already in use") // EADDRINUSE
                    || s.contains("permission denied") // EACCES
                    || s.contains("operation not permitted") // EPERM
                    || s.contains("emfile") || s.contains("enfile") || s.contains("enomem")
                    || s.contains("enobufs") || s.contains("eaddrnotavail") || s.contains("eaddrinuse")
                    || s.contains("eacces") || s.contains("eperm")) {
                return true;
            }
        }
        return false;
    }

    /** Classifies a socket error seen at {@code phase}. */
    public static FailureKind classify(Throwable t, FailureKind phase) {
        if (isLocalResource(t)) {
            return LOCAL_RESOURCE;
        }
        if (t instanceof PortUnreachableException) {
            return UDP_RECEIVE_ERROR;
        }
        if (t instanceof ConnectException && phase == TCP_WRITE) {
            return TCP_CONNECT;
        }
        return phase;
    }

    static boolean isIo(Throwable t) {
        return t instanceof IOException;
    }
}
