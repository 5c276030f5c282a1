package lookout.engine.pva.server;

/**
 * Something that may claim PV names for the engine's PVA server: the seam for future sources
 * (a gateway, locally hosted PVs). Today the only one is {@link NameServerSource}.
 *
 * <p>seed 002 §4 contract: {@link #onSearch} runs on the UDP receive workers — the responder
 * threads, several at once — and on name-server connections, for every search reaching the host;
 * it must be thread-safe, must not block and must not do I/O — treat it as a hash-table lookup.
 * A source claims a name only if it can vouch for it right now; otherwise it stays silent and lets
 * the client retry.
 */
public interface Source {

    /** Short name for logs and the snapshot. */
    String name();

    /** Offered every name of one search message; claims any subset through {@code operation}. */
    void onSearch(SearchOperation operation);
}
