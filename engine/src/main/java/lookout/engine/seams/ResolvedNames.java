package lookout.engine.seams;

import java.net.InetSocketAddress;

/**
 * What the PVA client has resolved, as the engine's own PVA server needs it: the name-server
 * source claims a name only when it is here (seed 002 §4: never claim what cannot be vouched for).
 * Implemented by the PVA client service; every method on the engine loop.
 */
public interface ResolvedNames {

    /** The live server that claimed {@code name}, or null while it is unresolved or its server is gone. */
    Resolution lookup(String name);

    /**
     * Asks the client to resolve {@code name} on behalf of a searching client (idempotent). Names
     * wanted this way and not asked for again are dropped after the channel cache rule (§3.1).
     */
    void want(String name);

    /** Registers a listener for resolutions made and withdrawn (server lost or restarted). */
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
