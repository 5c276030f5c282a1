package lookout.engine.api;

import java.time.Instant;
import java.util.List;

/**
 * The PVA client: search ring, channels, discovered servers, name servers (seed 002 §3, §6, §7).
 *
 * @param running            the client is started
 * @param searchPort         local UDP port searches are sent from and replies arrive on (0 when not bound)
 * @param beaconPort         UDP port beacons are received on ({@code pva.broadcast_port}; 0 when not bound)
 * @param cursor             ring bucket drained by the next tick (0..29)
 * @param buckets            channels in each of the 30 ring buckets
 * @param initialList        new channels waiting for the 10-ms coalesced first search
 * @param hurryUp            a hurry-up revolution (200-ms ticks) is running
 * @param hurryUpTicksLeft   fast ticks left in it
 * @param hurryUpAvailableAt when the next hurry-up will be accepted (null: now)
 * @param nextTickAt         when the next ring tick fires
 * @param channelCount       channels alive
 * @param searching          channels in Searching
 * @param resolved           channels Resolved
 * @param lastTick           the last tick's search traffic
 * @param channels           each channel (at most {@link #MAX_CHANNELS}; watched and operator ones first)
 * @param channelsTruncated  more channels exist than listed
 * @param servers            the server table (beacons and discovery replies), then recently lost servers
 * @param serverTableLimit   the table's capacity (20 000)
 * @param destinations       UDP search destinations, {@code host:port} with " (unicast)" or " (broadcast)"
 * @param nameServers        TCP name-server connections
 * @param counters           totals since start
 * @param claims             each server endpoint resolved channels rest on, and why they are
 *                           believed: its beacons, its last check, or only the reply
 */
public record PvaSnapshot(boolean running,
                          int searchPort,
                          int beaconPort,
                          int cursor,
                          List<Integer> buckets,
                          int initialList,
                          boolean hurryUp,
                          int hurryUpTicksLeft,
                          Instant hurryUpAvailableAt,
                          Instant nextTickAt,
                          long channelCount,
                          long searching,
                          long resolved,
                          PvaTickSnapshot lastTick,
                          List<PvaChannelSnapshot> channels,
                          boolean channelsTruncated,
                          List<PvaDiscoveredServer> servers,
                          int serverTableLimit,
                          List<String> destinations,
                          List<PvaNameServerSnapshot> nameServers,
                          PvaCounters counters,
                          List<Claim> claims) {

    /** Channels listed in one snapshot; the counts above always cover all of them. */
    public static final int MAX_CHANNELS = 10_000;

    public PvaSnapshot {
        buckets = List.copyOf(buckets);
        channels = List.copyOf(channels);
        servers = List.copyOf(servers);
        destinations = List.copyOf(destinations);
        nameServers = List.copyOf(nameServers);
        claims = List.copyOf(claims);
    }

    /** Without the claims (earlier callers). */
    public PvaSnapshot(boolean running, int searchPort, int beaconPort, int cursor, List<Integer> buckets,
                       int initialList, boolean hurryUp, int hurryUpTicksLeft, Instant hurryUpAvailableAt,
                       Instant nextTickAt, long channelCount, long searching, long resolved, PvaTickSnapshot lastTick,
                       List<PvaChannelSnapshot> channels, boolean channelsTruncated, List<PvaDiscoveredServer> servers,
                       int serverTableLimit, List<String> destinations, List<PvaNameServerSnapshot> nameServers,
                       PvaCounters counters) {
        this(running, searchPort, beaconPort, cursor, buckets, initialList, hurryUp, hurryUpTicksLeft,
                hurryUpAvailableAt, nextTickAt, channelCount, searching, resolved, lastTick, channels,
                channelsTruncated, servers, serverTableLimit, destinations, nameServers, counters, List.of());
    }

    /**
     * What the resolutions resting on one server endpoint are believed on (issue: claims that follow
     * the server's life).
     *
     * @param endpoint        the server's TCP endpoint, {@code host:port}
     * @param guid            the GUID that claimed them
     * @param names           resolved channels resting on it
     * @param lastBeacon      its last beacon, or null when none was heard
     * @param lastCheck       its last TCP check (connect and the PVA handshake), or null before the first
     * @param lastCheckResult {@code ok}, why the last check failed, or empty before the first
     * @param basis           {@code beacons} (one within the check window), {@code check} (the last
     *                        check), or {@code reply} (claimed, not checked yet)
     */
    public record Claim(String endpoint, String guid, long names, Instant lastBeacon, Instant lastCheck,
                        String lastCheckResult, String basis) {
    }

    /** The section of an engine whose PVA client is not running. */
    public static PvaSnapshot stopped() {
        return new PvaSnapshot(false, 0, 0, 0, java.util.Collections.nCopies(30, 0), 0, false, 0, null, null,
                0, 0, 0, PvaTickSnapshot.NONE, List.of(), false, List.of(), 20_000, List.of(), List.of(),
                PvaCounters.ZERO, List.of());
    }
}
