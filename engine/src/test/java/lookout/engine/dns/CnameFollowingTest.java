package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.config.ZoneConfig;
import lookout.engine.dns.FakeUpstream.Transport;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 1034 §4.3.2 step 3a for the resolver's clients: an answer that ends in a CNAME — a local
 * zone's pointing out of its zone, or an upstream's cut chain — is completed, from the local zones
 * first, else with one more question upstream spending from the same three attempts; the client
 * gets the whole chain and then the target's records, or the target's NXDOMAIN or NODATA. A loop
 * and a chain of more than eight CNAMEs are SERVFAIL; a target nobody here resolves ends the chain
 * where it is. Real sockets on loopback, virtual time.
 */
class CnameFollowingTest {

    @TempDir
    Path tmp;

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static Map<String, ZoneConfig> zones() {
        String lab = """
                $TTL 300
                @       SOA  ns1 hostmaster 1 7200 1800 604800 60
                @       NS   ns1
                ns1     A    192.0.2.1
                out     CNAME www.upstream.example.
                local   CNAME web.other.test.
                gone    CNAME nothing.other.test.
                bare    CNAME bare.other.test.
                loop1   CNAME loop2.other.test.
                long0   CNAME long1.upstream.example.
                short0  CNAME long1.upstream.example.
                """;
        String other = """
                $TTL 300
                @       SOA  ns1.lab.test. hostmaster.lab.test. 1 7200 1800 604800 120
                @       NS   ns1.lab.test.
                web     A    192.0.2.80
                bare    TXT  "no address here"
                loop2   CNAME loop1.lab.test.
                """;
        return Map.of("lab.test.", new ZoneConfig("lab.test.", "lab.zone", lab, 1),
                "other.test.", new ZoneConfig("other.test.", "other.zone", other, 1));
    }

    private static Rr cname(String from, String to) {
        return new Rr(from, RrType.CNAME, RrType.IN, 300, Names.toWire(to));
    }

    private static Rr a(String name, int last) {
        return new Rr(name, RrType.A, RrType.IN, 300, new byte[]{(byte) 192, 0, 2, (byte) last});
    }

    private static List<Integer> types(Message m) {
        return m.answer.stream().map(Rr::type).toList();
    }

    /**
     * An upstream that knows: www.upstream.example A; cut.example → CNAME www.upstream.example (and
     * stops: the chain cut); longN → CNAME long(N+1) up to long9 A; ping ↔ pong; dead.example → a
     * CNAME to nx.example, which does not exist.
     */
    private static final BiFunction<Message, Transport, byte[]> KNOWING = (q, t) -> {
        String n = q.qname;
        if (n.equals("www.upstream.example.")) {
            return FakeUpstream.reply(q, RrType.NOERROR, false, List.of(a(n, 7)));
        }
        if (n.equals("cut.example.")) {
            return FakeUpstream.reply(q, RrType.NOERROR, false, List.of(cname(n, "www.upstream.example.")));
        }
        if (n.startsWith("long")) {
            int i = Integer.parseInt(n.substring(4, n.indexOf('.')));
            return i >= 9 ? FakeUpstream.reply(q, RrType.NOERROR, false, List.of(a(n, 9)))
                    : FakeUpstream.reply(q, RrType.NOERROR, false, List.of(cname(n, "long" + (i + 1) + ".upstream.example.")));
        }
        if (n.equals("ping.example.")) {
            return FakeUpstream.reply(q, RrType.NOERROR, false, List.of(cname(n, "pong.example.")));
        }
        if (n.equals("pong.example.")) {
            return FakeUpstream.reply(q, RrType.NOERROR, false, List.of(cname(n, "ping.example.")));
        }
        if (n.equals("dead.example.")) {
            return FakeUpstream.reply(q, RrType.NOERROR, false, List.of(cname(n, "nx.example.")));
        }
        return FakeUpstream.nxdomain(q);
    };

