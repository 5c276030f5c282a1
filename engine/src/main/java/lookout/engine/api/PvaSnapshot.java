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
                          PvaCounters counters) {

    /** Channels listed in one snapshot; the counts above always cover all of them. */
    public static final int MAX_CHANNELS = 10_000;

    public PvaSnapshot {
        buckets = List.copyOf(buckets);
        channels = List.copyOf(channels);
        servers = List.copyOf(servers);
        destinations = List.copyOf(destinations);
        nameServers = List.copyOf(nameServers);
    }

    /** The section of an engine whose PVA client is not running. */
    public static PvaSnapshot stopped() {
        return new PvaSnapshot(false, 0, 0, 0, java.util.Collections.nCopies(30, 0), 0, false, 0, null, null,
                0, 0, 0, PvaTickSnapshot.NONE, List.of(), false, List.of(), 20_000, List.of(), List.of(),
                PvaCounters.ZERO);
    }
}
