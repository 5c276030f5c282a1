package lookout.engine.pva.server;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import lookout.engine.api.PvaServerSnapshot.SearchedName;

/**
 * The most searched names with count and last client, in bounded memory. When the table is full
 * every count is halved and the names left at zero are forgotten (amortised O(1) per search), so
 * names searched steadily stay and one-off names make room. Counts are therefore approximate once
 * more than {@code capacity} distinct names have been seen. Confined to the engine loop.
 */
final class TopNames {

    private static final class Entry {
        long count;
        InetSocketAddress lastClient;
        long lastSearchNanos;
    }

    private final int capacity;
    private final Map<String, Entry> entries = new HashMap<>();

    TopNames(int capacity) {
        this.capacity = capacity;
    }

    /** Hot path: no formatting, no wall clock — both happen only when a snapshot is built. */
    void searched(String name, InetSocketAddress client, long nowNanos) {
        Entry e = entries.get(name);
        if (e == null) {
            if (entries.size() >= capacity) {
                decay();
            }
            e = new Entry();
            entries.put(name, e);
        }
        e.count++;
        e.lastClient = client;
        e.lastSearchNanos = nowNanos;
    }

    private void decay() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            e.count >>= 1;
            if (e.count == 0) {
                it.remove();
            }
        }
        if (entries.size() >= capacity) {
            entries.clear(); // every name searched equally often: start over
        }
    }

    int size() {
        return entries.size();
    }

    /**
     * @param nowNanos the scheduler's nanoTime now
     * @param now      the wall clock now, for display
     */
    List<SearchedName> top(int n, long nowNanos, Instant now) {
        List<Map.Entry<String, Entry>> all = new ArrayList<>(entries.entrySet());
        all.sort(Comparator.comparingLong((Map.Entry<String, Entry> m) -> m.getValue().count).reversed()
                .thenComparing(Map.Entry::getKey));
        List<SearchedName> out = new ArrayList<>(Math.min(n, all.size()));
        for (int i = 0; i < all.size() && i < n; i++) {
            Entry e = all.get(i).getValue();
            String client = e.lastClient == null ? "" : UdpListener.fmt(e.lastClient.getAddress(), e.lastClient.getPort());
            out.add(new SearchedName(all.get(i).getKey(), e.count, client, now.minusNanos(nowNanos - e.lastSearchNanos)));
        }
        return out;
    }
}
