package lookout.engine.dns.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §Resolver cache: positive and negative (RFC 2308) answers with TTLs counting down on the
 * scheduler's clock, bounded size, least recently used out first; live reload resizes it and
 * drops names whose routing changed. Checked on ordinary clocks and on clocks at both ends of the
 * {@code long} range, where an entry's lifetime wraps past {@code Long.MAX_VALUE}.
 */
class DnsCacheTest {

    private static final long S = 1_000_000_000L;
    private static final int A = 1;
    private static final int AAAA = 28;
    private static final int IN = 1;
    private static final int CH = 3;

    /** What the resolver caches is opaque here: a stand-in with the response code it would carry. */
    record Cached(String rcode, String data) {
    }

    private static final Cached POSITIVE = new Cached("NOERROR", "192.0.2.1");
    private static final Cached NEGATIVE = new Cached("NXDOMAIN", "");

    /** The stand-in kept as two strings, as the resolver's codec keeps its answers' fields. */
    static final DnsCache.Codec<Cached> CACHED = new DnsCache.Codec<>() {
        @Override
        public int size(DnsCache.Key key, Cached c) {
            return 4 + c.rcode().getBytes(StandardCharsets.UTF_8).length + c.data().getBytes(StandardCharsets.UTF_8).length;
        }

        @Override
        public void write(DnsCache.Key key, Cached c, byte[] to, int at) {
            ByteBuffer b = ByteBuffer.wrap(to, at, to.length - at);
            for (String s : List.of(c.rcode(), c.data())) {
                byte[] t = s.getBytes(StandardCharsets.UTF_8);
                b.putShort((short) t.length).put(t);
            }
        }

        @Override
        public Cached read(DnsCache.Key key, byte[] from, int at, int length) {
            ByteBuffer b = ByteBuffer.wrap(from, at, length);
            String[] two = new String[2];
            for (int i = 0; i < 2; i++) {
                byte[] t = new byte[b.getShort()];
                b.get(t);
                two[i] = new String(t, StandardCharsets.UTF_8);
            }
            return new Cached(two[0], two[1]);
        }
    };

    static final DnsCache.Codec<Integer> INTS = new DnsCache.Codec<>() {
        @Override
        public int size(DnsCache.Key key, Integer v) {
            return 4;
        }

        @Override
        public void write(DnsCache.Key key, Integer v, byte[] to, int at) {
            ByteBuffer.wrap(to, at, 4).putInt(v);
        }

        @Override
        public Integer read(DnsCache.Key key, byte[] from, int at, int length) {
            assertThat(length).isEqualTo(4);
            return ByteBuffer.wrap(from, at, 4).getInt();
        }
    };

    private static DnsCache.Key key(String name) {
        return new DnsCache.Key(name, A, IN);
    }

    static LongStream clocks() {
        return LongStream.of(0L, 1_000_000_000_000L, -1L, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE,
                Long.MAX_VALUE - 10 * S, Long.MAX_VALUE - 300 * S + 1, -150 * S);
    }

