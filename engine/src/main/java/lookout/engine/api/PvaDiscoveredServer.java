package lookout.engine.api;

import java.time.Duration;
import java.time.Instant;

/**
 * One server of the client's server table (beacons and discovery replies, seed 002 §7).
 *
 * @param guid             GUID, 24 hex digits
 * @param endpoint         TCP endpoint {@code host:port}
 * @param protocol         {@code tcp} (or {@code tls})
 * @param sender           UDP source of the last beacon or reply
 * @param version          PVA protocol version of the last message
 * @param firstSeen        first beacon or reply
 * @param lastSeen         last beacon or reply
 * @param beacons          beacons received
 * @param discoveryReplies discovery replies received
 * @param observedPeriod   interval between its last two beacons (null before the second)
 * @param restarts         GUID or version changes seen on this endpoint
 * @param expiresAt        when it is declared lost without further word (lastSeen + 360 s)
 * @param status           ONLINE, STALE (no word for over 195 s: a steady-state beacon missed) or
 *                         OFFLINE (lost; kept in the snapshot for a while)
 */
public record PvaDiscoveredServer(String guid, String endpoint, String protocol, String sender, int version,
                                  Instant firstSeen, Instant lastSeen, long beacons, long discoveryReplies,
                                  Duration observedPeriod, long restarts, Instant expiresAt, Status status) {

    public enum Status { ONLINE, STALE, OFFLINE }
}
