package lookout.engine.api;

import java.time.Instant;

/**
 * Search traffic of one ring tick (or one initial-list drain): what left per destination.
 *
 * @param at           when it ran (null before the first)
 * @param bucket       bucket drained (-1 for the initial list)
 * @param names        names searched
 * @param datagrams    datagrams built (each sent to every destination and ready name server)
 * @param bytes        bytes of those datagrams
 * @param maxDatagram  largest datagram, bytes
 * @param fast         a hurry-up (200-ms) tick
 */
public record PvaTickSnapshot(Instant at, int bucket, int names, int datagrams, long bytes, int maxDatagram,
                              boolean fast) {

    public static final PvaTickSnapshot NONE = new PvaTickSnapshot(null, -1, 0, 0, 0, 0, false);
}
