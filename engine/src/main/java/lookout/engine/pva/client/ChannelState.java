package lookout.engine.pva.client;

/**
 * Where a channel is in resolution. Lookout's client stops at Resolved (SPEC §PVA): it records the
 * claiming server's GUID and endpoint and creates no channel on it.
 */
enum ChannelState {
    /** In the ring (or its initial list), searched until some server claims it. */
    SEARCHING,
    /** Claimed: GUID and endpoint recorded, no longer searched (§3.5 step 4). */
    RESOLVED
}
