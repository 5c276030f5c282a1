package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.Metric;
import lookout.engine.api.ReloadResult;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lookout.engine.boot.Engines;

/**
 * {@code resolver.udp_threads}: several UDP sockets share the listen port (SO_REUSEPORT) and the
 * kernel spreads clients among them by source. With three sockets and {@value #CLIENTS} client
 * sockets, the chance that no client lands on an answer loop is (1/3)^{@value #CLIENTS}: the tests
 * that say "some were answered on answer loops" fail only on a bug.
 *
 * <p>Every test runs with the listeners read natively ({@code -Dlookout.udp=native}: a reader
 * thread per socket) and, in {@link AnswerLoopsNettyTest}, through Netty.
 */
class AnswerLoopsTest {

    /** The listeners' I/O these tests run on. */
    EngineOptions.UdpReads udpIo() {
        return EngineOptions.UdpReads.NATIVE;
    }

    boolean nativeIo() {
        return udpIo() == EngineOptions.UdpReads.NATIVE;
    }

    static final int CLIENTS = 48;

    @TempDir
    Path tmp;

    private VirtualScheduler clock;
    private Engine engine;
    private FakeUpstream upstream;
    private final List<DnsTestClient> clients = new ArrayList<>();

    static String conf(int udpThreads, String allow, String upstream, String wwwRecord) {
        return """
                resolver => {
                  listen => [ 127.0.0.1:0 ]
                  allow => [ %s ]
                  udp_threads => %d
                  scopes => { up => { servers => [ %s ], default => true } }
                }
                zones => {
                  pool.test => { text => "
                $TTL 300
                @      SOA  ns1 hostmaster 1 7200 1800 604800 300
                @      NS   ns1
                ns1    A    127.0.0.1
                %s
                dyn    300  DYNA weighted!web
                " }
                }
                plugins => {
                  weighted => {
                    service_types => up
                    web => {
                      a1 = [ 192.0.2.1, 10 ]
                      a2 = [ 192.0.2.2, 30 ]
                    }
                  }
                }
                pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
                         auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
                """.formatted(allow, udpThreads, upstream, wwwRecord);
    }

    @BeforeEach
    void setUp() throws Exception {
        clock = new VirtualScheduler();
        upstream = new FakeUpstream((q, t) -> FakeUpstream.a(q, 9));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (DnsTestClient c : clients) {
            c.close();
        }
        if (engine != null) {
            engine.stop();
        }
        upstream.close();
        clock.close();
    }

    private void start(String text) throws Exception {
        start(text, EngineOptions.forTest(clock, new Random(3), tmp).withUdpReads(udpIo()));
    }