    /** RFC 8767: an expired entry is kept up to the stale window and found by stale() only, across the wrap. */
    @ParameterizedTest
    @MethodSource("clocks")
    void expiredEntriesAreKeptForTheStaleWindowOnly(long t0) {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.keepStale(60 * S);
        cache.put(key("a."), POSITIVE, 300, t0);
        assertThat(cache.stale(key("a."), t0 + 299 * S, 60 * S)).as("live: not stale").isNull();
        assertThat(cache.get(key("a."), t0 + 300 * S)).as("expired: no live answer").isNull();
        assertThat(cache.stale(key("a."), t0 + 300 * S, 60 * S)).isNotNull();
        assertThat(cache.stale(key("a."), t0 + 359 * S, 60 * S)).isNotNull();
        assertThat(cache.stale(key("a."), t0 + 359 * S, 30 * S)).as("past the asked limit").isNull();
        assertThat(cache.stale(key("a."), t0 + 360 * S, 60 * S)).as("past the window").isNull();
        assertThat(cache.get(key("a."), t0 + 360 * S)).isNull();
        assertThat(cache.size()).as("dropped once past the window").isZero();
        // without a window, an expired entry goes at once
        DnsCache<Cached> plain = new DnsCache<>(10, CACHED);
        plain.put(key("b."), POSITIVE, 300, t0);
        assertThat(plain.get(key("b."), t0 + 300 * S)).isNull();
        assertThat(plain.stale(key("b."), t0 + 300 * S, 60 * S)).isNull();
        assertThat(plain.size()).isZero();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void anEntryLivesForItsTtlOnTheSchedulerClock(long t0) {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("www.example.com."), POSITIVE, 300, t0);

        assertThat(cache.get(key("www.example.com."), t0)).isNotNull();
        DnsCache.Entry<Cached> late = cache.get(key("www.example.com."), t0 + 300 * S - 1);
        assertThat(late).isNotNull();
        assertThat(late.value()).isEqualTo(POSITIVE);
        assertThat(cache.get(key("www.example.com."), t0 + 300 * S)).as("gone when its TTL is spent").isNull();
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void theTtlCountsDownInWholeSecondsSinceTheAnswerWasStored(long t0) {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("www.example.com."), POSITIVE, 300, t0);

        assertThat(cache.get(key("www.example.com."), t0 + S / 2).elapsedSeconds(t0 + S / 2)).isZero();
        assertThat(cache.get(key("www.example.com."), t0 + 1500 * S / 1000).elapsedSeconds(t0 + 1500 * S / 1000)).isEqualTo(1);
        long almost = t0 + 300 * S - 1;
        assertThat(cache.get(key("www.example.com."), almost).elapsedSeconds(almost)).isEqualTo(299);
        assertThat(cache.get(key("www.example.com."), t0).expiresAt()).isEqualTo(t0 + 300 * S);
    }

    @ParameterizedTest
    @MethodSource("clocks")
    void anExpiredEntryIsDroppedWhenLookedUp(long t0) {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("a.example."), POSITIVE, 5, t0);
        cache.put(key("b.example."), POSITIVE, 50, t0);

