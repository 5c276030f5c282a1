package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.ZoneConfig;
import lookout.engine.seams.DynamicRecords;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.zone.Zone;
import lookout.engine.dns.zone.ZoneCheck;
import lookout.engine.dns.zone.ZoneParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RFC 1035 zone files, gdnsd DYNA/DYNC, authoritative answers and the zone config check. */
class ZoneTest {

    @TempDir
    Path tmp;

    static final String ZONE = """
            $TTL 1h
            $ORIGIN example.com.
            @       IN  SOA ns1 hostmaster (
                            2026112901 ; serial
                            3600 600 1w 300 )
                    IN  NS  ns1
                        NS  ns2.example.net.
            ns1         A   192.0.2.53
            www     300 DYNC weighted!pubwww
            cnames  300/60 DYNC weighted!cn
            pool    600 DYNA weighted!addrs
            pool        MX  10 mail
            mail    IN 120 A 192.0.2.25
            mail        AAAA 2001:db8::25
            alias       CNAME mail
            "txt"       TXT "a b" c\\032d
            a.b.c       A 192.0.2.7
            sub         NS ns.sub
            ns.sub      A 192.0.2.99
            $ORIGIN other.example.com.
            x           A 192.0.2.8
            """;

    static ZoneConfig zone(String text) {
        return new ZoneConfig("example.com.", "zones/example.com", text, 1);
    }

