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
import lookout.engine.net.HostPort;

/**
 * The most searched names with count and last client, in bounded memory. When the table is full
 * every count is halved and the names left at zero are forgotten (amortised O(1) per search), so
 * names searched steadily stay and one-off names make room. Counts are therefore approximate once
 * more than {@code capacity} distinct names have been seen. Confined to the engine loop.
 *
 * <p>Under churn (a flood of one-off names filling the table again and again) a new name is
 * admitted only once in {@link #admitEvery()} misses: the stride doubles, up to 64, each time the
 * table fills within {@code 4 × capacity × stride} searches of the last decay, and is 1 again after
 * that many searches without one. The window grows with the stride because at stride s a fill
 * takes s × capacity misses: a window of a fixed 4 × capacity ran out before a strided fill could
 * finish, so a steady flood fell back to stride 1 and a third of its searches made an entry (a
 * uniform draw from 100 000 names, the PVA responder benchmark's load).
 * A name searched steadily still gets in after a few searches; the flood costs a map miss per
 * search instead of an entry made and forgotten (bench/results/pva-server.md).
 */
final class TopNames {

    private static final class Entry {
        long count;
        InetSocketAddress lastClient;
        long lastSearchNanos;
    }

    private static final int MAX_ADMIT_EVERY = 64;

    private final int capacity;
    private final Map<String, Entry> entries = new HashMap<>();
    private int admitEvery = 1;
    private int missesSinceAdmit;
    private long searchesSinceDecay;

    TopNames(int capacity) {
        this.capacity = capacity;
    }

    /** Hot path: no formatting, no wall clock — both happen only when a snapshot is built. */
    void searched(String name, InetSocketAddress client, long nowNanos) {
        if (++searchesSinceDecay > churnWindow()) {
            admitEvery = 1; // no churn for a while: every new name counts again
        }
        Entry e = entries.get(name);
        if (e == null) {
            if (++missesSinceAdmit < admitEvery) {
                return;
            }
            missesSinceAdmit = 0;
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
        admitEvery = searchesSinceDecay < churnWindow() ? Math.min(admitEvery * 2, MAX_ADMIT_EVERY) : 1;
        searchesSinceDecay = 0;
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

    /** Searches within which a refill of the table counts as churn (at the present stride). */
    private long churnWindow() {
        return 4L * capacity * admitEvery;
    }

    int size() {
        return entries.size();
    }

    /** One new name in this many is admitted (1 unless the table churns). */
    int admitEvery() {
        return admitEvery;
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
            String client = e.lastClient == null ? "" : HostPort.format(e.lastClient);
            out.add(new SearchedName(all.get(i).getKey(), e.count, client, now.minusNanos(nowNanos - e.lastSearchNanos)));
        }
        return out;
    }
}
