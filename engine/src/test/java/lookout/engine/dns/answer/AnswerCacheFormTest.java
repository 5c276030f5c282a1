package lookout.engine.dns.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.PlainQueryTest;
import lookout.engine.dns.wire.Responses;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The form the cache keeps answers in ({@link Answer#CACHED}): every kind of answer the resolver
 * stores comes back equal, and a hit stamped from the kept bytes ({@link Answer#stampCached}) is
 * byte for byte what stamping the answer itself gives.
 */
class AnswerCacheFormTest {

    private static final long S = 1_000_000_000L;

    private static Rr a(String owner, long ttl, int last) {
        return new Rr(owner, RrType.A, RrType.IN, ttl, new byte[] {(byte) 192, 0, 2, (byte) last});
    }

    private static Rr cname(String owner, String target) {
        return new Rr(owner, RrType.CNAME, RrType.IN, 600, Names.toWire(target));
    }

    private static Rr soa(String owner) {
        byte[] mname = Names.toWire("ns." + owner);
        byte[] rname = Names.toWire("host." + owner);
        byte[] r = new byte[mname.length + rname.length + 20];
        System.arraycopy(mname, 0, r, 0, mname.length);
        System.arraycopy(rname, 0, r, mname.length, rname.length);
        Encoded.put32(r, r.length - 4, 120);
        return new Rr(owner, RrType.SOA, RrType.IN, 3600, r);
    }

    /** (key name, answer): the shapes the resolver caches. */
    static Stream<Object[]> answers() throws Exception {
        return Stream.of(
                new Object[] {"www.example.com.", Answer.upstream("www.example.com.", RrType.A, RrType.IN, RrType.NOERROR,
                        List.of(a("www.example.com.", 300, 1), a("www.example.com.", 200, 2)), List.of(), List.of())},
                new Object[] {"gone.example.com.", Answer.upstream("gone.example.com.", RrType.A, RrType.IN, RrType.NXDOMAIN,
                        List.of(), List.of(soa("example.com.")), List.of())},
                new Object[] {"app.example.com.", new Answer("app.example.com.", RrType.A, RrType.IN, RrType.NOERROR, true,
                        List.of(cname("app.example.com.", "web1.example.net.")), List.of(), List.of())},
                new Object[] {"pool.example.com.", Answer.addresses("pool.example.com.", RrType.A, RrType.IN, 30,
                        List.of(InetAddress.getByName("192.0.2.7"), InetAddress.getByName("192.0.2.8")))},
                // a search candidate's answer kept under another spelling of its key
                new Object[] {"other.example.com.", Answer.upstream("host.example.com.", RrType.AAAA, RrType.IN, RrType.NOERROR,
                        List.of(new Rr("host.example.com.", RrType.AAAA, RrType.IN, 86_400, new byte[16])), List.of(), List.of())});
    }

    private static Answer roundTrip(String keyName, Answer a) {
        DnsCache<Answer> cache = new DnsCache<>(4, Answer.CACHED);
        DnsCache.Key key = new DnsCache.Key(keyName, a.qtype, a.qclass);
        cache.put(key, a, 60, 0);
        return cache.get(key, S).value();
    }

    @ParameterizedTest
    @MethodSource("answers")
    void everyAnswerComesBackEqual(String keyName, Answer a) {
        Answer b = roundTrip(keyName, a);

        assertThat(b).isNotSameAs(a);
        assertThat(b.qname).isEqualTo(a.qname);
        assertThat(b.qtype).isEqualTo(a.qtype);
        assertThat(b.qclass).isEqualTo(a.qclass);
        assertThat(b.rcode).isEqualTo(a.rcode);
        assertThat(b.authoritative).isEqualTo(a.authoritative);
        assertThat(b.encoded.wire()).isEqualTo(a.encoded.wire());
        assertThat(b.encoded.ttlOffsets()).isEqualTo(a.encoded.ttlOffsets());
        assertThat(b.encoded.rcode()).isEqualTo(a.encoded.rcode());
        assertThat(b.cacheTtl()).isEqualTo(a.cacheTtl());
        assertThat(b.minAnswerTtl()).isEqualTo(a.minAnswerTtl());
        assertThat(b.danglingTarget()).isEqualTo(a.danglingTarget());
        assertThat(b.cnameLinks()).isEqualTo(a.cnameLinks());
        assertThat(describe(b.answer())).isEqualTo(describe(a.answer()));
        assertThat(describe(b.authority())).isEqualTo(describe(a.authority()));
        assertThat(describe(b.additional())).isEqualTo(describe(a.additional()));
    }

    private static List<String> describe(List<Rr> rrs) {
        return rrs.stream().map(r -> r.name() + " " + r.type() + " " + r.cls() + " " + r.ttl() + " " + Arrays.toString(r.rdata()))
                .toList();
    }

    @Test
    void theDanglingChainIsKeptSoTheResolverStillFollowsIt() {
        Answer a = new Answer("app.example.com.", RrType.A, RrType.IN, RrType.NOERROR, true,
                List.of(cname("app.example.com.", "web1.example.net.")), List.of(), List.of());
        assertThat(a.danglingTarget()).as("the test's premise").isEqualTo("web1.example.net.");
        assertThat(roundTrip("app.example.com.", a).danglingTarget()).isEqualTo("web1.example.net.");
    }

    /** A plain query for {@code name} as {@link PlainQueryTest#query} writes it, with CD set too (the client's bits are kept). */
    private static PlainQuery query(String name, int type, boolean edns) {
        byte[] m = PlainQueryTest.query(name, type, edns, false);
        m[3] |= 0x10;
        PlainQuery q = new PlainQuery();
        System.arraycopy(m, 0, q.raw, 0, m.length);
        q.length = m.length;
        assertThat(q.read()).as("a plain query").isTrue();
        return q;
    }

    @ParameterizedTest
    @MethodSource("answers")
    void aHitStampedFromTheKeptBytesIsTheAnswerStamped(String keyName, Answer a) {
        DnsCache<Answer> cache = new DnsCache<>(4, Answer.CACHED);
        DnsCache.Key key = new DnsCache.Key(keyName, a.qtype, a.qclass);
        cache.put(key, a, 300, 0);
        for (boolean edns : new boolean[] {false, true}) {
            for (long elapsed : new long[] {0, 7, 250}) {
                PlainQuery q = query(a.qname.toUpperCase(java.util.Locale.ROOT), a.qtype, edns);
                int slot = cache.find(key, elapsed * S);
                assertThat(slot).isNotNegative();
                byte[] fromBytes = new byte[4096];
                int n = Answer.stampCached(fromBytes, cache.blob(slot), cache.valueAt(slot), q,
                        (elapsed * S - cache.storedAt(slot)) / S);
                byte[] fromAnswer = new byte[4096];
                int m = Responses.stampInto(fromAnswer, a.encoded, q, elapsed);
                if (a.danglingTarget() != null) {
                    assertThat(n).as("a chain to follow is the resolver's").isEqualTo(-1);
                    continue;
                }
                assertThat(n).isPositive().isEqualTo(m);
                assertThat(Arrays.copyOf(fromBytes, n)).isEqualTo(Arrays.copyOf(fromAnswer, m));
            }
        }
    }

    @Test
    void aHitThatDoesNotFitTheClientIsLeftToTheResolver() {
        Answer a = Answer.upstream("www.example.com.", RrType.A, RrType.IN, RrType.NOERROR,
                List.of(a("www.example.com.", 300, 1)), List.of(), List.of());
        DnsCache<Answer> cache = new DnsCache<>(4, Answer.CACHED);
        DnsCache.Key key = new DnsCache.Key("www.example.com.", RrType.A, RrType.IN);
        cache.put(key, a, 60, 0);
        int slot = cache.find(key, 0);
        byte[] small = new byte[a.encoded.wire().length - 1];
        assertThat(Answer.stampCached(small, cache.blob(slot), cache.valueAt(slot), query("www.example.com.", RrType.A, false), 0))
                .isEqualTo(-1);
    }
}
