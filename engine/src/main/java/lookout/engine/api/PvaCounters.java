package lookout.engine.api;

/**
 * Totals of the PVA client since start.
 *
 * @param searchDatagrams    search datagrams built
 * @param searchBytes        bytes of those datagrams
 * @param searchNames        names searched
 * @param sendErrors         UDP sends that failed
 * @param replies            SEARCH_RESPONSE messages processed (UDP and TCP)
 * @param ignoredGuid        replies discarded by {@code pva.ignore_guids}
 * @param resolvedTotal      channels resolved
 * @param duplicateClaims    claims by another GUID for a resolved name
 * @param beacons            beacons received
 * @param discoveryReplies   discovery replies received
 * @param discoveryPings     discovery pings sent
 * @param malformed          datagrams and TCP messages dropped as truncated or inconsistent
 * @param ignored            well-formed messages of no use to the client (searches of other clients, ...)
 * @param serverTableRefused new servers refused by the full table
 * @param namesTooLong       names refused because they exceed the 64 KiB search buffer
 * @param hurryUps           hurry-up revolutions started
 */
public record PvaCounters(long searchDatagrams, long searchBytes, long searchNames, long sendErrors, long replies,
                          long ignoredGuid, long resolvedTotal, long duplicateClaims, long beacons,
                          long discoveryReplies, long discoveryPings, long malformed, long ignored,
                          long serverTableRefused, long namesTooLong, long hurryUps) {

    public static final PvaCounters ZERO = new PvaCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
