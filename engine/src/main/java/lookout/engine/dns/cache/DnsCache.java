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

    /** The live entry for {@code key}, or null (an expired one is dropped). */
    public Entry<V> get(Key key, long now) {
        Entry<V> e = map.get(key);
        if (e == null) {
            return null;
        }
        if (now - e.expiresAt() >= 0) {
            map.remove(key);
            return null;
        }
        return e;
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