    /** A pools stand-in with fixed answers. */
    static DynamicRecords pools() {
        return (resource, qtype, ttl, min) -> {
            try {
                return switch (resource) {
                    case "pubwww", "addrs" -> new DynamicRecords.Answer(qtype == RrType.A
                            ? List.of(InetAddress.getByName("192.0.2.10"), InetAddress.getByName("192.0.2.11"))
                            : qtype == RrType.AAAA ? List.of() : List.of(), null, Math.max(min, Math.min(ttl, 45)), false);
                    case "cn" -> new DynamicRecords.Answer(List.of(), "target.example.net.", Math.max(min, Math.min(ttl, 45)), false);
                    default -> throw new IllegalStateException(resource);
                };
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static Answer ask(LocalZones zones, String name, int type) {
        Zone z = zones.find(name);
        assertThat(z).as("zone for " + name).isNotNull();
        return zones.answer(z, name, type, RrType.IN, pools());
    }

    @Test
    void parsesEveryRecordKind() {
        ZoneParser.Result r = ZoneParser.parse(zone(ZONE));
        assertThat(r.problems()).isEmpty();
        Zone z = r.zone();
        assertThat(z.soa()).isNotNull();
        assertThat(z.soa().ttl()).isEqualTo(3600);
        assertThat(z.node("example.com.").rrset(RrType.NS)).hasSize(2);
        assertThat(z.node("mail.example.com.").rrset(RrType.A).get(0).ttl()).isEqualTo(120);
        assertThat(z.node("www.example.com.").dyn()).isEqualTo(new Zone.Dyn(true, "weighted", "pubwww", 300, 150, "zones/example.com", 9, 18));
        assertThat(z.node("cnames.example.com.").dyn().minTtl()).isEqualTo(60);
        assertThat(z.node("pool.example.com.").dyn().dync()).isFalse();
        assertThat(z.node("x.other.example.com.")).isNotNull();
        Rr txt = z.node("txt.example.com.").rrset(RrType.TXT).get(0);
        assertThat(txt.rdata()).containsExactly(3, 'a', ' ', 'b', 3, 'c', ' ', 'd');
        assertThat(z.exists("b.c.example.com.")).isTrue(); // empty non-terminal
    }

    /** RFC 4592: a wildcard answers names that do not exist, under its closest encloser only. */
    @Test
    void wildcardsAnswerNamesThatDoNotExist() {
        String text = ZONE + """
                $ORIGIN example.com.
                *           A   192.0.2.200
                *           TXT "wild"
                *.dyn       DYNA weighted!addrs
                *.alias     CNAME mail
                *.sub       A   192.0.2.66
                """;
        ZoneParser.Result parsed = ZoneParser.parse(zone(text));
        assertThat(parsed.problems()).isEmpty();
        LocalZones zones = new LocalZones(Map.of("example.com.", zone(text)));

        Answer a = ask(zones, "nothere.example.com.", RrType.A);
        assertThat(a.rcode).isEqualTo(RrType.NOERROR);
        assertThat(a.authoritative).isTrue();
        assertThat(a.answer()).singleElement().satisfies(rr -> {
            assertThat(rr.name()).isEqualTo("nothere.example.com."); // the owner is the asked name
            assertThat(rr.rdata()).containsExactly(192, 0, 2, 200);
        });
        // several labels below the closest encloser match too
        assertThat(ask(zones, "x.y.z.example.com.", RrType.A).answer()).singleElement()
                .satisfies(rr -> assertThat(rr.name()).isEqualTo("x.y.z.example.com."));
        // ANY: every record of the wildcard, as the asked name's
        assertThat(ask(zones, "any.example.com.", RrType.ANY).answer()).extracting(Rr::name)
                .containsOnly("any.example.com.").hasSize(2);
        // a type the wildcard lacks: NODATA with the SOA, not NXDOMAIN
        Answer nodata = ask(zones, "nothere.example.com.", RrType.AAAA);
        assertThat(nodata.rcode).isEqualTo(RrType.NOERROR);
        assertThat(nodata.answer()).isEmpty();
        assertThat(nodata.authority()).extracting(Rr::type).containsExactly(RrType.SOA);
        // existing names and empty non-terminals are never answered from the wildcard
        assertThat(ask(zones, "mail.example.com.", RrType.A).answer().get(0).rdata()).containsExactly(192, 0, 2, 25);
        assertThat(ask(zones, "mail.example.com.", RrType.TXT).answer()).isEmpty();
        assertThat(ask(zones, "b.c.example.com.", RrType.A).answer()).isEmpty();
        // below an existing name without a wildcard of its own: NXDOMAIN (its closest encloser is mail)
        assertThat(ask(zones, "x.mail.example.com.", RrType.A).rcode).isEqualTo(RrType.NXDOMAIN);
        // a DYNA wildcard draws for the asked name; a CNAME wildcard aliases it and is followed in the zone
        assertThat(ask(zones, "h1.dyn.example.com.", RrType.A).answer()).isNotEmpty()
                .allSatisfy(rr -> assertThat(rr.name()).isEqualTo("h1.dyn.example.com."));
        Answer alias = ask(zones, "w.alias.example.com.", RrType.A);
        assertThat(alias.answer()).extracting(Rr::type).containsExactly(RrType.CNAME, RrType.A);
        assertThat(alias.answer().get(0).name()).isEqualTo("w.alias.example.com.");
        // a wildcard below a delegation is not this zone's to use: the referral wins
        Answer referral = ask(zones, "host.sub.example.com.", RrType.A);
        assertThat(referral.authoritative).isFalse();
        assertThat(referral.authority()).extracting(Rr::type).containsExactly(RrType.NS);
    }

    @Test
    void answersAuthoritatively() {
        LocalZones zones = new LocalZones(Map.of("example.com.", zone(ZONE)));
        Answer a = ask(zones, "mail.example.com.", RrType.AAAA);
        assertThat(a.rcode).isEqualTo(RrType.NOERROR);
        assertThat(a.authoritative).isTrue();
        assertThat(a.answer()).hasSize(1);

        Answer nx = ask(zones, "nothere.example.com.", RrType.A);
        assertThat(nx.rcode).isEqualTo(RrType.NXDOMAIN);
        assertThat(nx.authority()).singleElement().satisfies(s -> {
            assertThat(s.type()).isEqualTo(RrType.SOA);
            assertThat(s.ttl()).isEqualTo(300); // RFC 2308: min(SOA TTL, MINIMUM)
        });
        Answer nodata = ask(zones, "mail.example.com.", RrType.TXT);
        assertThat(nodata.rcode).isEqualTo(RrType.NOERROR);
        assertThat(nodata.answer()).isEmpty();
        assertThat(nodata.authority()).hasSize(1);
        Answer ent = ask(zones, "b.c.example.com.", RrType.A);
        assertThat(ent.rcode).isEqualTo(RrType.NOERROR);

        Answer alias = ask(zones, "alias.example.com.", RrType.A);
        assertThat(alias.answer()).extracting(Rr::type).containsExactly(RrType.CNAME, RrType.A);

        Answer referral = ask(zones, "host.sub.example.com.", RrType.A);
        assertThat(referral.authoritative).isFalse();
        assertThat(referral.authority()).extracting(Rr::type).containsExactly(RrType.NS);
        assertThat(referral.additional()).hasSize(1);
    }

    @Test
    void dynaAndDyncAnswerFromThePools() {
        LocalZones zones = new LocalZones(Map.of("example.com.", zone(ZONE)));
        Answer www = ask(zones, "www.example.com.", RrType.A);
        assertThat(www.answer()).hasSize(2).allSatisfy(r -> {
            assertThat(r.type()).isEqualTo(RrType.A);
            assertThat(r.ttl()).isEqualTo(150); // floored by the record's minimum (half of 300)
        });
        Answer www6 = ask(zones, "www.example.com.", RrType.AAAA);
        assertThat(www6.answer()).isEmpty();
        assertThat(www6.rcode).isEqualTo(RrType.NOERROR);
        assertThat(www6.authority()).extracting(Rr::type).containsExactly(RrType.SOA);

        Answer cn = ask(zones, "cnames.example.com.", RrType.A);
        assertThat(cn.answer()).singleElement().satisfies(r -> {
            assertThat(r.type()).isEqualTo(RrType.CNAME);
            assertThat(Message.nameAt(r.rdata(), 0)).isEqualTo("target.example.net.");
            assertThat(r.ttl()).isEqualTo(60);
        });
        // DYNA answers A/AAAA only; other types come from the node's static records
        assertThat(ask(zones, "pool.example.com.", RrType.MX).answer()).singleElement()
                .satisfies(r -> assertThat(r.type()).isEqualTo(RrType.MX));
        assertThat(ask(zones, "pool.example.com.", RrType.A).answer()).hasSize(2);
    }

    @Test
    void staticAnswersAreBuiltOnceAndEveryDynaQuestionDrawsAgain() throws Exception {
        LocalZones zones = new LocalZones(Map.of("example.com.", zone(ZONE)));
        // a pools stand-in that hands out a different address on every call
        int[] calls = {0};
        DynamicRecords counting = (resource, qtype, ttl, min) -> {
            calls[0]++;
            try {
                return new DynamicRecords.Answer(List.of(InetAddress.getByName("192.0.2." + calls[0])), null, 45, false);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        };
        Zone z = zones.find("mail.example.com.");
        Answer mail1 = zones.answer(z, "mail.example.com.", RrType.A, RrType.IN, counting);
        Answer mail2 = zones.answer(z, "mail.example.com.", RrType.A, RrType.IN, counting);
        assertThat(mail2).as("static answer reused").isSameAs(mail1);
        Answer nx1 = zones.answer(z, "nope.example.com.", RrType.A, RrType.IN, counting);
        assertThat(zones.answer(z, "nope.example.com.", RrType.A, RrType.IN, counting)).isSameAs(nx1);
        assertThat(calls[0]).isZero();

        Answer d1 = zones.answer(z, "pool.example.com.", RrType.A, RrType.IN, counting);
        Answer d2 = zones.answer(z, "pool.example.com.", RrType.A, RrType.IN, counting);
        assertThat(calls[0]).isEqualTo(2);
        assertThat(d1.answer()).singleElement().satisfies(r -> assertThat(r.rdata()).containsExactly(192, 0, 2, 1));
        assertThat(d2.answer()).singleElement().satisfies(r -> {
            assertThat(r.rdata()).containsExactly(192, 0, 2, 2);
            assertThat(r.ttl()).isEqualTo(45);
            assertThat(r.name()).isEqualTo("pool.example.com.");
        });
        assertThat(d2.authoritative).isTrue();
        // the DYNA record's static neighbours stay static; a DYNA asked for AAAA with only IPv4 is NODATA
        assertThat(zones.answer(z, "pool.example.com.", RrType.MX, RrType.IN, counting)).isSameAs(
                zones.answer(z, "pool.example.com.", RrType.MX, RrType.IN, counting));
        Answer v6 = zones.answer(z, "pool.example.com.", RrType.AAAA, RrType.IN, counting);
        assertThat(v6.answer()).isEmpty();
        assertThat(v6.authority()).extracting(Rr::type).containsExactly(RrType.SOA);
        assertThat(calls[0]).isEqualTo(3);
        // without the pools: SERVFAIL, and not remembered (the pools may come back)
        assertThat(zones.answer(z, "pool.example.com.", RrType.A, RrType.IN, null).rcode).isEqualTo(RrType.SERVFAIL);
        assertThat(zones.answer(z, "pool.example.com.", RrType.A, RrType.IN, counting).rcode).isEqualTo(RrType.NOERROR);
    }

    @Test
    void reportsProblemsAtFileLineColumn() {
        String bad = """
                $TTL 300
                @ SOA ns1 host 1 2 3 4 5
                  NS ns1
                ns1 A 192.0.2.300
                www CNAME x
                www A 192.0.2.1
                y 300/30 A 192.0.2.2
                z WKS 1
                outside.example.org. A 192.0.2.3
                """;
        ZoneParser.Result r = ZoneParser.parse(new ZoneConfig("example.com.", "lookout.conf", bad, 20));
        assertThat(r.zone()).isNull();
        assertThat(r.problems()).extracting(Object::toString).containsExactly(
                "lookout.conf:23:7: '192.0.2.300' is not an IPv4 address",
                "lookout.conf:25:5: CNAME at www.example.com. cannot coexist with other records (RFC 1034 §3.6.2)",
                "lookout.conf:26:3: the TTL/MIN form is only for DYNA and DYNC records",
                "lookout.conf:27:3: unsupported record type 'WKS' (supported: SOA NS A AAAA CNAME PTR MX TXT SRV DYNA DYNC)",
                "lookout.conf:28:1: owner outside.example.org. is outside the zone example.com.");
    }

    @Test
    void configCheckFindsUnknownResourcesAndDynaOnACnameResource() {
        String text = """
                $TTL 300
                @ SOA ns1 host 1 2 3 4 5
                  NS ns1
                ns1 A 192.0.2.1
                a DYNA weighted!nosuch
                b DYNA weighted!cn
                c DYNC weighted!cn
                d DYNA weighted!addrs
                """;
        Config cfg = new Config(ConfigSource.of("lookout.conf", tmp, ""), ResolverHarness.oneScope(),
                Map.of("example.com.", new ZoneConfig("example.com.", "zones/example.com", text, 1)), Map.of(),
                new WeightedConfig(Set.of("addrs"), Set.of("cn")), null, null, tmp);
        ConfigProblems problems = new ConfigProblems();
        new ZoneCheck().check(cfg, problems);
        List<String> out = new ArrayList<>();
        for (ConfigProblem p : problems.list()) {
            out.add(p.toString());
        }
        assertThat(out).containsExactly(
                "zones/example.com:5:8: DYNA at a.example.com.: plugin_weighted: unknown resource 'nosuch'",
                "zones/example.com:6:8: DYNA at b.example.com.: plugin_weighted: Resource 'cn' used in a DYNA RR, but has CNAME data");
    }

    @Test
    void zoneAnswersReachClientsThroughTheEngine() throws Exception {
        try (ResolverHarness h = new ResolverHarness(tmp, 80, ResolverHarness.oneScope(),
                Map.of("example.com.", zone(ZONE)));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            Message m = c.ask("mail.example.com.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat((m.flags & Message.AA) != 0).isTrue();
            // the pools service answers DYNC (here with no resources configured: no addresses)
            Message www = c.ask("www.example.com.", RrType.A);
            assertThat((www.flags & Message.AA) != 0 || www.rcode() == RrType.SERVFAIL).isTrue();
            assertThat(h.snapshot().recentTraces()).anySatisfy(t -> assertThat(t.source()).isEqualTo("zone"));
        }
    }
}
