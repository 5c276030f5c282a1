package lookout.engine.pva.client;

import java.net.InetSocketAddress;
import lookout.engine.pva.wire.Guid;

/**
 * One PV name searched by this client (seed 002 §3.1): the unit of resolution, with a CID stable
 * for its life. Channels are keyed by name alone: Lookout has no forced-server channels (they
 * bypass search entirely, §3.6, and the client's job ends at resolution). Kept small — a million
 * of these may be searching at once (§8) — so the ring links channels directly
 * ({@link #prev}/{@link #next}) instead of wrapping them in list nodes.
 *
 * <p>Concurrency: confined to the engine loop.
 */
final class PvChannel {

    /** Not in any list. */
    static final byte NOWHERE = -1;
    /** In the ring's initial (10-ms coalescing) list. */
    static final byte INITIAL = -2;
    /** Deferred by cohort splitting into the bucket under the cursor, after its next drain. */
    static final byte DEFERRED = -3;

    // why the channel exists: reference flags for the cache rule (§3.1)
    /** Listed in {@code pva.watch}. */
    static final byte REF_WATCHED = 1;
    /** Searched by an operator (until dropped). */
    static final byte REF_OPERATOR = 2;
    /** Wanted by the engine's own server for its clients, until it releases it. */
    static final byte REF_WANTED = 4;
    /** Unreferenced at the last sweep: discarded at the next. */
    static final byte SWEEP_MARK = 8;

    final String name;
    final int cid;

    ChannelState state = ChannelState.SEARCHING;
    /** Attempt count driving the ring placement (PVXS nSearch), 0..30. */
    byte attempts;
    /** Ring bucket, {@link #INITIAL} or {@link #NOWHERE}. */
    byte bucket = NOWHERE;
    byte refs;
    /** Searches sent for this channel since it was created. */
    int searches;
    /** When it last went into a search datagram (scheduler nanos), for the console's "why?". */
    long lastSearchNanos = Long.MIN_VALUE;

    PvChannel prev;
    PvChannel next;

    Guid guid;
    InetSocketAddress endpoint;

    PvChannel(String name, int cid) {
        this.name = name;
        this.cid = cid;
    }

    /** Watched, searched by an operator, or wanted by the server: kept whatever the sweeps. */
    boolean referenced() {
        return (refs & (REF_WATCHED | REF_OPERATOR | REF_WANTED)) != 0;
    }

    /** Watched or searched by an operator: the client's own reasons. */
    boolean ownReasons() {
        return (refs & (REF_WATCHED | REF_OPERATOR)) != 0;
    }

    boolean watched() {
        return (refs & REF_WATCHED) != 0;
    }

    boolean operator() {
        return (refs & REF_OPERATOR) != 0;
    }

    boolean wanted() {
        return (refs & REF_WANTED) != 0;
    }

    @Override
    public String toString() {
        return name + "#" + cid + "/" + state;
    }
}