    private void start(String text, EngineOptions options) throws Exception {
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "loops.conf", tmp);
        assertThat(r.problems()).isEmpty();
        engine = Engines.create(options);
        engine.start(r.config());
        assertThat(metric(engine.snapshot(), "lookout_resolver_udp_native")).isEqualTo(nativeIo() ? 1 : 0);
    }

    private InetSocketAddress listen() throws Exception {
        return engine.snapshot().resolver().listen().stream().findFirst()
                .map(a -> new InetSocketAddress("127.0.0.1", Integer.parseInt(a.substring(a.lastIndexOf(':') + 1))))
                .orElseThrow();
    }

    private List<DnsTestClient> clients(InetSocketAddress server) throws Exception {
        for (DnsTestClient c : clients) {
            c.close();
        }
        clients.clear();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(new DnsTestClient(server));
        }
        return clients;
    }

    private static double metric(EngineSnapshot s, String name) {
        return s.metrics().stream().filter(m -> m.name().equals(name)).mapToDouble(Metric::value).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name));
    }

    /** One query over TCP, the answer's bytes as they came. */
    private static byte[] askTcpRaw(InetSocketAddress server, byte[] q) throws Exception {
        try (java.net.Socket t = new java.net.Socket()) {
            t.connect(server, 5_000);
            t.setSoTimeout(10_000);
            java.io.DataOutputStream out = new java.io.DataOutputStream(t.getOutputStream());
            out.writeShort(q.length);
            out.write(q);
            out.flush();
            java.io.DataInputStream in = new java.io.DataInputStream(t.getInputStream());
            return in.readNBytes(in.readUnsignedShort());
        }
    }

    private static String upstreamAddress(FakeUpstream u) {
        return u.address.getAddress().getHostAddress() + ":" + u.address.getPort();
    }

    @Test
    void localQuestionsAreAnsweredOnAnswerLoopsAndCountedWithTheRest() throws Exception {
        start(conf(3, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"));
        int asked = 0;
        for (DnsTestClient c : clients(listen())) {
            Message www = c.ask("www.pool.test.", RrType.A);
            assertThat(www.rcode()).isEqualTo(RrType.NOERROR);
            assertThat((www.flags & Message.AA) != 0).isTrue();
            assertThat(www.answer).singleElement().satisfies(rr -> assertThat(rr.rdata()).containsExactly(198, 51, 100, 7));
            Message dyn = c.ask("dyn.pool.test.", RrType.A);
            assertThat(dyn.answer).singleElement().satisfies(rr -> assertThat(rr.rdata()[3]).isIn((byte) 1, (byte) 2));
            Message nx = c.ask("nosuch.pool.test.", RrType.A);
            assertThat(nx.rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(nx.authority).extracting(rr -> rr.type()).containsExactly(RrType.SOA);
            asked += 3;
        }
        EngineSnapshot s = engine.snapshot();
        assertThat(s.resolver().queries()).isEqualTo(asked);
        assertThat(s.resolver().localAnswers()).isEqualTo(asked);
        double onLoops = metric(s, "lookout_resolver_answer_loop_answers_total");
        assertThat(onLoops).isGreaterThan(0).isLessThanOrEqualTo(asked);
        assertThat(metric(s, "lookout_resolver_udp_threads")).isEqualTo(3);
        assertThat(metric(s, "lookout_resolver_internal_errors_total")).isZero();
        // answers given on answer loops show in the recent traces like the engine loop's
        assertThat(s.resolver().recentTraces()).hasSize(asked)
                .allSatisfy(t -> assertThat(t.source()).isEqualTo("zone"));
        // the DYNA answers were drawn from the pools by whichever loop answered
        assertThat(s.pools().resources()).singleElement().satisfies(r -> assertThat(r.answers()).isEqualTo(CLIENTS));
        assertThat(upstream.received).isEmpty();
    }

    @Test
    void everyOtherQuestionIsHandedToTheEngineLoopAndAnsweredFromTheSamePort() throws Exception {
        start(conf(3, "127.0.0.1/32", upstreamAddress(upstream), "www A 198.51.100.7"));
        InetSocketAddress server = listen();
        for (DnsTestClient c : clients(server)) {
            // forwarded upstream, then answered from the cache: both on the engine loop
            for (int i = 0; i < 2; i++) {
                Message m = c.ask("host.example.org.", RrType.A);
                assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
                assertThat(m.answer).singleElement().satisfies(rr -> assertThat(rr.rdata()[3]).isEqualTo((byte) 9));
            }
            // malformed: a header and a question cut short, answered FORMERR by the engine loop
            c.send(new byte[] {0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 3, 'w'});
            byte[] formerr = c.receive(10_000);
            assertThat(formerr).isNotNull();
            assertThat(formerr[3] & 0x0f).isEqualTo(RrType.FORMERR);
        }
        // clients outside the allow list are refused by the engine loop whatever socket they reach
        int refused = 0;
        for (int i = 0; i < CLIENTS; i++) {
            try (DatagramSocket outside = new DatagramSocket(new InetSocketAddress("127.0.0.2", 0))) {
                outside.setSoTimeout(10_000);
                byte[] q = DnsTestClient.query(7, "www.pool.test.", RrType.A, false, 0);
                outside.send(new DatagramPacket(q, q.length, server));
                byte[] buf = new byte[512];
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                outside.receive(p);
                // the reply comes from the listen address and port, whichever socket read the query
                assertThat(p.getSocketAddress()).isEqualTo(server);
                assertThat(buf[3] & 0x0f).isEqualTo(RrType.REFUSED);
                refused++;
            }
        }
        EngineSnapshot s = engine.snapshot();
        assertThat(refused).isEqualTo(CLIENTS);
        assertThat(s.resolver().denied()).isEqualTo(CLIENTS);
        assertThat(s.resolver().malformed()).isEqualTo(CLIENTS);
        assertThat(s.resolver().cacheHits()).isEqualTo(CLIENTS * 2L - upstream.received.size());
        assertThat(metric(s, "lookout_resolver_answer_loop_answers_total")).isZero();
    }

    @Test
    void aReloadReachesTheAnswerLoopsAndUdpThreadsCanChange() throws Exception {
        start(conf(3, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"));
        for (DnsTestClient c : clients(listen())) {
            assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, 7);
        }
        ReloadResult r = engine.reload(conf(3, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.8"),
                "loops.conf", tmp);
        assertThat(r.applied()).isTrue();
        for (DnsTestClient c : clients) {
            assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, 8);
        }
        // down to one socket and back to two: the listeners are rebound each time
        for (int threads : new int[] {1, 2}) {
            r = engine.reload(conf(threads, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100." + threads),
                    "loops.conf", tmp);
            assertThat(r.applied()).isTrue();
            for (DnsTestClient c : clients(listen())) {
                assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, threads);
            }
            assertThat(metric(engine.snapshot(), "lookout_resolver_udp_threads")).isEqualTo(threads);
        }
    }

    /**
     * The default ({@link EngineOptions.UdpReads#AUTO}): one socket on a given address is read by the
     * engine loop through Netty, two or more natively; a reload that changes {@code udp_threads}
     * changes how the sockets are read, and they answer either way.
     */
    @Test
    void byDefaultEverySocketIsReadNativelyOneOfThemOnTheEngineLoop() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(lookout.engine.net.Transport.nativeDatagramsUnavailable() == null,
                "native datagrams unavailable here");
        ConfigResult c = new ConfigLoader(Map.of()).parse(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.1"),
                "loops.conf", tmp);
        engine = Engines.create(EngineOptions.forTest(clock, new Random(3), tmp));
        engine.start(c.config());
        for (int threads : new int[] {1, 2, 1}) {
            if (metric(engine.snapshot(), "lookout_resolver_udp_threads") != threads) {
                ReloadResult r = engine.reload(conf(threads, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100." + threads),
                        "loops.conf", tmp);
                assertThat(r.applied()).isTrue();
            }
            // one socket: natively on the engine loop itself; more: a reader thread each
            assertThat(metric(engine.snapshot(), "lookout_resolver_udp_native")).as("%d socket(s)", threads).isEqualTo(1);
            assertThat(metric(engine.snapshot(), "lookout_resolver_udp_native_on_engine_loop")).as("%d socket(s)", threads)
                    .isEqualTo(threads == 1 ? 1 : 0);
            for (DnsTestClient d : clients(listen())) {
                assertThat(d.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, threads);
                assertThat(d.ask("host.example.org.", RrType.A).answer.get(0).rdata()[3]).isEqualTo((byte) 9);
            }
        }
    }

    /**
     * On the real engine (its loop is the first socket's loop, on Netty) the first socket answers
     * local questions itself, with the pools' own draws; read natively, its reader thread does, with
     * draws of its own: the same answers, counts and traces as through the resolver, and nothing
     * else changes (a forwarded name still goes upstream).
     */
    @Test
    void onTheRealEngineLoopTheFirstSocketAnswersLocalQuestionsItself() throws Exception {
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        DnsTestClient c = clients(listen()).get(0);
        int dynFirst = 0;
        for (int i = 0; i < 400; i++) {
            Message dyn = c.ask("dyn.pool.test.", RrType.A);
            assertThat(dyn.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(dyn.answer).singleElement().satisfies(rr -> assertThat(rr.rdata()[3]).isIn((byte) 1, (byte) 2));
            dynFirst += dyn.answer.get(0).rdata()[3] == 1 ? 1 : 0;
        }
        // 25 % expected: chi-squared, one degree of freedom, critical value 15.137 (α = 1e-4)
        double chi2 = Math.pow(dynFirst - 100.0, 2) / 100.0 + Math.pow(400 - dynFirst - 300.0, 2) / 300.0;
        assertThat(chi2).as("%d of 400 on 192.0.2.1", dynFirst).isLessThan(15.137);
        assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, 7);
        assertThat(c.ask("host.example.org.", RrType.A).answer.get(0).rdata()[3]).isEqualTo((byte) 9);
        EngineSnapshot s = engine.snapshot();
        assertThat(s.resolver().queries()).isEqualTo(402);
        assertThat(s.resolver().localAnswers()).isEqualTo(401);
        // one socket is read on the engine loop, natively or through Netty: nothing is answered off it
        assertThat(metric(s, "lookout_resolver_answer_loop_answers_total")).isZero();
        assertThat(metric(s, "lookout_resolver_fast_path_answers_total")).isEqualTo(401);
        assertThat(s.resolver().recentTraces()).hasSize(200) // the newest 200 of 402
                .last().satisfies(t -> assertThat(t.name()).isEqualTo("host.example.org."));
        assertThat(s.resolver().recentTraces()).filteredOn(t -> t.name().equals("www.pool.test."))
                .singleElement().satisfies(t -> assertThat(t.source()).isEqualTo("zone"));
        assertThat(s.pools().resources()).singleElement().satisfies(r -> assertThat(r.answers()).isEqualTo(400));
        assertThat(upstream.received).hasSize(1);
    }

    /**
     * The listeners' fast path and the resolver's local-zone path are two implementations of one
     * rule: for every static question they must answer byte for byte alike. Each query goes over
     * UDP twice (the first socket's fast path on the real engine loop: the first time decoded, the
     * second from the socket's memo of plans, written without decoding) and over TCP (always the
     * resolver), and the answers are compared: with and without EDNS, with the DO and CD bits,
     * in mixed case. A DYNA name is compared the same way once both happen to draw the same address
     * (each try does with probability 0.625: 40 tries all differ with probability 1e-17). A name
     * whose records do not fit 512 bytes is cut (TC) alike on both UDP paths.
     */
    @Test
    void theFastPathAnswersExactlyAsTheResolverDoes() throws Exception {
        StringBuilder zone = new StringBuilder("www A 198.51.100.7\nalias CNAME www\ntxt TXT \\\"hello\\\"\n"
                + "sub NS ns.elsewhere.example.\nv6 AAAA 2001:db8::7\n");
        for (int i = 0; i < 12; i++) {
            zone.append("big TXT \\\"").append(String.valueOf((char) ('a' + i)).repeat(60)).append("\\\"\n");
        }
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), zone.toString()), EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        InetSocketAddress server = listen();
        DnsTestClient udp = clients(server).get(0);
        String[] names = {"pool.test.", "www.pool.test.", "WwW.PoOl.TeSt.", "alias.pool.test.", "txt.pool.test.",
                "x.sub.pool.test.", "sub.pool.test.", "nosuch.pool.test.", "ns1.pool.test.", "v6.pool.test.",
                "deep.nosuch.pool.test.", "dyn.pool.test.", "DYN.pool.test.", "big.pool.test."};
        int[] types = {RrType.A, RrType.AAAA, RrType.TXT, RrType.NS, RrType.SOA, RrType.CNAME, RrType.ANY, 15};
        int id = 1;
        int compared = 0;
        int truncated = 0;
        int asked = 0;
        for (String name : names) {
            for (int type : types) {
                for (int variant = 0; variant < 4; variant++) {
                    boolean edns = variant >= 2;
                    byte[] q = DnsTestClient.query(id++, name, type, edns, 1232);
                    if ((variant & 1) == 1) {
                        q[3] |= 0x10; // CD
                        if (edns) {
                            q[q.length - 4] |= (byte) 0x80; // DO
                        }
                    }
                    for (int attempt = 0; ; attempt++) {
                        udp.send(q);
                        byte[] first = udp.receive(10_000);
                        udp.send(q);
                        byte[] again = udp.receive(10_000);
                        asked += 2;
                        assertThat(first).as("UDP answer to %s %d", name, type).isNotNull();
                        assertThat(again).as("UDP answer to %s %d", name, type).isNotNull();
                        if (name.startsWith("big")) {
                            assertThat(again).as("%s %d variant %d", name, type, variant).isEqualTo(first);
                            if (!edns && (type == RrType.TXT || type == RrType.ANY)) {
                                assertThat(first[2] & 0x02).as("TC").isNotZero();
                                truncated++;
                            }
                            break;
                        }
                        byte[] overTcp = askTcpRaw(server, q);
                        boolean dyna = name.equalsIgnoreCase("dyn.pool.test.") && (type == RrType.A || type == RrType.ANY);
                        if (dyna && attempt < 40 && !(Arrays.equals(first, overTcp) && Arrays.equals(again, overTcp))) {
                            continue; // different draws: ask again
                        }
                        assertThat(first).as("%s %d variant %d: %s", name, type, variant,
                                DnsTestClient.decode(overTcp).rcode()).isEqualTo(overTcp);
                        assertThat(again).as("%s %d variant %d, from the memo", name, type, variant).isEqualTo(overTcp);
                        compared++;
                        break;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo((names.length - 1) * types.length * 4);
        assertThat(truncated).isEqualTo(4);
        EngineSnapshot s = engine.snapshot();
        // every UDP question took the fast path (all are in the zone)
        assertThat(metric(s, "lookout_resolver_fast_path_answers_total")).isEqualTo(asked);
        assertThat(metric(s, "lookout_resolver_internal_errors_total")).isZero();
        assertThat(upstream.received).isEmpty();
    }

    /**
     * Cache hits read on the real engine loop are answered there from the cache without decoding
     * (one socket, read natively on the loop or through Netty): they must be the resolver's
     * answers byte for byte, which TCP gets (always the resolver). Each name is forwarded once,
     * then asked over TCP, UDP and TCP again: when both TCP answers agree no TTL ticked down in
     * between, and the UDP answer must equal them. With and without EDNS, CD and DO, in mixed
     * case; NXDOMAIN too. Counted as the resolver counts cache hits, not as local answers.
     */
    @Test
    void cacheHitsOnTheEngineLoopAreAnsweredExactlyAsTheResolverDoes() throws Exception {
        upstream.behave((q, t) -> q.qname.startsWith("nx")
                ? FakeUpstream.nxdomain(q)
                : FakeUpstream.reply(q, RrType.NOERROR, false, List.of(
                        new lookout.engine.dns.wire.Rr(q.qname, RrType.A, RrType.IN, 300, new byte[] {(byte) 192, 0, 2, 1}),
                        new lookout.engine.dns.wire.Rr(q.qname, RrType.A, RrType.IN, 120, new byte[] {(byte) 192, 0, 2, 2}))));
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        InetSocketAddress server = listen();
        DnsTestClient udp = clients(server).get(0);
        String[] names = {"host.example.org.", "other.example.org.", "nx.example.org."};
        for (String name : names) {
            assertThat(udp.ask(name, RrType.A).rcode()).isIn(RrType.NOERROR, RrType.NXDOMAIN);
        }
        int id = 1000;
        int hits = 0;
        for (String name : names) {
            for (int variant = 0; variant < 8; variant++) {
                boolean edns = (variant & 2) != 0;
                String spelled = (variant & 4) != 0 ? name.toUpperCase(java.util.Locale.ROOT) : name;
                byte[] q = DnsTestClient.query(id++, spelled, RrType.A, edns, 1232);
                if ((variant & 1) == 1) {
                    q[3] |= 0x10; // CD
                    if (edns) {
                        q[q.length - 4] |= (byte) 0x80; // DO
                    }
                }
                for (int attempt = 0; ; attempt++) {
                    byte[] before = askTcpRaw(server, q);
                    udp.send(q);
                    byte[] viaUdp = udp.receive(10_000);
                    byte[] after = askTcpRaw(server, q);
                    hits += 3;
                    assertThat(viaUdp).as("UDP answer to %s variant %d", name, variant).isNotNull();
                    if (!Arrays.equals(before, after) && attempt < 5) {
                        continue; // a TTL ticked down in between: ask again
                    }
                    assertThat(viaUdp).as("%s variant %d", name, variant).isEqualTo(before);
                    break;
                }
            }
        }
        EngineSnapshot s = engine.snapshot();
        assertThat(s.resolver().cacheHits()).isEqualTo(hits);
        assertThat(s.resolver().queries()).isEqualTo(hits + names.length);
        assertThat(metric(s, "lookout_resolver_fast_path_answers_total")).isZero();
        assertThat(metric(s, "lookout_resolver_internal_errors_total")).isZero();
        assertThat(upstream.received).hasSize(names.length);
    }

    /**
     * A burst of questions read in one go is answered whole: the fast path sends its answers
     * {@value lookout.engine.net.UdpEndpoint#FLUSH_EVERY} at a time and the rest at the end of the burst. 200
     * queries (static, DYNA, NXDOMAIN, one forwarded) are sent before any answer is read; every ID
     * comes back exactly once.
     */
    @Test
    void aBurstOfQueriesIsAnsweredWhole() throws Exception {
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        DnsTestClient c = clients(listen()).get(0);
        String[] names = {"www.pool.test.", "dyn.pool.test.", "nosuch.pool.test.", "WWW.pool.test."};
        int n = 200;
        for (int id = 0; id < n; id++) {
            String name = id == 77 ? "host.example.org." : names[id % names.length];
            c.send(DnsTestClient.query(id, name, RrType.A, id % 3 == 0, 1232));
        }
        eachIdAnsweredOnce(c, n, id -> id == 77 ? RrType.NOERROR : id % names.length == 2 ? RrType.NXDOMAIN : RrType.NOERROR);
        assertThat(metric(engine.snapshot(), "lookout_resolver_fast_path_answers_total")).isEqualTo(n - 1);
    }

    /** Reads {@code n} answers: IDs 0 to n-1, each once, each with the rcode {@code expected} gives. */
    private static void eachIdAnsweredOnce(DnsTestClient c, int n, java.util.function.IntUnaryOperator expected) throws Exception {
        java.util.BitSet seen = new java.util.BitSet(n);
        for (int i = 0; i < n; i++) {
            byte[] r = c.receive(10_000);
            assertThat(r).as("answer %d of %d", i + 1, n).isNotNull();
            int id = ((r[0] & 0xFF) << 8) | (r[1] & 0xFF);
            assertThat(seen.get(id)).as("ID %d answered twice", id).isFalse();
            seen.set(id);
            assertThat(r[3] & 0x0F).as("rcode of %d", id).isEqualTo(expected.applyAsInt(id));
        }
        assertThat(seen.cardinality()).isEqualTo(n);
    }

    /**
     * A burst of questions the socket hands to the engine loop is answered whole too: forwarded
     * names (the first goes upstream, its answer leaves on its own; later ones are cache hits,
     * answered together at the end of the engine's task) and queries the engine refuses at once
     * (opcode STATUS: NOTIMP), 150 sent before any answer is read; every ID comes back once.
     */
    @Test
    void aBurstOfHandedQuestionsIsAnsweredWhole() throws Exception {
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        DnsTestClient c = clients(listen()).get(0);
        int n = 150;
        for (int id = 0; id < n; id++) {
            byte[] q = DnsTestClient.query(id, id % 2 == 0 ? "host.example.org." : "www.pool.test.", RrType.A, false, 0);
            if (id % 5 == 1) {
                q[2] |= (byte) (2 << 3); // opcode STATUS
            }
            c.send(q);
        }
        eachIdAnsweredOnce(c, n, id -> id % 5 == 1 ? RrType.NOTIMP : RrType.NOERROR);
        assertThat(metric(engine.snapshot(), "lookout_resolver_udp_send_errors_total")).isZero();
        assertThat(metric(engine.snapshot(), "lookout_resolver_internal_errors_total")).isZero();
    }

    /**
     * Hostile input on the fast path: 400 queries for remembered local questions (static and DYNA,
     * with and without EDNS), each with one to three bits flipped (a fixed seed), sent to the real
     * engine's first socket. Whatever the fast path declines goes the general way; nothing may
     * reach an internal error, every reply is a response to an ID that was sent, and the listener
     * answers the unmutated questions afterwards.
     */
    @Test
    void mutatedLocalQueriesAreAnsweredOrDroppedAndNeverBreakTheFastPath() throws Exception {
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        DnsTestClient c = clients(listen()).get(0);
        // remembered by the first socket's fast path
        assertThat(c.ask("www.pool.test.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
        assertThat(c.ask("dyn.pool.test.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
        Random rnd = new Random(11);
        int n = 400;
        for (int id = 0; id < n; id++) {
            byte[] q = DnsTestClient.query(id, id % 2 == 0 ? "www.pool.test." : "dyn.pool.test.", RrType.A, id % 3 == 0, 1232);
            for (int f = 1 + rnd.nextInt(3); f > 0; f--) {
                int at = 2 + rnd.nextInt(q.length - 2); // the ID stays: replies are matched by it
                q[at] ^= (byte) (1 << rnd.nextInt(8));
            }
            c.send(q);
        }
        int replies = 0;
        for (int i = 0; i < n; i++) { // bounded: at most n replies, each waited for at most 2 s
            byte[] r = c.receive(2_000);
            if (r == null) {
                break;
            }
            replies++;
            assertThat(r.length).isGreaterThanOrEqualTo(12);
            assertThat(r[2] & 0x80).as("QR").isNotZero();
            assertThat(((r[0] & 0xFF) << 8) | (r[1] & 0xFF)).isBetween(0, n - 1);
        }
        EngineSnapshot s = engine.snapshot();
        assertThat(metric(s, "lookout_resolver_internal_errors_total")).isZero();
        // most mutations leave a query that is answered (FORMERR, NXDOMAIN, REFUSED, forwarded...)
        assertThat(replies).isGreaterThan(n / 2);
        assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, 7);
        assertThat(c.ask("dyn.pool.test.", RrType.A).answer).hasSize(1);
    }

    /**
     * Datagrams of odd sizes: empty, 1 and 11 bytes (no header), and 5 000 and 60 000 bytes
     * (beyond the 4 096-byte receive slot: they arrive cut). Each is dropped and counted as
     * malformed, nothing fails inside, and the next query is answered.
     */
    @Test
    void datagramsOfOddSizesAreCountedAndDropped() throws Exception {
        start(conf(1, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"),
                EngineOptions.forTest(null, null, tmp).withUdpReads(udpIo()));
        InetSocketAddress server = listen();
        try (DatagramSocket raw = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            for (int size : new int[] {0, 1, 11, 5_000, 60_000}) {
                byte[] junk = new byte[size];
                Arrays.fill(junk, (byte) 0xC0); // labels that are all pointers: never a question
                raw.send(new DatagramPacket(junk, size, server));
            }
        }
        DnsTestClient c = clients(server).get(0);
        assertThat(c.ask("www.pool.test.", RrType.A).answer.get(0).rdata()).containsExactly(198, 51, 100, 7);
        EngineSnapshot s = engine.snapshot();
        assertThat(metric(s, "lookout_resolver_malformed_total")).isEqualTo(5);
        assertThat(metric(s, "lookout_resolver_internal_errors_total")).isZero();
    }

    /**
     * The answer loops draw with their own random sources from the same odds: 25 % / 75 % for
     * weights 10 and 30. 4 000 DYNA answers over {@value #CLIENTS} clients, chi-squared with one
     * degree of freedom against the critical value 15.137 (α = 1e-4).
     */
    @Test
    void answerLoopDrawsFollowTheOdds() throws Exception {
        start(conf(3, "127.0.0.0/8", upstreamAddress(upstream), "www A 198.51.100.7"));
        int n = 4_000;
        int first = 0;
        List<DnsTestClient> cs = clients(listen());
        for (int i = 0; i < n; i++) {
            Message m = cs.get(i % CLIENTS).ask("dyn.pool.test.", RrType.A);
            if (m.answer.get(0).rdata()[3] == 1) {
                first++;
            }
        }
        double e1 = n * 0.25;
        double e2 = n * 0.75;
        double chi2 = Math.pow(first - e1, 2) / e1 + Math.pow(n - first - e2, 2) / e2;
        assertThat(chi2).as("chi-squared for %d of %d answers on 192.0.2.1", first, n).isLessThan(15.137);
        assertThat(metric(engine.snapshot(), "lookout_resolver_answer_loop_answers_total")).isGreaterThan(0);
    }

    @Test
    void udpThreadsOutOfRangeIsAConfigurationError() {
        for (String bad : new String[] {"0", "65", "two"}) {
            ConfigResult r = new ConfigLoader(Map.of()).parse(conf(1, "127.0.0.0/8", "127.0.0.1:53", "www A 198.51.100.7")
                    .replace("udp_threads => 1", "udp_threads => " + bad), "loops.conf", tmp);
            assertThat(r.ok()).isFalse();
            assertThat(r.problems()).anySatisfy(p -> {
                assertThat(p.toString()).contains("resolver.udp_threads");
                assertThat(p.line()).isEqualTo(4);
            });
        }
    }
}
