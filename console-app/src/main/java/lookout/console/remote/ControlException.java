package lookout.console.remote;

import java.util.List;

/**
 * A control request that did not succeed, in an operator's words: the engine refused it (and why),
 * the URL is not a Lookout engine, the engine cannot be reached, or this console will not send its
 * token there. {@link #getMessage()} is fit for standard error or a status line as it is.
 */
public final class ControlException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What kind of failure, for exit codes and for the console's read-only or STALE states. */
    public enum Kind {
        /** No connection, a timeout, or the connection broke. */
        UNREACHABLE,
        /** Something answered, but not the Lookout control API. */
        NOT_LOOKOUT,
        /** The token would have gone over plain HTTP beyond loopback: not sent, nothing asked. */
        INSECURE,
        /** 400: the request was malformed. */
        BAD_REQUEST,
        /** 401: no token, or a wrong one. */
        UNAUTHORIZED,
        /** 403: the token's role may not do this. */
        FORBIDDEN,
        /** 404: no such route (an engine older than this console). */
        NOT_FOUND,
        /** 409: a conflict (the file edited on disk, the version moved, every service removed). */
        CONFLICT,
        /** 422: the configuration has problems ({@link #problems()}). */
        INVALID,
        /** 503: the engine loop did not answer. */
        UNAVAILABLE,
        /** Anything else. */
        FAILED
    }

    private final Kind kind;
    private final int status;
    private final transient Object body;
    private final List<String> problems;

    public ControlException(Kind kind, int status, String message, Object body, List<String> problems) {
        super(message);
        this.kind = kind;
        this.status = status;
        this.body = body;
        this.problems = problems == null ? List.of() : List.copyOf(problems);
    }

    public ControlException(Kind kind, String message) {
        this(kind, 0, message, null, List.of());
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when there was no answer. */
    public int status() {
        return status;
    }

    /** The answer's JSON tree, or null. */
    public Object body() {
        return body;
    }

    /** For {@link Kind#INVALID}: {@code FILE:LINE:COLUMN: message} lines. */
    public List<String> problems() {
        return problems;
    }

    /** True when the engine itself said no (as opposed to not being reached at all). */
    public boolean refused() {
        return kind != Kind.UNREACHABLE && kind != Kind.NOT_LOOKOUT;
    }
}
