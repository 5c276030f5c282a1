package lookout.engine.dns.cache;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Positive and negative (RFC 2308) answers by (name, type, class), least recently used out first,
 * bounded by {@code resolver.cache_size}. TTLs count down on the scheduler's clock: every method
 * takes {@code now} (nanoseconds). Confined to the engine loop.
 *
 * <p>An entry is one {@code byte[]} (its name and its value as the {@link Codec} writes it) and a
 * row of primitive arrays (hash, type and class, times, recency and bucket links): no object graph
 * per entry. A full cache turns over all the time in a service (every uncached question stores an
 * answer and evicts one), and a map of boxed entries made each of them eight or nine objects that
 * lived just long enough to be copied out of the young generation and then scanned for, through
 * every old card the map's table and recency links dirtied: with 100 000 entries at 8 000 new
 * answers a second that was most of each young pause (p99 11 ms against 2.4 ms with a
 * 1 000-entry cache, docs/design/dns.md "Footprint"). Here a new answer is one array and a few
 * primitive stores.
 *
 * @param <V> the cached answer
 */
public final class DnsCache<V> {

    /** The key: name in presentation form, lower case. */
    public record Key(String name, int type, int cls) {
    }

    /** A cached value with the time it was stored and its lifetime. */
    public record Entry<V>(V value, long storedAt, long ttlSeconds) {
        public long expiresAt() {
            return storedAt + ttlSeconds * 1_000_000_000L;
        }

        /** Whole seconds since it was stored (what each TTL is lowered by). */
        public long elapsedSeconds(long now) {
            return (now - storedAt) / 1_000_000_000L;
        }
    }

    /** How a value is kept: written into the entry's array at put, read back at get. */
    public interface Codec<V> {
        /** The bytes {@link #write} writes for {@code value} kept for {@code key}. */
        int size(Key key, V value);

        void write(Key key, V value, byte[] to, int at);

        /** The value written at {@code at} ({@code length} bytes) for {@code key}. */
        V read(Key key, byte[] from, int at, int length);
    }

    private static final int NONE = -1;
    private static final int FIRST_ROWS = 16;
    /** Name length, two bytes, before the name; the value follows the name. */
    private static final int NAME_AT = 2;

    private final Codec<V> codec;
    private int capacity;
    /** How long past its TTL an entry is kept for {@link #stale} (RFC 8767; 0: not at all). */
    private long staleNanos;

    // one row per entry, by slot
    private int[] hashes;
    private int[] typeClass;
    private long[] storedAt;
    private long[] ttlSeconds;
    private int[] older;
    private int[] newer;
    /** The next slot in the same bucket, or in the free list. */
    private int[] chain;
    private byte[][] blobs;
    /** The first slot of each bucket (a power of two, at least twice the rows: short chains). */
    private int[] buckets;

    private int size;
    /** Slots handed out so far (those below it are live or free). */
    private int used;
    private int free = NONE;
    private int newest = NONE;
    private int oldest = NONE;

    public DnsCache(int capacity, Codec<V> codec) {
        this.capacity = Math.max(0, capacity);
        this.codec = codec;
        allocate(Math.min(FIRST_ROWS, Math.max(1, this.capacity)));
    }

    private void allocate(int rows) {
        hashes = new int[rows];
        typeClass = new int[rows];
        storedAt = new long[rows];
        ttlSeconds = new long[rows];
        older = new int[rows];
        newer = new int[rows];
        chain = new int[rows];
        blobs = new byte[rows][];
        buckets = new int[Integer.highestOneBit(Math.max(1, rows - 1)) << 2];
        Arrays.fill(buckets, NONE);
        size = 0;
        used = 0;
        free = NONE;
        newest = NONE;
        oldest = NONE;
    }

    private static int hash(Key key) {
        int h = key.name().hashCode() * 31 + key.type();
        h = h * 31 + key.cls();
        return h ^ (h >>> 16);
    }

    private static int typeClass(Key key) {
        return (key.type() << 16) | (key.cls() & 0xFFFF);
    }