    @Test
    void aLocalCnameIntoAnotherLocalZoneIsCompletedThere() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 40, oneScope(up.address), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message m = c.ask("local.lab.test.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat((m.flags & Message.AA) != 0).as("every link ours: authoritative").isTrue();
            assertThat(types(m)).containsExactly(RrType.CNAME, RrType.A);
            assertThat(m.answer.get(1).name()).isEqualTo("web.other.test.");
            // the target's NODATA, with its zone's SOA (RFC 2308 §2.2)
            Message nodata = c.ask("bare.lab.test.", RrType.A);
            assertThat(nodata.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(types(nodata)).containsExactly(RrType.CNAME);
            assertThat(nodata.authority).singleElement().satisfies(r -> {
                assertThat(r.type()).isEqualTo(RrType.SOA);
                assertThat(r.name()).isEqualTo("other.test.");
            });
            // the target's NXDOMAIN (RFC 6604: the code is the last name's)
            Message nx = c.ask("gone.lab.test.", RrType.A);
            assertThat(nx.rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(types(nx)).containsExactly(RrType.CNAME);
            assertThat(nx.authority).extracting(Rr::type).containsExactly(RrType.SOA);
            assertThat(up.count()).as("nothing went upstream").isZero();
        }
    }

    @Test
    void aLocalCnameOutOfTheZonesIsResolvedUpstreamOnceAndThenFromTheCache() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 41, oneScope(up.address), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message m = c.ask("out.lab.test.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(types(m)).containsExactly(RrType.CNAME, RrType.A);
            assertThat((m.flags & Message.AA) != 0).as("not all ours: not authoritative").isFalse();
            assertThat(up.received).extracting(FakeUpstream.Received::qname).containsExactly("www.upstream.example.");
            Message again = c.ask("out.lab.test.", RrType.A);
            assertThat(types(again)).containsExactly(RrType.CNAME, RrType.A);
            assertThat(up.count()).as("the target from the cache").isEqualTo(1);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.cnameChains()).isEqualTo(2);
        }
    }

    @Test
    void withoutRecursionDesiredTheChainEndsAtTheLocalZonesEdge() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 42, oneScope(up.address), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            byte[] q = DnsTestClient.query(9, "out.lab.test.", RrType.A, false, 0);
            q[2] &= ~0x01; // RD off: an authoritative server's answer
            c.send(q);
            Message m = DnsTestClient.decode(c.receive(10_000));
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(types(m)).containsExactly(RrType.CNAME);
            // inside the local zones it is followed all the same
            byte[] local = DnsTestClient.query(10, "local.lab.test.", RrType.A, false, 0);
            local[2] &= ~0x01;
            c.send(local);
            assertThat(types(DnsTestClient.decode(c.receive(10_000)))).containsExactly(RrType.CNAME, RrType.A);
            assertThat(up.count()).isZero();
        }
    }

    @Test
    void anUpstreamsCutChainIsCompletedWithOneMoreQuestion() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 43, oneScope(up.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message m = c.ask("cut.example.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(m.answer).extracting(Rr::name).containsExactly("cut.example.", "www.upstream.example.");
            assertThat(types(m)).containsExactly(RrType.CNAME, RrType.A);
            assertThat(up.received).extracting(FakeUpstream.Received::qname)
                    .containsExactly("cut.example.", "www.upstream.example.");
            // a target that does not exist: NXDOMAIN with the chain
            Message dead = c.ask("dead.example.", RrType.A);
            assertThat(dead.rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(types(dead)).containsExactly(RrType.CNAME);
        }
    }

    @Test
    void eightCnamesAreFollowedANinthIsServfail() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 44, oneScope(up.address), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            // long1 → long2 → ... → long9 A: eight CNAMEs upstream
            Message eight = c.ask("long1.upstream.example.", RrType.A);
            assertThat(eight.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(types(eight)).hasSize(9).endsWith(RrType.A);
            // the same chain after a local CNAME: nine
            Message nine = c.ask("long0.lab.test.", RrType.A);
            assertThat(nine.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(nine.answer).isEmpty();
            assertThat(h.snapshot().recentTraces()).anySatisfy(t -> {
                assertThat(t.name()).isEqualTo("long0.lab.test.");
                assertThat(t.summary()).contains("longer than 8");
            });
        }
    }

    @Test
    void aLoopIsServfailWhereverItCloses() throws Exception {
        try (FakeUpstream up = new FakeUpstream(KNOWING);
             ResolverHarness h = new ResolverHarness(tmp, 45, oneScope(up.address), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message local = c.ask("loop1.lab.test.", RrType.A);
            assertThat(local.rcode()).as("between two local zones").isEqualTo(RrType.SERVFAIL);
            Message upstream = c.ask("ping.example.", RrType.A);
            assertThat(upstream.rcode()).as("between two upstream answers").isEqualTo(RrType.SERVFAIL);
            assertThat(up.received).extracting(FakeUpstream.Received::qname).containsExactly("ping.example.", "pong.example.");
        }
    }

    /**
     * seed 000 §4.6.4: failures spend the attempts, a reply that leads on does not, and the
     * target's question has what is left of the same three: here the name's first attempt times
     * out, its second gives the CNAME, and its target gets the last two.
     */
    @Test
    void theTargetSpendsFromTheSameThreeAttempts() throws Exception {
        try (FakeUpstream up = new FakeUpstream((q, t) -> null);
             ResolverHarness h = new ResolverHarness(tmp, 46, oneScope(up.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            up.behave((q, t) -> q.qname.equals("cut.example.") && up.count() == 2 ? KNOWING.apply(q, t) : null);
            c.send(DnsTestClient.query(5, "cut.example.", RrType.A, false, 0));
            await().atMost(WAIT).until(() -> up.count() == 1);
            h.advance(Duration.ofSeconds(2)); // cut.example: timeout, then the CNAME
            await().atMost(WAIT).until(() -> up.count() == 3); // www.upstream.example (silent)
            h.advance(Duration.ofSeconds(2));
            await().atMost(WAIT).until(() -> up.count() == 4);
            h.advance(Duration.ofSeconds(2));
            Message m = DnsTestClient.decode(c.receive(10_000));
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(up.received).extracting(FakeUpstream.Received::qname).containsExactly("cut.example.", "cut.example.",
                    "www.upstream.example.", "www.upstream.example.");
            ResolverSnapshot s = h.snapshot();
            assertThat(s.upstreamFailed().get("timeout")).as("three failures in all").isEqualTo(3);
            assertThat(s.unavailable()).isEqualTo(1);
            assertThat(s.recentTraces()).anySatisfy(tr -> {
                assertThat(tr.name()).isEqualTo("cut.example.");
                assertThat(tr.attempts()).extracting(ResolveTrace.Attempt::spent).containsExactly(true, false, true, true);
            });
        }
    }

    @Test
    void aTargetNoScopeRoutesEndsTheChainWhereItIs() throws Exception {
        // no servers at all: the local zone's CNAME out is the answer, as before
        try (ResolverHarness h = new ResolverHarness(tmp, 47, oneScope(), zones());
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message m = c.ask("out.lab.test.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(types(m)).containsExactly(RrType.CNAME);
            assertThat(h.snapshot().unavailable()).isZero();
        }
    }
}
