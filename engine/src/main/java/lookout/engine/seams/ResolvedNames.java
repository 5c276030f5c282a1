package lookout.engine.seams;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * What the PVA client has resolved, as the engine's own PVA server needs it: the name-server
 * source claims a name only when it is here (seed 002 §4: never claim what cannot be vouched for).
 * Implemented by the PVA client service; every method on the engine loop, except
 * {@link #isOwnSearcher}, which any thread may call.
 */
public interface ResolvedNames {

    /** The live server that claimed {@code name}, or null while it is unresolved or its server is gone. */
    Resolution lookup(String name);

    /** Every live resolution now (the server's claims start from these). */
    List<Resolution> resolutions();

    /** What {@link #want} did. */
    enum Want {
        /** A new channel, searched on behalf of the server's clients until {@link #release}d. */
        NEW,
        /** The client already had a channel for this name (watched, searched by an operator, or wanted already). */
        EXISTING,
        /** The name cannot be searched (too long for any search datagram). */
        REFUSED
    }

    /**
     * Asks the client to search {@code name} on behalf of the server's clients, until
     * {@link #release}: such an on-demand channel keeps its ring position and attempt count for as
     * long as the server keeps wanting it (the server decides how long, and how many).
     */
    Want want(String name);

    /**
     * The server no longer wants {@code name}: its channel goes unless the client has reasons of
     * its own to keep it. Idempotent.
     */
    void release(String name);

    /**
     * True when {@code endpoint} is one the engine's own client searches from — its search socket
     * (that port on a local address) or one of its name-server connections — so that the
     * engine's own searches never make it search on their behalf. Any thread; must not block.
     */
    boolean isOwnSearcher(InetSocketAddress endpoint);

    /** Registers a listener for resolutions made and withdrawn (server lost, restarted, failed its check). */
    void addListener(Listener listener);

    void removeListener(Listener listener);

    /**
     * @param name     the PV name
     * @param guid     the claiming server's GUID, 24 hex digits
     * @param endpoint the server's TCP endpoint
     */
    record Resolution(String name, String guid, InetSocketAddress endpoint) {
    }

    interface Listener {
        void resolved(Resolution resolution);

        void withdrawn(Resolution resolution);
    }
}
