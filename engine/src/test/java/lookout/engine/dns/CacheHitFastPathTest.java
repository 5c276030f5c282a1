package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.config.ResolverConfig;
import lookout.engine.config.ZoneConfig;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.Reply;
import lookout.engine.dns.cache.DnsCache;
import lookout.engine.dns.listen.Intake;
import lookout.engine.dns.listen.LoopView;
import lookout.engine.dns.listen.UdpListener;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.PlainQuery;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import lookout.engine.net.IdleUdpEndpoint;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine loop's listener answers cache hits itself ({@link UdpListener}, {@link Intake#cached},
 * {@link Resolver#answerCached}), without decoding: a second implementation of the resolver's cache
 * hit, so the two are compared byte for byte and count for count, in virtual time, without
 * sockets. Each query is given to the listener as its reader would (the fast path, answered with
 * {@code reply()}) and to {@link Intake#message} (the general path, as every query went before),
 * at the same virtual instant; and every question the resolver would not answer from the cache —
 * a local zone, a synthetic name, search candidates, a client outside the allow list, a meta
 * type, a CNAME to follow, an answer that must be cut, an expired entry — is left by the fast path
 * to the general one.
 */
class CacheHitFastPathTest {

    private static final InetSocketAddress SERVER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 5300);
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.9", 5353);
    private static final InetSocketAddress OTHER = new InetSocketAddress("127.0.0.10", 5354);
    private static final InetSocketAddress OUTSIDE = new InetSocketAddress("192.0.2.9", 5353);
    private static final String ZONE = """
            $TTL 300
            @      SOA  ns1 hostmaster 1 7200 1800 604800 300
            @      NS   ns1
            ns1    A    127.0.0.1
            www    A    198.51.100.7
            """;

    /** One transaction the resolver opened. */
    record Sent(InetSocketAddress server, byte[] query, UpstreamSockets.Listener listener) {
    }

    /** One datagram the listener sent: {@code reply} when it answered the datagram being read. */
    record Out(byte[] data, InetSocketAddress to, boolean reply) {
    }

    private final VirtualScheduler clock = new VirtualScheduler();
    private final List<Sent> upstream = new ArrayList<>();
    private final List<Out> out = new ArrayList<>();
    private final Endpoint endpoint = new Endpoint();
    private ResolverAccounting books;
    private Resolver resolver;
    private Intake intake;
    private UdpListener listener;
    private int nextId = 1;

    @BeforeEach
    void setUp() {
        ResolverConfig rc = new ResolverConfig(List.of(ResolverHarness.loopback0()), ResolverHarness.loopbackOnly(),
                List.of(ResolverHarness.scope("up", List.of(), true, SERVER)), List.of(), List.of("example.org."), 1000);
        UpstreamSockets sockets = new UpstreamSockets() {
            @Override
            public Handle udp(InetSocketAddress server, byte[] query, Listener l) {
                upstream.add(new Sent(server, query, l));
                return () -> { };
            }

            @Override
            public Handle tcp(InetSocketAddress server, byte[] query, Listener l) {
                throw new AssertionError("no TCP here");
            }
        };
        books = new ResolverAccounting(clock, e -> { });
        resolver = new Resolver(clock, new Random(1), books, sockets, () -> null, rc,
                Map.of("pool.test.", new ZoneConfig("pool.test.", "pool.test.zone", ZONE, 1)));
        Resolver r = resolver;
        intake = new Intake(new Intake.Questions() {
            @Override
            public void ask(ClientQuery q, Reply reply, Object client) {
                r.question(q, reply, client, null);
            }

            @Override
            public int answerCached(PlainQuery q, DnsCache.Key key, byte[] into) {
                return r.answerCached(q, key, into);
            }
        }, rc.allow());
        LoopView view = new LoopView(resolver.zones, rc.allow(), true);
        listener = new UdpListener(clock, () -> view, null, intake, UdpListener.Reader.ENGINE_LOOP, e -> { });
    }

    @AfterEach
    void close() {
        clock.close();
    }

    // ------------------------------------------------------------------ upstream replies

    private static byte[] reply(Message q, int rcode, List<Rr> answer, List<Rr> authority) {
        return FakeUpstream.reply(q, rcode, false, answer, authority);
    }

    private static Rr a(String name, int last, long ttl) {
        return new Rr(name, RrType.A, RrType.IN, ttl, new byte[]{(byte) 192, 0, 2, (byte) last});
    }

    /** What the upstream answers for each name this test forwards. */
    private static byte[] upstreamReply(Message q) {
        return switch (q.qname) {
            case "host.example.org." -> reply(q, RrType.NOERROR, List.of(a(q.qname, 1, 300), a(q.qname, 2, 200)), List.of());
            case "nx.example.org." -> FakeUpstream.nxdomain(q);
            case "nodata.example.org." -> reply(q, RrType.NOERROR, List.of(), List.of(FakeUpstream.soa(q.qname)));
            // a whole chain: cached decoded, nothing to follow
            case "alias.example.org." -> reply(q, RrType.NOERROR, List.of(
                    new Rr(q.qname, RrType.CNAME, RrType.IN, 300, Names.toWire("target.example.org.")),
                    a("target.example.org.", 3, 300)), List.of());
            // a chain that leaves off: the resolver follows it
            case "cut.example.org." -> reply(q, RrType.NOERROR, List.of(
                    new Rr(q.qname, RrType.CNAME, RrType.IN, 300, Names.toWire("elsewhere.example.net."))), List.of());
            case "big.example.org." -> {
                List<Rr> txt = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    byte[] s = ("" + (char) ('a' + i)).repeat(60).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    byte[] d = new byte[s.length + 1];
                    d[0] = (byte) s.length;
                    System.arraycopy(s, 0, d, 1, s.length);
                    txt.add(new Rr(q.qname, RrType.TXT, RrType.IN, 300, d));
                }
                yield reply(q, RrType.NOERROR, txt, List.of());
            }
            default -> throw new AssertionError("not forwarded here: " + q.qname);
        };
    }

    /**
     * Asks {@code name} once through the listener (a miss: forwarded) and has the upstream answer
     * it; the client's answer goes out at once, through the general path (but for a chain the
     * resolver goes on to follow).
     */
    private void forward(String name, int type) {
        int before = upstream.size();
        byte[] answer = fast(DnsTestClient.query(nextId++, name, type, true, 1232), CLIENT);
        assertThat(answer).as("a miss is not answered at once").isNull();
        assertThat(upstream).hasSize(before + 1);
        Sent s = upstream.get(before);
        Message q = decode(s.query());
        clock.call(() -> {
            s.listener().reply(upstreamReply(q), s.server());
            return null;
        });
        if (!name.startsWith("cut")) {
            assertThat(out).as("the forwarded answer").singleElement().satisfies(o -> assertThat(o.reply()).isFalse());
        }
        out.clear();
    }

    // ------------------------------------------------------------------ the two paths

    /** The query read by the engine loop's listener: the fast path's answer, or null when it left it to the general path. */
    private byte[] fast(byte[] q, InetSocketAddress from) {
        out.clear();
        clock.call(() -> {
            endpoint.current = from;
            try {
                // the reader's array is reused: the listener must copy what it keeps
                byte[] scratch = Arrays.copyOf(q, 4096);
                listener.datagram(endpoint, scratch, q.length, from, null, false);
                Arrays.fill(scratch, (byte) 0x5A);
            } finally {
                endpoint.current = null;
            }
            listener.burstEnd(endpoint);
            return null;
        });
        return out.stream().filter(Out::reply).map(Out::data).findFirst().orElse(null);
    }

    /** What the general path (the resolver, as every UDP query went before) answers, at the same instant. */
    private byte[] general(byte[] q, InetSocketAddress from) {
        List<byte[]> got = new ArrayList<>();
        clock.call(() -> intake.message(q, from, false, got::add));
        assertThat(got).as("the general path answers at once").hasSize(1);
        return got.get(0);
    }

    private record Counts(long queries, long cacheHits, long localAnswers, long denied, long fastLocal) {
    }

    private Counts counts() {
        return clock.call(() -> new Counts(books.queries, books.cacheHits, books.localAnswers, intake.denied(),
                listener.answered()));
    }

    /** Every client variant of one question: with and without EDNS, CD and DO, in mixed case, another ID. */
    private List<byte[]> variants(String name, int type) {
        List<byte[]> v = new ArrayList<>();
        for (int variant = 0; variant < 8; variant++) {
            boolean edns = (variant & 2) != 0;
            String spelled = (variant & 4) != 0 ? mixedCase(name) : name;
            byte[] q = DnsTestClient.query(nextId++, spelled, type, edns, variant == 7 ? 4096 : 1232);
            if ((variant & 1) == 1) {
                q[3] |= 0x10; // CD
                if (edns) {
                    q[q.length - 4] |= (byte) 0x80; // DO
                }
            }
            v.add(q);
        }
        return v;
    }

    private static String mixedCase(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(i % 2 == 0 ? Character.toUpperCase(c) : c);
        }
        return b.toString();
    }

    /** Asks {@code q} both ways: the fast path must answer, with the general path's bytes and counts. */
    private byte[] sameBothWays(byte[] q, String what) {
        Counts c0 = counts();
        byte[] viaFast = fast(q, CLIENT);
        Counts c1 = counts();
        byte[] viaResolver = general(q, CLIENT);
        Counts c2 = counts();
        assertThat(viaFast).as("%s: answered from the cache where it was read", what).isNotNull();
        assertThat(viaFast).as("%s: the resolver's bytes", what).isEqualTo(viaResolver);
        assertThat(c1.queries() - c0.queries()).as("%s: one query", what).isEqualTo(1);
        assertThat(c1.cacheHits() - c0.cacheHits()).as("%s: one cache hit", what).isEqualTo(1);
        assertThat(c2.queries() - c1.queries()).isEqualTo(1);
        assertThat(c2.cacheHits() - c1.cacheHits()).isEqualTo(1);
        assertThat(c2.localAnswers()).isEqualTo(c0.localAnswers());
        assertThat(c2.fastLocal()).as("not a local answer").isEqualTo(c0.fastLocal());
        return viaFast;
    }

    private static Message decode(byte[] m) {
        try {
            return DnsTestClient.decode(m);
        } catch (WireException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ tests

    @Test
    void cacheHitsAreAnsweredWhereTheyAreReadExactlyAsTheResolverAnswersThem() {
        String[][] forwarded = {{"host.example.org.", "1"}, {"nx.example.org.", "1"}, {"nodata.example.org.", "28"},
                {"alias.example.org.", "1"}, {"big.example.org.", "16"}};
        for (String[] f : forwarded) {
            forward(f[0], Integer.parseInt(f[1]));
        }
        int compared = 0;
        // at the instant cached, a second and a half on (TTLs one lower), and just before the
        // negative entries' 60 s run out
        for (Duration step : new Duration[]{Duration.ZERO, Duration.ofMillis(1_500), Duration.ofMillis(58_400)}) {
            clock.advance(step);
            for (String[] f : forwarded) {
                for (byte[] q : variants(f[0], Integer.parseInt(f[1]))) {
                    boolean plainEdns = q[11] == 1;
                    if (f[0].startsWith("big") && !plainEdns) {
                        continue; // cut for a client without EDNS: below
                    }
                    sameBothWays(q, f[0] + " at +" + step);
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(3 * (4 * 8 + 4));
        // the TTLs counted down on the fast path too: 59.9 s after, 300 → 241 and 200 → 141
        Message m = decode(sameBothWays(DnsTestClient.query(nextId++, "host.example.org.", RrType.A, false, 0), "host"));
        assertThat(m.answer).extracting(Rr::ttl).containsExactly(241L, 141L);
        assertThat(m.id).isEqualTo(nextId - 1);
        // a second client, from another address and port, is answered as well
        byte[] q = DnsTestClient.query(nextId++, "host.example.org.", RrType.A, true, 1232);
        byte[] viaFast = fast(q, OTHER);
        assertThat(viaFast).isEqualTo(general(q, OTHER));
        assertThat(upstream).as("nothing more was forwarded").hasSize(forwarded.length);
    }

    @Test
    void whatTheResolverWouldNotAnswerFromTheCacheIsLeftToIt() {
        forward("host.example.org.", RrType.A);
        forward("big.example.org.", RrType.TXT);
        forward("cut.example.org.", RrType.A);
        upstream.clear();
        long now = clock.nanoTime();
        Answer planted = Answer.addresses("x.", RrType.A, RrType.IN, 300, List.of(InetAddress.getLoopbackAddress()));
        clock.call(() -> {
            // entries the resolver never looks at: a local zone's name, a synthetic name, a
            // single-label name (asked as its search candidates), a meta type
            resolver.cache.put(new DnsCache.Key("www.pool.test.", RrType.A, RrType.IN), planted, 300, now);
            resolver.cache.put(new DnsCache.Key("localhost.", RrType.A, RrType.IN), planted, 300, now);
            resolver.cache.put(new DnsCache.Key("solo.", RrType.A, RrType.IN), planted, 300, now);
            resolver.cache.put(new DnsCache.Key("host.example.org.", 252, RrType.IN), planted, 300, now);
            return null;
        });
        Counts c0 = counts();
        // a local zone answers, on the listener's own local path (AA, the zone's address)
        byte[] www = fast(DnsTestClient.query(nextId++, "www.pool.test.", RrType.A, false, 0), CLIENT);
        assertThat(decode(www).answer).singleElement().satisfies(rr -> assertThat(rr.rdata()).containsExactly(198, 51, 100, 7));
        assertThat(counts().fastLocal()).isEqualTo(c0.fastLocal() + 1);
        // the rest go to the resolver through the general path
        assertThat(fast(DnsTestClient.query(nextId++, "localhost.", RrType.A, false, 0), CLIENT)).isNull();
        assertThat(decode(out.get(0).data()).answer).singleElement()
                .satisfies(rr -> assertThat(rr.rdata()).containsExactly(127, 0, 0, 1));
        assertThat(fast(DnsTestClient.query(nextId++, "solo.", RrType.A, false, 0), CLIENT)).isNull();
        assertThat(upstream).singleElement().satisfies(s -> assertThat(decode(s.query()).qname).isEqualTo("solo.example.org."));
        assertThat(fast(DnsTestClient.query(nextId++, "host.example.org.", 252, false, 0), CLIENT)).isNull();
        assertThat(out).singleElement().satisfies(o -> assertThat(o.data()[3] & 0x0F).isEqualTo(RrType.NOTIMP));
        // a client outside the allow list is refused and counted denied, not answered from the cache
        assertThat(fast(DnsTestClient.query(nextId++, "host.example.org.", RrType.A, false, 0), OUTSIDE)).isNull();
        assertThat(out).singleElement().satisfies(o -> assertThat(o.data()[3] & 0x0F).isEqualTo(RrType.REFUSED));
        assertThat(counts().denied()).isEqualTo(c0.denied() + 1);
        // an answer too big for a client without EDNS is cut by the resolver's stamp (TC)
        byte[] small = DnsTestClient.query(nextId++, "big.example.org.", RrType.TXT, false, 0);
        Counts c1 = counts();
        assertThat(fast(small, CLIENT)).isNull();
        assertThat(out).singleElement().satisfies(o -> {
            assertThat(o.data()[2] & 0x02).as("TC").isNotZero();
            assertThat(o.data()).isEqualTo(general(small, CLIENT));
        });
        assertThat(counts().cacheHits()).isEqualTo(c1.cacheHits() + 2);
        // a cached CNAME that leaves off is followed by the resolver: its target goes upstream
        upstream.clear();
        assertThat(fast(DnsTestClient.query(nextId++, "cut.example.org.", RrType.A, false, 0), CLIENT)).isNull();
        assertThat(upstream).singleElement()
                .satisfies(s -> assertThat(decode(s.query()).qname).isEqualTo("elsewhere.example.net."));
        // an entry past its TTL is a miss: asked upstream again (the chains' targets never
        // answered: their attempts ran out meanwhile)
        clock.advance(Duration.ofSeconds(301));
        upstream.clear();
        assertThat(fast(DnsTestClient.query(nextId++, "host.example.org.", RrType.A, false, 0), CLIENT)).isNull();
        assertThat(upstream).singleElement().satisfies(s -> assertThat(decode(s.query()).qname).isEqualTo("host.example.org."));
        assertThat(clock.call(() -> intake.internalErrors())).isZero();
        assertThat(listener.fastErrors()).isZero();
    }

    @Test
    void aQueryNotOfTheUsualShapeTakesTheGeneralPath() {
        forward("host.example.org.", RrType.A);
        // two questions: the plain reader declines, the general path answers FORMERR, nothing fails
        byte[] q = DnsTestClient.query(nextId++, "host.example.org.", RrType.A, false, 0);
        byte[] twoQuestions = q.clone();
        twoQuestions[5] = 2;
        assertThat(fast(twoQuestions, CLIENT)).isNull();
        assertThat(out).singleElement().satisfies(o -> assertThat(o.data()[3] & 0x0F).isEqualTo(RrType.FORMERR));
        // the same question, well formed, answered from the cache
        assertThat(fast(q, CLIENT)).isNotNull();
        assertThat(clock.call(() -> intake.internalErrors())).isZero();
    }

    /** Records what the listener sends; {@link #current} is the datagram being delivered. */
    private final class Endpoint extends IdleUdpEndpoint {
        InetSocketAddress current;

        Endpoint() {
            super(new InetSocketAddress("127.0.0.1", 53));
        }

        @Override
        public boolean send(byte[] data, int offset, int length, InetSocketAddress to, InetAddress from) {
            out.add(new Out(Arrays.copyOfRange(data, offset, offset + length), to, false));
            return true;
        }

        @Override
        public boolean send(ByteBuf data, InetSocketAddress to, InetAddress from) {
            throw new AssertionError("the listener sends arrays");
        }

        @Override
        public boolean reply(byte[] data, int offset, int length) {
            assertThat(current).as("reply() only while a datagram is delivered").isNotNull();
            out.add(new Out(Arrays.copyOfRange(data, offset, offset + length), current, true));
            return true;
        }

        @Override
        public boolean onReaderThread() {
            return current != null;
        }
    }
}
