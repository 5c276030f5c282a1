package lookout.engine.pva.client;

import java.net.InetSocketAddress;
import lookout.engine.pva.wire.Guid;

/**
 * One PV name searched by this client (seed 002 §3.1): the unit of resolution, with a CID stable
 * for its life. Channels are keyed by name alone: Lookout has no forced-server channels (they
 * bypass search entirely, §3.6, and the client's job ends at resolution). Kept small — a million of these may be searching at once (§8) — so the ring links
 * channels directly ({@link #prev}/{@link #next}) instead of wrapping them in list nodes.
 *
 * <p>Concurrency: confined to the engine loop.
 */
final class PvChannel {

    /** Not in any list. */
    static final byte NOWHERE = -1;
    /** In the ring's initial (10-ms coalescing) list. */
    static final byte INITIAL = -2;

    // reference flags for the cache rule (§3.1)
    static final byte REF_WATCHED = 1;
    static final byte REF_OPERATOR = 2;
    static final byte REF_WANTED = 4;
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

    PvChannel prev;
    PvChannel next;

    Guid guid;
    InetSocketAddress endpoint;

    PvChannel(String name, int cid) {
        this.name = name;
        this.cid = cid;
    }

    boolean referenced() {
        return (refs & (REF_WATCHED | REF_OPERATOR)) != 0;
    }

    @Override
    public String toString() {
        return name + "#" + cid + "/" + state;
    }
}
