package lookout.engine.dns.upstream;

import java.net.ConnectException;
import lookout.engine.net.NetError;

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
     * EPERM) — by the errno the failure carries ({@link NetError#local()}), never by its
     * message, whose words follow the host's locale — or the JVM out of memory or forbidding.
     */
    public static boolean isLocalResource(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError || c instanceof SecurityException) {
                return true;
            }
        }
        return NetError.of(t).local();
    }

    /**
     * Classifies a socket error seen at {@code phase} by its errno ({@link NetError#errnoOf}:
     * Netty's native transport and the engine's own native calls carry it; the JDK's sockets say
     * it by their exception types, {@code BindException} for a local address, for instance).
     * An error whose errno is unknown — a JDK socket error without a telling type, on the NIO
     * transport — is the phase's own, as is an unreachable network or host: both demote.
     */
    public static FailureKind classify(Throwable t, FailureKind phase) {
        if (isLocalResource(t)) {
            return LOCAL_RESOURCE;
        }
        NetError error = NetError.of(t);
        if (error.refused()) {
            return switch (phase) {
                // the refusal that follows an ICMP port unreachable, whichever call reports it
                case SEND_ERROR, UDP_RECEIVE_ERROR -> UDP_RECEIVE_ERROR;
                // a refused connect, reported once the write fails
                case TCP_WRITE -> TCP_CONNECT;
                default -> phase;
            };
        }
        if (phase == TCP_WRITE && t instanceof ConnectException) {
            return TCP_CONNECT; // a connect that failed otherwise (timed out, say)
        }
        return phase;
    }
}
