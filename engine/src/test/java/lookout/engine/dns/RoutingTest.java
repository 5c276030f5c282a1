package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.listen.QuestionMemoTest;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Names;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * SPEC §Resolver routing: a question goes to the scope whose routing domain is the longest suffix
 * of the name (in whole labels), else to the default scope, else to the fallback servers. Names
 * reach {@link Routing#route} as the resolver has them: presentation form, lower case, fully
 * qualified (read from the wire, or {@link Names#normalize}d).
 */
class RoutingTest {

    private static final InetSocketAddress CORP_NS = server(1);
    private static final InetSocketAddress LAB_NS = server(2);
    private static final InetSocketAddress DEFAULT_NS = server(3);
    private static final InetSocketAddress FALLBACK_NS = server(4);
    private static final InetSocketAddress ROOT_NS = server(5);

    static InetSocketAddress server(int last) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, (byte) last}), 53);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static ResolverConfig.Scope scope(String name, List<String> domains, InetSocketAddress server, boolean isDefault) {
        return new ResolverConfig.Scope(name, domains, server == null ? List.of() : List.of(server), isDefault);
    }

    static Routing routing(List<ResolverConfig.Scope> scopes) {
        return new Routing(new ResolverConfig(List.of(), List.of(), scopes, List.of(FALLBACK_NS), List.of(), 100));
    }

    private static final ResolverConfig.Scope CORP = scope("corp", List.of("example.com."), CORP_NS, false);
    private static final ResolverConfig.Scope LAB = scope("lab", List.of("lab.example.com."), LAB_NS, false);
    private static final ResolverConfig.Scope DEFAULT = scope("isp", List.of(), DEFAULT_NS, true);

    @Test
    void theScopeWithTheLongestMatchingDomainTakesTheName() {
        Routing r = routing(List.of(CORP, LAB));

        assertThat(r.route("host.lab.example.com.").scope()).isEqualTo("lab");
        assertThat(r.route("a.b.lab.example.com.").scope()).isEqualTo("lab");
        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("x.other.example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("host.lab.example.com.").servers()).containsExactly(LAB_NS);
    }

    @Test
    void theLongestDomainWinsWhateverTheOrderOfTheScopes() {
        Routing r = routing(List.of(LAB, CORP));

        assertThat(r.route("host.lab.example.com.").scope()).isEqualTo("lab");
        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
    }

    @Test
    void aRoutingDomainIsASuffixOfItself() {
        Routing r = routing(List.of(CORP, LAB));

        assertThat(r.route("example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("lab.example.com.").scope()).isEqualTo("lab");
    }

    @Test
    void aSuffixIsWholeLabelsNotCharacters() {
        Routing r = routing(List.of(CORP, DEFAULT));

        assertThat(r.route("notexample.com.").scope()).isEqualTo("isp");
        assertThat(r.route("www.myexample.com.").scope()).isEqualTo("isp");
        assertThat(r.route("com.").scope()).as("a parent of the domain is not under it").isEqualTo("isp");
    }

    @Test
    void aLabelHoldingAnEscapedDotIsOneLabel() {
        Routing r = routing(List.of(CORP, DEFAULT));

        // two labels, "a.example" and "com": not under example.com
        assertThat(r.route("a\\.example.com.").scope()).isEqualTo("isp");
        assertThat(r.route("www.a\\.b.example.com.").scope()).isEqualTo("corp");
    }

    @Test
    void aNameNoDomainMatchesGoesToTheDefaultScope() {
        Routing r = routing(List.of(CORP, DEFAULT, LAB));

        Routing.Route route = r.route("www.example.org.");
        assertThat(route.scope()).isEqualTo("isp");
        assertThat(route.servers()).containsExactly(DEFAULT_NS);
        assertThat(route.fallback()).isFalse();
    }

    @Test
    void withoutADefaultScopeItGoesToTheFallbackServers() {
        Routing r = routing(List.of(CORP, LAB));

        Routing.Route route = r.route("www.example.org.");
        assertThat(route.fallback()).isTrue();
        assertThat(route.scope()).isNull();
        assertThat(route.servers()).containsExactly(FALLBACK_NS);
    }

    @Test
    void aDefaultScopeWithRoutingDomainsTakesThoseToo() {
        ResolverConfig.Scope both = scope("isp", List.of("example.net."), DEFAULT_NS, true);
        Routing r = routing(List.of(CORP, both));

        assertThat(r.route("www.example.net.").scope()).isEqualTo("isp");
        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("www.example.org.").scope()).isEqualTo("isp");
    }

    @Test
    void aScopeRoutesEachOfItsDomains() {
        ResolverConfig.Scope many = scope("corp", List.of("example.com.", "example.net.", "10.in-addr.arpa."), CORP_NS,
                false);
        Routing r = routing(List.of(many));

        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("www.example.net.").scope()).isEqualTo("corp");
        assertThat(r.route("4.3.2.10.in-addr.arpa.").scope()).isEqualTo("corp");
        assertThat(r.route("4.3.2.11.in-addr.arpa.").fallback()).isTrue();
    }

    @Test
    void configuredDomainsMatchWhateverTheirCaseAndWithOrWithoutTheTrailingDot() {
        ResolverConfig.Scope shouting = scope("corp", List.of("Example.COM"), CORP_NS, false);
        ResolverConfig.Scope dotted = scope("lab", List.of("LAB.example.com."), LAB_NS, false);
        Routing r = routing(List.of(shouting, dotted));

        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
        assertThat(r.route("host.lab.example.com.").scope()).isEqualTo("lab");
    }

    @Test
    void aQuestionNameInAnyCaseIsRoutedAsTheResolverReadsIt() throws Exception {
        Routing r = routing(List.of(CORP, LAB, DEFAULT));
        // RFC 4343: the wire name HoSt.LaB.eXaMpLe.CoM, as the listener decodes it
        byte[] wire = QuestionMemoTest.query(7, "HoSt.LaB.eXaMpLe.CoM.", 1, 0, false);
        ClientQuery q = ClientQuery.decode(wire, wire.length, false);

        assertThat(r.route(q.qname).scope()).isEqualTo("lab");
        assertThat(r.route(Names.normalize("WWW.Example.Com")).scope()).as("typed without the trailing dot")
                .isEqualTo("corp");
    }

    @Test
    void theRootAsARoutingDomainTakesEveryNameNoLongerDomainClaims() {
        // "." is a suffix of every name, so its scope wins over the default scope
        ResolverConfig.Scope root = scope("root", List.of("."), ROOT_NS, false);
        Routing r = routing(List.of(CORP, root, DEFAULT));

        assertThat(r.route("www.example.org.").scope()).isEqualTo("root");
        assertThat(r.route(".").scope()).isEqualTo("root");
        assertThat(r.route("www.example.com.").scope()).isEqualTo("corp");
    }

    @Test
    void theRootNameWithoutARootDomainGoesToTheDefaultScopeElseTheFallback() {
        assertThat(routing(List.of(CORP, DEFAULT)).route(".").scope()).isEqualTo("isp");
        assertThat(routing(List.of(CORP)).route(".").fallback()).isTrue();
    }

    @Test
    void aScopeWithNoServersStillTakesItsNames() {
        // SPEC: an empty server list answers unavailable at once; it does not fall through to others
        ResolverConfig.Scope empty = scope("dark", List.of("dark.example.com."), null, false);
        Routing r = routing(List.of(CORP, empty, DEFAULT));

        Routing.Route route = r.route("x.dark.example.com.");
        assertThat(route.scope()).isEqualTo("dark");
        assertThat(route.servers()).isEmpty();
    }

    @Test
    void twoRoutingsOfTheSameConfigurationGiveEqualRoutes() {
        // a reload keeps the cached answers of names whose route is unchanged (Resolver.reconfigure)
        Routing before = routing(List.of(CORP, LAB, DEFAULT));
        Routing after = routing(List.of(CORP, LAB, DEFAULT));
        Routing moved = routing(List.of(scope("corp", List.of("example.com."), LAB_NS, false), LAB, DEFAULT));

        assertThat(after.route("www.example.com.")).isEqualTo(before.route("www.example.com."));
        assertThat(after.route("www.example.org.")).isEqualTo(before.route("www.example.org."));
        assertThat(moved.route("www.example.com.")).isNotEqualTo(before.route("www.example.com."));
        assertThat(moved.route("host.lab.example.com.")).isEqualTo(before.route("host.lab.example.com."));
    }

    // ------------------------------------------------------------------ properties

    record Case(List<List<String>> scopeDomains, boolean withDefault, String name) {
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> label = Arbitraries.of("a", "b", "c", "ab");
        Arbitrary<String> name = label.list().ofMaxSize(4).map(RoutingTest::fqdn);
        Arbitrary<List<List<String>>> domains = name.list().ofMaxSize(3).list().ofMaxSize(4);
        return net.jqwik.api.Combinators.combine(domains, Arbitraries.of(true, false), name).as(Case::new);
    }

    private static String fqdn(List<String> labels) {
        return labels.isEmpty() ? "." : String.join(".", labels) + ".";
    }

    private static List<String> labels(String name) {
        return name.equals(".") ? List.of() : List.of(name.substring(0, name.length() - 1).split("\\."));
    }

    /** Against the rule stated over label lists: the longest domain whose labels end the name's. */
    @Property(tries = 1000)
    void theRouteIsTheLongestSuffixDomainsScopeElseTheDefaultElseTheFallback(@ForAll("cases") Case c) {
        List<ResolverConfig.Scope> scopes = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < c.scopeDomains().size(); i++) {
            List<String> mine = new ArrayList<>();
            for (String d : c.scopeDomains().get(i)) {
                if (!seen.contains(d)) { // the loader refuses a domain in two scopes
                    seen.add(d);
                    mine.add(d);
                }
            }
            scopes.add(scope("s" + i, mine, server(10 + i), false));
        }
        if (c.withDefault()) {
            scopes.add(scope("default", List.of(), DEFAULT_NS, true));
        }

        String expected = c.withDefault() ? "default" : null;
        int best = -1;
        List<String> nameLabels = labels(c.name());
        for (ResolverConfig.Scope s : scopes) {
            for (String d : s.domains()) {
                List<String> dl = labels(d);
                boolean suffix = dl.size() <= nameLabels.size()
                        && nameLabels.subList(nameLabels.size() - dl.size(), nameLabels.size()).equals(dl);
                if (suffix && dl.size() > best) {
                    best = dl.size();
                    expected = s.name();
                }
            }
        }

        Routing.Route route = routing(scopes).route(c.name());
        assertThat(route.scope()).isEqualTo(expected);
        assertThat(route.fallback()).isEqualTo(expected == null);
    }
}
