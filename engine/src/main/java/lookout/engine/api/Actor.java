package lookout.engine.api;

import java.util.Objects;

/**
 * Who asks the engine for a change, as the audit log records it: the name of the bearer token
 * that authorised it (null when none was needed, as for the console's own engine or a signal) and
 * where it came from ({@code ip:port} of an API client, {@code console}, {@code signal}).
 *
 * @param token the token's name ({@code operator} for {@code control.token}, or a configured one), or null
 * @param peer  {@code ip:port}, {@code console} or {@code signal}
 */
public record Actor(String token, String peer) {

    /** The console that embeds the engine (and any caller of the plain facade). */
    public static final Actor CONSOLE = new Actor(null, "console");

    /** A reload by SIGHUP in the headless engine. */
    public static final Actor SIGNAL = new Actor(null, "signal");

    public Actor {
        Objects.requireNonNull(peer, "peer");
    }
}