    /** The slot holding {@code key}, or {@link #NONE}. */
    private int slotOf(Key key) {
        return slotOf(key, hash(key));
    }

    private int slotOf(Key key, int h) {
        int tc = typeClass(key);
        String name = key.name();
        for (int s = buckets[h & (buckets.length - 1)]; s != NONE; s = chain[s]) {
            if (hashes[s] == h && typeClass[s] == tc && sameName(blobs[s], name)) {
                return s;
            }
        }
        return NONE;
    }

    private static int nameLength(byte[] blob) {
        return ((blob[0] & 0xFF) << 8) | (blob[1] & 0xFF);
    }

    private static boolean sameName(byte[] blob, String name) {
        int n = nameLength(blob);
        if (n != name.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (name.charAt(i) != blob[NAME_AT + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The slot of the live entry for {@code key}, now the most recently used, or -1 (an expired
     * one is dropped, unless kept for {@link #stale}). The slot names the entry until the cache is
     * next changed; {@link #blob}, {@link #valueAt} and {@link #storedAt} read it. For a caller
     * that answers from the stored bytes without making the value again (the cache-hit fast path).
     */
    public int find(Key key, long now) {
        int s = slotOf(key);
        if (s == NONE) {
            return NONE;
        }
        long past = now - expiresAt(s);
        if (past >= 0) {
            if (past >= staleNanos) {
                remove(s);
            }
            return NONE;
        }
        touch(s);
        return s;
    }

    /** The entry's bytes (never to be changed): {@link #valueAt} on, the codec's. */
    public byte[] blob(int slot) {
        return blobs[slot];
    }

    /** Where the entry's value starts in its {@link #blob}. */
    public int valueAt(int slot) {
        return NAME_AT + nameLength(blobs[slot]);
    }

    public long storedAt(int slot) {
        return storedAt[slot];
    }

    /** The live entry for {@code key}, or null (an expired one is dropped, unless kept for {@link #stale}). */
    public Entry<V> get(Key key, long now) {
        int s = find(key, now);
        return s == NONE ? null : entry(key, s);
    }

    private Entry<V> entry(Key key, int s) {
        byte[] b = blobs[s];
        int at = valueAt(s);
        return new Entry<>(codec.read(key, b, at, b.length - at), storedAt[s], ttlSeconds[s]);
    }

    private long expiresAt(int s) {
        return storedAt[s] + ttlSeconds[s] * 1_000_000_000L;
    }

    /**
     * Keeps expired entries up to {@code nanos} past their TTL, for {@link #stale} (RFC 8767's
     * stale limit; 0: expired entries go at once). LRU eviction still bounds the cache.
     */
    public void keepStale(long nanos) {
        staleNanos = Math.max(0, nanos);
    }

    /**
     * An entry for {@code key} that expired less than {@code limitNanos} ago (and is kept:
     * {@link #keepStale}), or null: a live one, none, or one past the limit.
     */
    public Entry<V> stale(Key key, long now, long limitNanos) {
        int s = slotOf(key);
        if (s == NONE) {
            return null;
        }
        long past = now - expiresAt(s);
        if (past >= 0 && past < Math.min(limitNanos, staleNanos)) {
            touch(s);
            return entry(key, s);
        }
        return null;
    }

    /**
     * Stores {@code value} for {@code key}, the most recently used, evicting the least recently
     * used when full. Not kept: a TTL of 0 or less (RFC 1035 §3.2.1: for the transaction in
     * progress only), and a name with a character beyond ASCII (presentation form escapes every
     * other octet, so none arrives; stored as one byte a character, such a name could meet another).
     */
    public void put(Key key, V value, long ttlSeconds, long now) {
        if (ttlSeconds <= 0 || capacity == 0) {
            return;
        }
        String name = key.name();
        int n = name.length();
        if (n > 0xFFFF) {
            return;
        }
        for (int i = 0; i < n; i++) {
            if (name.charAt(i) > 0x7F) {
                return;
            }
        }
        int vlen = codec.size(key, value);
        byte[] b = new byte[NAME_AT + n + vlen];
        b[0] = (byte) (n >>> 8);
        b[1] = (byte) n;
        for (int i = 0; i < n; i++) {
            b[NAME_AT + i] = (byte) name.charAt(i);
        }
        codec.write(key, value, b, NAME_AT + n);
        int h = hash(key);
        int s = slotOf(key, h);
        if (s != NONE) {
            remove(s);
        }
        if (size >= capacity) {
            remove(oldest);
        }
        s = newSlot();
        hashes[s] = h;
        typeClass[s] = typeClass(key);
        storedAt[s] = now;
        this.ttlSeconds[s] = ttlSeconds;
        blobs[s] = b;
        int bucket = h & (buckets.length - 1);
        chain[s] = buckets[bucket];
        buckets[bucket] = s;
        linkNewest(s);
        size++;
    }

    private int newSlot() {
        if (free != NONE) {
            int s = free;
            free = chain[s];
            return s;
        }
        if (used == blobs.length) {
            rebuild(Math.min(Math.max(capacity, 1), Math.max(FIRST_ROWS, blobs.length * 2)));
        }
        return used++;
    }

    /** Moves every entry, least recently used first, into rows of {@code rows} (at least size). */
    private void rebuild(int rows) {
        int[] h0 = hashes;
        int[] tc0 = typeClass;
        long[] at0 = storedAt;
        long[] ttl0 = ttlSeconds;
        int[] newer0 = newer;
        byte[][] b0 = blobs;
        int from = oldest;
        allocate(rows);
        for (int s = from; s != NONE; s = newer0[s]) {
            int t = used++;
            hashes[t] = h0[s];
            typeClass[t] = tc0[s];
            storedAt[t] = at0[s];
            ttlSeconds[t] = ttl0[s];
            blobs[t] = b0[s];
            int bucket = hashes[t] & (buckets.length - 1);
            chain[t] = buckets[bucket];
            buckets[bucket] = t;
            linkNewest(t);
            size++;
        }
    }

    private void linkNewest(int s) {
        older[s] = newest;
        newer[s] = NONE;
        if (newest != NONE) {
            newer[newest] = s;
        } else {
            oldest = s;
        }
        newest = s;
    }

    private void unlink(int s) {
        int o = older[s];
        int n = newer[s];
        if (o != NONE) {
            newer[o] = n;
        } else {
            oldest = n;
        }
        if (n != NONE) {
            older[n] = o;
        } else {
            newest = o;
        }
    }

    private void touch(int s) {
        if (s != newest) {
            unlink(s);
            linkNewest(s);
        }
    }

    private void remove(int s) {
        int bucket = hashes[s] & (buckets.length - 1);
        int prev = NONE;
        for (int t = buckets[bucket]; t != s; t = chain[t]) {
            prev = t;
        }
        if (prev == NONE) {
            buckets[bucket] = chain[s];
        } else {
            chain[prev] = chain[s];
        }
        unlink(s);
        blobs[s] = null;
        chain[s] = free;
        free = s;
        size--;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    public void resize(int newCapacity) {
        capacity = Math.max(0, newCapacity);
        while (size > capacity) {
            remove(oldest);
        }
        int rows = Math.max(FIRST_ROWS, capacity);
        if (blobs.length > 2 * rows) {
            // a cache made much smaller gives its rows back
            rebuild(Math.max(size, Math.min(FIRST_ROWS, Math.max(1, capacity))));
        }
    }

    /** Drops every entry whose key matches (live reload: names whose routing changed). */
    public int removeIf(Predicate<Key> drop) {
        int before = size;
        for (int s = oldest; s != NONE; ) {
            int next = newer[s];
            if (drop.test(keyOf(s))) {
                remove(s);
            }
            s = next;
        }
        return before - size;
    }

    private Key keyOf(int s) {
        byte[] b = blobs[s];
        int n = nameLength(b);
        String name = new String(b, NAME_AT, n, java.nio.charset.StandardCharsets.US_ASCII);
        return new Key(name, typeClass[s] >>> 16, typeClass[s] & 0xFFFF);
    }

    public void clear() {
        allocate(Math.min(FIRST_ROWS, Math.max(1, capacity)));
    }
}
