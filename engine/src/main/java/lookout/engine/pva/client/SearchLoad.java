package lookout.engine.pva.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.IntObjectHashMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The client's search machinery without sockets, for load measurements (seed 002 §8): channels
 * indexed exactly as the {@link ChannelRegistry} indexes them (by name and by CID), the ring and the
 * packer building real datagrams into a counting sink. Public only for the benchmark module,
 * which runs on the class path; the package is not exported from the engine module.
 *
 * <p>Concurrency: single-threaded, like the engine loop.
 */
public final class SearchLoad {

    /** What one drain produced. */
    public record Figures(int names, int datagrams, long bytes, int maxDatagram) {
    }

    private final SearchRing ring = new SearchRing();
    private final SearchPacker packer;
    private final Map<String, PvChannel> byName;
    private final IntObjectHashMap<PvChannel> byCid;
    private long now;

    /** Creates {@code n} channels named by {@code names} at once and runs their coalesced first search. */
    public SearchLoad(int n, IntFunction<String> names) {
        this(n, names, 1);
    }

    /**
     * Creates {@code n} channels over {@code overTicks} ticks (an equal batch before each tick,
     * each batch searched together after the 10-ms coalescing delay), or at once when 1.
     */
    public SearchLoad(int n, IntFunction<String> names, int overTicks) {
        packer = new SearchPacker(ByteBufAllocator.DEFAULT, 5076, (d, k) -> { });
        byName = new HashMap<>();
        byCid = new IntObjectHashMap<>();
        int batches = Math.max(1, overTicks);
        int created = 0;
        for (int b = 0; b < batches; b++) {
            int upTo = (int) ((long) n * (b + 1) / batches);
            for (; created < upTo; created++) {
                PvChannel c = new PvChannel(names.apply(created), created + 1);
                byName.put(c.name, c);
                byCid.put(c.cid, c);
                ring.addNew(c, now);
            }
            packer.begin();
            ring.drainInitial(packer);
            packer.flush();
            if (b < batches - 1) {
                tick();
            }
        }
    }

    /** One 1-s ring tick. */
    public Figures tick() {
        now += SearchRing.TICK;
        packer.begin();
        ring.tick(now, packer);
        packer.flush();
        return new Figures(packer.names(), packer.datagrams(), packer.bytes(), packer.maxDatagram());
    }

    /** Channels in the ring (all searching). */
    public long size() {
        return ring.size();
    }

    /** Channels whose attempt count has saturated at 30 (searched every 30 s). */
    public long saturated() {
        return byName.values().stream().filter(c -> c.attempts == SearchRing.BUCKETS).count();
    }

    public int bucketSize(int b) {
        return ring.bucketSize(b);
    }
}
