package lookout.engine.core;

import java.util.Optional;
import lookout.engine.config.Config;

/**
 * The heap a configuration needs, as the image's launcher sizes it ({@code jlink/build-image.sh}):
 * a base for the engine and the console, and a term for each thing a site configures by the
 * hundred thousand — the resolver's cache entries and the PVA names it keeps searching and, with
 * the name server, claims. The launcher reads both from the file before the JVM starts; the engine
 * checks the limit it got against the configuration it runs (at start and on each reload), so a
 * heap given by hand ({@code LOOKOUT_OPTS=-Xmx…}), or a reload that raised either, is told before
 * it runs out.
 */
public record HeapBudget(long bytes, int cacheEntries, int watchedNames) {

    /** Heap the engine and the console need besides the cache and the watched names. */
    public static final long BASE = 128L << 20;
    /**
     * Heap an entry of {@code resolver.cache_size} is given. A cache entry (a typical answer of a
     * few records on the wire, its key and its row in the cache) measures 190-300 bytes
     * (AllocationProbe.entryBytes); the rest is room for the young generation that a full cache
     * turning over at thousands of misses a second allocates through.
     */
    public static final long PER_CACHE_ENTRY = 512;
    /**
     * Heap a name of {@code pva.watch} is given. A watched name, resolved and claimed again by the
     * name server, measures about 250 bytes (its channel, the client's two indexes, the name
     * server's claim; the server it rests on is shared by all its names): 100 000 of them are 25 MB
     * of live heap, 500 000 would not fit the base at all. The rest is, as for the cache, room
     * for the young generation, so that G1 need not mark the whole heap after every collection
     * (bench/results/round-2026-12.md, issue 24).
     */
    public static final long PER_WATCHED_NAME = 512;

    /** What {@code c} needs. */
    public static HeapBudget of(Config c) {
        int cache = c.resolver().cacheSize();
        int watched = c.pva().watch().size();
        return new HeapBudget(BASE + cache * PER_CACHE_ENTRY + watched * PER_WATCHED_NAME, cache, watched);
    }

    /**
     * The warning for an engine whose heap limit is {@code maxHeap} bytes, when that is below 90 %
     * of what is needed (the launcher rounds to a megabyte); empty when it fits or there is no limit.
     */
    public Optional<String> shortfall(long maxHeap) {
        if (maxHeap == Long.MAX_VALUE || maxHeap >= bytes * 9 / 10) {
            return Optional.empty();
        }
        return Optional.of("the configuration (resolver.cache_size " + cacheEntries + ", " + watchedNames
                + " names in pva.watch) needs about " + (bytes >> 20) + " MB of heap, but the engine may use "
                + (maxHeap >> 20) + " MB: a full cache and every watched name would run it out of memory; lower"
                + " them, or restart it with LOOKOUT_OPTS=-Xmx" + ((bytes >> 20) + 1) + "m");
    }
}