        assertThat(cache.get(key("a.example."), t0 + 5 * S)).isNull();

        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get(key("b.example."), t0 + 5 * S)).isNotNull();
    }

    @Test
    void anAnswerStoredTenSecondsBeforeTheClockWrapsLivesAcrossTheWrap() {
        long t0 = Long.MAX_VALUE - 10 * S;
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("www.example.com."), POSITIVE, 30, t0);
        long afterWrap = t0 + 29 * S;
        assertThat(afterWrap).isNegative();

        DnsCache.Entry<Cached> e = cache.get(key("www.example.com."), afterWrap);
        assertThat(e).isNotNull();
        assertThat(e.elapsedSeconds(afterWrap)).isEqualTo(29);
        assertThat(cache.get(key("www.example.com."), t0 + 30 * S)).isNull();
    }

    @Test
    void aZeroTtlIsNeverCached() {
        // RFC 1035 §3.2.1: TTL 0 means the record is for the transaction in progress only
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("zero.example."), POSITIVE, 0, 0);
        cache.put(key("negative.example."), POSITIVE, -1, 0);

        assertThat(cache.size()).isZero();
        assertThat(cache.get(key("zero.example."), 0)).isNull();
    }

    @Test
    void aNewerAnswerReplacesTheOldAndStartsItsOwnCountdown() {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(key("www.example.com."), POSITIVE, 10, 0);
        Cached newer = new Cached("NOERROR", "192.0.2.2");
        cache.put(key("www.example.com."), newer, 10, 8 * S);

        DnsCache.Entry<Cached> e = cache.get(key("www.example.com."), 12 * S);
        assertThat(e.value()).isEqualTo(newer);
        assertThat(e.elapsedSeconds(12 * S)).isEqualTo(4);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get(key("www.example.com."), 18 * S)).isNull();
    }

    @Test
    void negativeAnswersAreKeptBesidePositiveOnesEachWithItsOwnTtl() {
        // RFC 2308 §5: a negative answer is cached by (name, type, class) like a positive one,
        // for its own TTL (the SOA's, which the resolver works out before calling put)
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        DnsCache.Key noA = new DnsCache.Key("v6only.example.", A, IN);
        DnsCache.Key aaaa = new DnsCache.Key("v6only.example.", AAAA, IN);
        cache.put(noA, NEGATIVE, 60, 0);
        cache.put(aaaa, POSITIVE, 300, 0);

        assertThat(cache.get(noA, 59 * S).value()).isEqualTo(NEGATIVE);
        assertThat(cache.get(aaaa, 59 * S).value()).isEqualTo(POSITIVE);
        assertThat(cache.get(noA, 60 * S)).isNull();
        assertThat(cache.get(aaaa, 60 * S)).isNotNull();
    }

    @Test
    void nameTypeAndClassTogetherAreTheKey() {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        cache.put(new DnsCache.Key("www.example.com.", A, IN), POSITIVE, 60, 0);

        assertThat(cache.get(new DnsCache.Key("www.example.com.", A, IN), S)).isNotNull();
        assertThat(cache.get(new DnsCache.Key("www.example.com.", AAAA, IN), S)).isNull();
        assertThat(cache.get(new DnsCache.Key("www.example.com.", A, CH), S)).isNull();
        assertThat(cache.get(new DnsCache.Key("www.example.org.", A, IN), S)).isNull();
    }

    @Test
    void theLeastRecentlyUsedEntryGoesFirstWhenFull() {
        DnsCache<Cached> cache = new DnsCache<>(3, CACHED);
        cache.put(key("a."), POSITIVE, 60, 0);
        cache.put(key("b."), POSITIVE, 60, S);
        cache.put(key("c."), POSITIVE, 60, 2 * S);
        cache.get(key("a."), 3 * S); // a is now the most recently used; b the least

        cache.put(key("d."), POSITIVE, 60, 4 * S);

        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.get(key("b."), 5 * S)).isNull();
        assertThat(cache.get(key("a."), 5 * S)).isNotNull();
        assertThat(cache.get(key("c."), 5 * S)).isNotNull();
        assertThat(cache.get(key("d."), 5 * S)).isNotNull();
    }

    @Test
    void replacingAnEntryMakesItTheMostRecentlyUsedWithoutEvictingAnything() {
        DnsCache<Cached> cache = new DnsCache<>(2, CACHED);
        cache.put(key("a."), POSITIVE, 60, 0);
        cache.put(key("b."), POSITIVE, 60, 0);
        cache.put(key("a."), NEGATIVE, 60, S);

        assertThat(cache.size()).isEqualTo(2);
        cache.put(key("c."), POSITIVE, 60, 2 * S);
        assertThat(cache.get(key("b."), 3 * S)).as("b was the least recently used").isNull();
        assertThat(cache.get(key("a."), 3 * S).value()).isEqualTo(NEGATIVE);
    }

    @Test
    void aCacheOfSizeZeroKeepsNothing() {
        DnsCache<Cached> zero = new DnsCache<>(0, CACHED);
        zero.put(key("a."), POSITIVE, 60, 0);
        DnsCache<Cached> negative = new DnsCache<>(-5, CACHED);
        negative.put(key("a."), POSITIVE, 60, 0);

        assertThat(zero.size()).isZero();
        assertThat(zero.get(key("a."), 0)).isNull();
        assertThat(negative.capacity()).isZero();
        assertThat(negative.size()).isZero();
    }

    @Test
    void shrinkingDropsTheLeastRecentlyUsedEntriesFirst() {
        DnsCache<Cached> cache = new DnsCache<>(4, CACHED);
        for (String n : List.of("a.", "b.", "c.", "d.")) {
            cache.put(key(n), POSITIVE, 60, 0);
        }
        cache.get(key("a."), S); // recency, oldest first: b, c, d, a

        cache.resize(2);

        assertThat(cache.capacity()).isEqualTo(2);
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get(key("b."), S)).isNull();
        assertThat(cache.get(key("c."), S)).isNull();
        assertThat(cache.get(key("d."), S)).isNotNull();
        assertThat(cache.get(key("a."), S)).isNotNull();
    }

    @Test
    void growingKeepsEveryEntryAndMakesRoomForMore() {
        DnsCache<Cached> cache = new DnsCache<>(1, CACHED);
        cache.put(key("a."), POSITIVE, 60, 0);

        cache.resize(3);
        cache.put(key("b."), POSITIVE, 60, 0);
        cache.put(key("c."), POSITIVE, 60, 0);

        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.get(key("a."), S)).isNotNull();
        cache.resize(0);
        assertThat(cache.size()).isZero();
        cache.put(key("d."), POSITIVE, 60, 0);
        assertThat(cache.size()).as("size 0 keeps nothing, after a resize too").isZero();
    }

    @Test
    void removeIfDropsTheMatchingNamesAndCountsThem() {
        DnsCache<Cached> cache = new DnsCache<>(10, CACHED);
        for (String n : List.of("www.corp.example.", "mail.corp.example.", "www.example.org.")) {
            cache.put(key(n), POSITIVE, 60, 0);
        }

        int dropped = cache.removeIf(k -> k.name().endsWith(".corp.example."));

        assertThat(dropped).isEqualTo(2);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.get(key("www.example.org."), S)).isNotNull();
        assertThat(cache.get(key("www.corp.example."), S)).isNull();
        assertThat(cache.removeIf(k -> false)).isZero();
    }

    @Test
    void clearEmptiesTheCacheAndKeepsItsCapacity() {
        DnsCache<Cached> cache = new DnsCache<>(5, CACHED);
        cache.put(key("a."), POSITIVE, 60, 0);

        cache.clear();

        assertThat(cache.size()).isZero();
        assertThat(cache.capacity()).isEqualTo(5);
    }

    /**
     * A long history of many names (the cache grows its rows, reuses evicted slots, chains
     * buckets) against {@link LinkedHashMap} in access order, the rules' own model: the same
     * entries found with the same values, the same least recently used evicted. Seeded: the same
     * history every run.
     */
    @Test
    void manyNamesBehaveLikeAnAccessOrderedMapThroughGrowthAndEviction() {
        int capacity = 700;
        DnsCache<Integer> cache = new DnsCache<>(capacity, INTS);
        Map<String, Integer> model = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > capacity;
            }
        };
        SplittableRandom random = new SplittableRandom(16);
        for (int i = 0; i < 40_000; i++) {
            String name = "n" + random.nextInt(2_000) + ".example.";
            int type = random.nextInt(4) == 0 ? 65_535 : A;
            String id = name + "/" + type;
            DnsCache.Key k = new DnsCache.Key(name, type, IN);
            if (random.nextInt(3) == 0) {
                cache.put(k, i, 60, 0);
                model.put(id, i);
            } else {
                DnsCache.Entry<Integer> got = cache.get(k, S);
                Integer want = model.get(id);
                assertThat(got == null ? null : got.value()).as("step %d: %s", i, id).isEqualTo(want);
            }
            assertThat(cache.size()).isEqualTo(model.size());
        }
        assertThat(cache.size()).isEqualTo(capacity);
        // the least recently used goes next, in the model's order
        String eldest = model.keySet().iterator().next();
        cache.put(new DnsCache.Key("new.example.", A, IN), 1, 60, 0);
        String[] parts = eldest.split("/");
        assertThat(cache.get(new DnsCache.Key(parts[0], Integer.parseInt(parts[1]), IN), S)).isNull();
    }

    @Test
    void typesAndClassesOverThirtyTwoThousandAreKeysOfTheirOwn() {
        DnsCache<Integer> cache = new DnsCache<>(10, INTS);
        cache.put(new DnsCache.Key("a.", 65_535, IN), 1, 60, 0);
        cache.put(new DnsCache.Key("a.", 32_768, 65_535), 2, 60, 0);
        cache.put(new DnsCache.Key("a.", 65_535, 255), 3, 60, 0);

        assertThat(cache.get(new DnsCache.Key("a.", 65_535, IN), 0).value()).isEqualTo(1);
        assertThat(cache.get(new DnsCache.Key("a.", 32_768, 65_535), 0).value()).isEqualTo(2);
        assertThat(cache.get(new DnsCache.Key("a.", 65_535, 255), 0).value()).isEqualTo(3);
        assertThat(cache.removeIf(k -> k.type() == 32_768 && k.cls() == 65_535)).as("keys read back whole").isEqualTo(1);
    }

    @Test
    void aNameBeyondAsciiIsNotKept() {
        // presentation form escapes every octet beyond ASCII: such a name is never asked for;
        // kept one byte a character it could stand for another
        DnsCache<Integer> cache = new DnsCache<>(10, INTS);
        cache.put(new DnsCache.Key("\u0101.example.", A, IN), 1, 60, 0);
        cache.put(new DnsCache.Key("caf\u00e9.example.", A, IN), 1, 60, 0);

        assertThat(cache.size()).isZero();
        assertThat(cache.get(new DnsCache.Key("caf\u00e9.example.", A, IN), 0)).isNull();
    }

    @Test
    void aCacheMadeSmallAndLargeAgainKeepsItsMostRecentEntries() {
        DnsCache<Integer> cache = new DnsCache<>(5_000, INTS);
        for (int i = 0; i < 5_000; i++) {
            cache.put(key("n" + i + "."), i, 60, 0);
        }
        cache.resize(3);
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.get(key("n4999."), 0).value()).isEqualTo(4999);
        assertThat(cache.get(key("n4997."), 0).value()).isEqualTo(4997);
        assertThat(cache.get(key("n4996."), 0)).isNull();
        cache.resize(2_000);
        for (int i = 0; i < 2_000; i++) {
            cache.put(key("m" + i + "."), i, 60, 0);
        }
        assertThat(cache.size()).isEqualTo(2_000);
        assertThat(cache.get(key("m0."), 0).value()).isZero();
        assertThat(cache.get(key("n4999."), 0)).as("pushed out by 2 000 newer").isNull();
    }

    // ------------------------------------------------------------------ properties

    /** One step of a random history: put, get, resize or advance the clock. */
    record Op(int kind, int name, long ttl, int size, long dt) {
    }

    @Provide
    Arbitrary<List<Op>> histories() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.integers().between(0, 7),
                Arbitraries.longs().between(-1, 6), Arbitraries.integers().between(0, 6),
                Arbitraries.longs().between(0, 3 * S)).as(Op::new);
        return op.list().ofMaxSize(60);
    }

    /**
     * Against a model written as the rules say (a recency list and expiry times), on any starting
     * clock: the same entries are found, and the cache never holds more than its capacity.
     */
    @Property(tries = 400)
    void itBehavesLikeABoundedLruOfLiveAnswersAndNeverExceedsItsCapacity(
            @ForAll long start, @ForAll @IntRange(min = 0, max = 6) int capacity, @ForAll("histories") List<Op> ops) {
        DnsCache<Integer> cache = new DnsCache<>(capacity, INTS);
        List<Integer> recency = new ArrayList<>(); // least recently used first
        Map<Integer, long[]> stored = new HashMap<>(); // name -> {storedAt, ttl}
        int cap = capacity;
        long now = start;
        for (Op o : ops) {
            now += o.dt();
            DnsCache.Key k = key("n" + o.name() + ".");
            if (o.kind() < 5) {
                cache.put(k, o.name(), o.ttl(), now);
                if (o.ttl() > 0 && cap > 0) {
                    recency.remove(Integer.valueOf(o.name()));
                    recency.add(o.name());
                    stored.put(o.name(), new long[] {now, o.ttl()});
                    if (recency.size() > cap) {
                        stored.remove(recency.remove(0));
                    }
                }
            } else if (o.kind() < 9) {
                DnsCache.Entry<Integer> got = cache.get(k, now);
                long[] s = stored.get(o.name());
                boolean live = s != null && now - s[0] < s[1] * S;
                if (s != null) {
                    recency.remove(Integer.valueOf(o.name()));
                    if (live) {
                        recency.add(o.name());
                    } else {
                        stored.remove(o.name());
                    }
                }
                assertThat(got != null).as("found %s", k).isEqualTo(live);
                if (live) {
                    assertThat(got.value()).isEqualTo(o.name());
                    assertThat(got.elapsedSeconds(now)).isEqualTo((now - s[0]) / S);
                }
            } else {
                cache.resize(o.size());
                cap = o.size();
                while (recency.size() > cap) {
                    stored.remove(recency.remove(0));
                }
            }
            assertThat(cache.size()).isLessThanOrEqualTo(cap).isEqualTo(recency.size());
            assertThat(cache.capacity()).isEqualTo(cap);
        }
    }

    /** Any TTL a DNS record can carry (32 bits unsigned) counts down correctly from any clock. */
    @Property(tries = 500)
    void anyThirtyTwoBitTtlExpiresExactlyWhenSpent(@ForAll long t0,
                                                   @ForAll @LongRange(min = 1, max = 0xFFFF_FFFFL) long ttl) {
        DnsCache<Integer> cache = new DnsCache<>(1, INTS);
        cache.put(key("a."), 1, ttl, t0);

        assertThat(cache.get(key("a."), t0 + ttl * S - 1)).isNotNull();
        assertThat(cache.get(key("a."), t0 + ttl * S)).isNull();
    }
}
