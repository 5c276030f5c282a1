package lookout.engine.dns.cache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Positive and negative (RFC 2308) answers by (name, type, class), least recently used out first,
 * bounded by {@code resolver.cache_size}. TTLs count down on the scheduler's clock: every method
 * takes {@code now} (nanoseconds). Confined to the engine loop.
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

    private int capacity;
    /** How long past its TTL an entry is kept for {@link #stale} (RFC 8767; 0: not at all). */
    private long staleNanos;
    private final LinkedHashMap<Key, Entry<V>> map;

    public DnsCache(int capacity) {
        this.capacity = Math.max(0, capacity);
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Entry<V>> eldest) {
                return size() > DnsCache.this.capacity;
            }
        };
    }

    /** The live entry for {@code key}, or null (an expired one is dropped, unless kept for {@link #stale}). */
    public Entry<V> get(Key key, long now) {
        Entry<V> e = map.get(key);
        if (e == null) {
            return null;
        }
        long past = now - e.expiresAt();
        if (past >= 0) {
            if (past >= staleNanos) {
                map.remove(key);
            }
            return null;
        }
        return e;
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
        Entry<V> e = map.get(key);
        if (e == null) {
            return null;
        }
        long past = now - e.expiresAt();
        return past >= 0 && past < Math.min(limitNanos, staleNanos) ? e : null;
    }

    public void put(Key key, V value, long ttlSeconds, long now) {
        if (ttlSeconds <= 0 || capacity == 0) {
            return;
        }
        map.put(key, new Entry<>(value, now, ttlSeconds));
    }

    public int size() {
        return map.size();
    }

    public int capacity() {
        return capacity;
    }

    public void resize(int newCapacity) {
        capacity = Math.max(0, newCapacity);
        Iterator<Key> it = map.keySet().iterator();
        while (map.size() > capacity && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    /** Drops every entry whose key matches (live reload: names whose routing changed). */
    public int removeIf(Predicate<Key> drop) {
        int before = map.size();
        map.keySet().removeIf(drop);
        return before - map.size();
    }

    public void clear() {
        map.clear();
    }
}
