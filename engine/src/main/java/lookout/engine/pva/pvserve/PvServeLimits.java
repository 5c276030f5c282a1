package lookout.engine.pva.pvserve;

/**
 * What one client may cost the engine's PV server (docs/design/status-pvs.md §Limits).
 *
 * @param maxConnections  connections that may hold channels at once (more are refused channels)
 * @param maxChannels     channels per connection
 * @param maxOperations   GET and MONITOR operations alive per connection
 * @param softQueueBytes  bytes waiting for a connection above which updates wait (merged, not queued)
 * @param slowClientNanos how long a connection may stay above {@code softQueueBytes} before it is closed
 * @param maxMessageBytes largest request accepted, reassembled from segments included
 */
public record PvServeLimits(int maxConnections, int maxChannels, int maxOperations, int softQueueBytes,
                            long slowClientNanos, int maxMessageBytes) {

    public static final PvServeLimits DEFAULT = new PvServeLimits(256, 1024, 1024, 256 * 1024,
            30_000_000_000L, 1 << 20);
}
