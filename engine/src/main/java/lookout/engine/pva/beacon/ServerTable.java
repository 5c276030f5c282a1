package lookout.engine.pva.beacon;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.pva.wire.Guid;

/**
 * The servers seen on the subnet, fed by beacons and discovery replies alike (seed 002 §7: a
 * discovery reply is treated exactly like a beacon). Keyed like PVXS by (server endpoint,
 * protocol): a changed GUID or protocol version on the same key is a restart. Entries not heard
 * from for 360 s are lost (§9, checked every 180 s). At most 20 000 entries: a new server beyond
 * that is refused and counted, on the assumption that some server is in a restart loop (§9).
 *
 * <p>A pure structure: {@code now} is nanoseconds on the scheduler's clock.
 *
 * <p>Concurrency: confined to the engine loop.
 */
public final class ServerTable {

    public static final int LIMIT = 20_000;
    public static final long EXPIRY = TimeUnit.SECONDS.toNanos(360);
    public static final long CHECK_INTERVAL = TimeUnit.SECONDS.toNanos(180);

    /** How a server made itself known. */
    public enum Via {
        BEACON, DISCOVERY;

        @Override
        public String toString() {
            return name().toLowerCase();
        }
    }

    /** What one observation did to the table. */
    public enum Outcome {
        /** A server not in the table: added (a new beacon source, §3.2 hurry-up). */
        NEW,
        /** A known server heard again. */
        REFRESHED,
        /** Same endpoint and protocol, another GUID or protocol version. */
        RESTARTED,
        /** The table is full: not added. */
        REFUSED
    }

    /** The table key: where the server listens and with which protocol. */
    public record Key(InetSocketAddress endpoint, String protocol) {
    }

    /** One server. Mutable inside the table; read it on the engine loop only. */
    public static final class Entry {
        private final Key key;
        private Guid guid;
        private int version;
        private InetSocketAddress sender;
        private final long firstSeen;
        private long lastSeen;
        private long lastBeacon = Long.MIN_VALUE;
        private boolean hasBeacon;
        private long beacons;
        private long discoveryReplies;
        private long observedPeriod = -1;
        private long restarts;

        Entry(Key key, long now) {
            this.key = key;
            this.firstSeen = now;
            this.lastSeen = now;
        }

        public Key key() { return key; }
        public Guid guid() { return guid; }
        public int version() { return version; }
        public InetSocketAddress sender() { return sender; }
        public long firstSeen() { return firstSeen; }
        public long lastSeen() { return lastSeen; }
        public long beacons() { return beacons; }
        /** When the last beacon came (scheduler nanoseconds); meaningless unless {@link #hasBeacon()}. */
        public long lastBeacon() { return lastBeacon; }
        public boolean hasBeacon() { return hasBeacon; }
        public long discoveryReplies() { return discoveryReplies; }
        /** Interval between the last two beacons, or -1 before the second one. */
        public long observedPeriod() { return observedPeriod; }
        public long restarts() { return restarts; }
    }

    /**
     * @param outcome     what happened
     * @param entry       the entry (null when refused)
     * @param previousGuid the GUID before a restart, else null
     */
    public record Observation(Outcome outcome, Entry entry, Guid previousGuid) {
    }

    private final Map<Key, Entry> entries = new HashMap<>();
    private final int limit;
    private long refused;

    public ServerTable() {
        this(LIMIT);
    }

    ServerTable(int limit) {
        this.limit = limit;
    }

    /** Records a beacon or discovery reply from {@code sender} announcing {@code key}. */
    public Observation observe(Key key, Guid guid, int version, InetSocketAddress sender, Via via, long now) {
        Entry e = entries.get(key);
        Outcome outcome = Outcome.REFRESHED;
        Guid previous = null;
        if (e == null) {
            if (entries.size() >= limit) {
                refused++;
                return new Observation(Outcome.REFUSED, null, null);
            }
            e = new Entry(key, now);
            entries.put(key, e);
            outcome = Outcome.NEW;
        } else if (!e.guid.equals(guid) || e.version != version) {
            outcome = Outcome.RESTARTED;
            previous = e.guid;
            e.restarts++;
        }
        e.guid = guid;
        e.version = version;
        // the sender may change without a restart: a server's beacons can reach us on several interfaces
        e.sender = sender;
        e.lastSeen = now;
        if (via == Via.BEACON) {
            if (e.hasBeacon) {
                e.observedPeriod = now - e.lastBeacon;
            }
            e.hasBeacon = true;
            e.lastBeacon = now;
            e.beacons++;
        } else {
            e.discoveryReplies++;
        }
        return new Observation(outcome, e, previous);
    }

    /** Removes and returns the entries not heard from for more than 360 s. */
    public List<Entry> expire(long now) {
        List<Entry> lost = new ArrayList<>();
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (now - e.lastSeen > EXPIRY) {
                it.remove();
                lost.add(e);
            }
        }
        return lost;
    }

    public Entry get(Key key) {
        return entries.get(key);
    }

    public Collection<Entry> entries() {
        return Collections.unmodifiableCollection(entries.values());
    }

    public int size() {
        return entries.size();
    }

    public int limit() {
        return limit;
    }

    /** New servers refused because the table was full. */
    public long refused() {
        return refused;
    }

    public void clear() {
        entries.clear();
    }
}
