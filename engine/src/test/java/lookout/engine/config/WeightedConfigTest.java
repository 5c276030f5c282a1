package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import lookout.engine.weighted.Synopsis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WeightedConfigTest {

    @Test
    void synopsisBindsWithGdnsdModesAndInheritance() {
        WeightedConfig c = Synopsis.synopsis();
        assertThat(c.resources().keySet()).containsExactly("corpwww", "frontwww6", "pubwww", "cdnwww", "mixed", "cn");
        assertThat(c.cnameResources()).containsExactlyInAnyOrder("corpwww", "cn");
        assertThat(c.addressResources()).containsExactlyInAnyOrder("frontwww6", "pubwww", "cdnwww", "mixed");

        WeightedResource corp = c.resources().get("corpwww");
        assertThat(corp.cnames().mode()).isEqualTo("cname");
        assertThat(corp.cnames().serviceTypes()).containsExactly("up"); // inherited from the top level
        assertThat(corp.cnames().weight()).isEqualTo(115);
        assertThat(corp.cnames().upWeight()).isEqualTo(58); // ceil(115 * 0.5)

        WeightedFamily front = c.resources().get("frontwww6").v6();
        assertThat(front.mode()).isEqualTo("ungrouped-multi");
        assertThat(front.groups().get(1).items().get(0).target()).isEqualTo("2001:db8::456");

        WeightedFamily pub = c.resources().get("pubwww").v4();
        assertThat(pub.mode()).isEqualTo("ungrouped-single");
        assertThat(pub.serviceTypes()).containsExactly("web_check", "foo");
        assertThat(pub.upThresh()).isEqualTo(0.01);
        assertThat(pub.upWeight()).isEqualTo(1); // ceil(77 * 0.01) = ceil(0.77)

        WeightedFamily cdn = c.resources().get("cdnwww").v4();
        assertThat(cdn.mode()).isEqualTo("grouped-single");
        assertThat(cdn.upWeight()).isEqualTo(5); // ceil(9 * 0.5) = ceil(4.5)

        WeightedResource mixed = c.resources().get("mixed");
        assertThat(mixed.v4().mode()).isEqualTo("ungrouped-single");
        assertThat(mixed.v4().stanza()).isEqualTo("addrs_v4");
        assertThat(mixed.v6().mode()).isEqualTo("grouped-multi"); // addrs_v6 overrides the resource's multi
        assertThat(mixed.v6().groups().get(1).items().get(1).target()).isEqualTo("2001:db8::abc");

        assertThat(c.resources().get("cn").cnames().serviceTypes()).containsExactly("my_cn_check");
    }

    @Test
    void checkUseFollowsMapRes() {
        WeightedConfig c = Synopsis.synopsis();
        assertThat(c.checkUse("pubwww", "example.com.", true)).isNull();
        assertThat(c.checkUse("cn", "example.com.", false)).isNull();
        assertThat(c.checkUse("cn", "example.com.", true))
                .isEqualTo("plugin_weighted: Resource 'cn' used in a DYNA RR, but has CNAME data");
        assertThat(c.checkUse("cn", "example.org.", false))
                .isEqualTo("plugin_weighted: Resource 'cn' CNAME value 'lb01.example.org.' cannot be used within zone 'example.org.'");
        assertThat(c.checkUse("nope", "example.com.", true)).isEqualTo("plugin_weighted: unknown resource 'nope'");
    }

    @Test
    void inheritanceTopToResourceToFamily() {
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("""
                plugins => { weighted => {
                  multi => true
                  up_thresh => 0.9
                  service_types => [ foo ]
                  r => {
                    up_thresh => 0.3
                    addrs_v4 => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 20 ] }
                    addrs_v6 => { multi => false, service_types => [], a => [ ::1, 3 ] }
                  }
                } }
                """, Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).isEmpty();
        WeightedResource r = c.resources().get("r");
        assertThat(r.v4().multi()).isTrue();
        assertThat(r.v4().upThresh()).isEqualTo(0.3);
        assertThat(r.v4().upWeight()).isEqualTo(9); // ceil(30 * 0.3) = ceil(8.999..) in doubles
        assertThat(r.v4().serviceTypes()).containsExactly("foo");
        assertThat(r.v6().multi()).isFalse();
        assertThat(r.v6().serviceTypes()).isEmpty();
        assertThat(r.v6().upThresh()).isEqualTo(0.3);
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("r => [ 1, 2 ]", "[ 1", "plugin_weighted: the value of resource 'r' must be a hash"),
                Arguments.of("r => { cnames => { a => [ x.example., 1 ] } }", "cnames",
                        "plugin_weighted: resource 'r': the pointless singleton 'cnames' substanza is no longer supported"),
                Arguments.of("r => { multi => true }", "r", "plugin_weighted: resource 'r' (direct) contains no weighted items"),
                Arguments.of("r => { a => [ 192.0.2.1, 0 ] }", "[ 192.0.2.1, 0",
                        "plugin_weighted: resource 'r' (direct): item 'a': values in addrs mode must be arrays of [ IPADDR, WEIGHT ], where weight must be an integer in the range 1 - 1048575"),
                Arguments.of("r => { a => [ 192.0.2.1, 1048576 ] }", "[ 192.0.2.1, 1048576",
                        "item 'a': values in addrs mode must be arrays of [ IPADDR, WEIGHT ]"),
                Arguments.of("r => { a => [ 192.0.2.1, 1048575 ], b => [ 192.0.2.2 ] }", "[ 192.0.2.2 ]",
                        "plugin_weighted: resource 'r' (direct): item 'b': values in addrs mode must be arrays"),
                Arguments.of("r => { a => [ 192.0.2.1, 1 ], b => [ 2001:db8::1, 1 ] }", "2001:db8::1",
                        "plugin_weighted: resource 'r' (direct): item 'b': '2001:db8::1' is IPv6, was expecting IPv4"),
                Arguments.of("r => { a => [ ::1, 1 ], b => [ 192.0.2.1, 1 ] }", "192.0.2.1",
                        "plugin_weighted: resource 'r' (direct): item 'b': '192.0.2.1' is IPv4, was expecting IPv6"),
                Arguments.of("r => { a => [ 192.0.2.1, 1 ], b => [ host.example., 1 ] }", "host.example.",
                        "plugin_weighted: resource 'r' (direct): item 'b': parsing 'host.example.' as an IP address failed"),
                Arguments.of("r => { a => [ x.example., 1 ], b => [ 192.0.2.1, 1 ] }", "192.0.2.1",
                        "plugin_weighted: resource 'r' (direct), item 'b': '192.0.2.1' must be fully qualified (end in dot)"),
                Arguments.of("r => { a => [ x.example, 1 ] }", "x.example",
                        "plugin_weighted: resource 'r' (direct), item 'a': 'x.example' must be fully qualified (end in dot)"),
                Arguments.of("r => { a => [ x..example., 1 ] }", "x..example.",
                        "plugin_weighted: resource 'r' (direct), item 'a': 'x..example.' is not a legal domainname"),
                Arguments.of("r => { a => [ x.example., 2000000 ] }", "[ x.example., 2000000",
                        "plugin_weighted: resource 'r' (direct), item 'a': values in cname mode must be arrays of [ CNAME, WEIGHT ]"),
                Arguments.of("r => { a => 5 }", "5",
                        "plugin_weighted: resource 'r' (direct): item 'a': resource type not detectable"),
                Arguments.of("r => { a => [ ] }", "[ ]",
                        "plugin_weighted: resource 'r' (direct): item 'a': first element of array should be an IP address or CNAME string"),
                Arguments.of("r => { g => { } }", "{ }",
                        "plugin_weighted: resource 'r' (direct): group 'g': contains no addresses"),
                Arguments.of("r => { g => { x => 1 } }", "1 }",
                        "plugin_weighted: resource 'r' (direct): group 'g': item 'x': value must be an array of [ IP, weight ]"),
                Arguments.of("r => { g => { x => [ nothost, 1 ] } }", "nothost",
                        "plugin_weighted: resource 'r' (direct): group 'g': item 'x': could not parse 'nothost' as an IP address"),
                Arguments.of("r => { g => { x => [ 192.0.2.1, 1 ] }, h => [ 192.0.2.2, 1 ] }", "[ 192.0.2.2",
                        "plugin_weighted: resource 'r' (direct), group 'h': groups values must be a hashes"),
                Arguments.of("r => { g => { x => [ 192.0.2.1, 1 ] }, h => { } }", "{ } }",
                        "plugin_weighted: resource 'r' (direct), group 'h': must contain one or more label => [ IPADDR, WEIGHT ] settings"),
                Arguments.of("r => { g => { x => [ 192.0.2.1, 1 ], y => [ 192.0.2.2, -1 ] } }", "[ 192.0.2.2, -1",
                        "plugin_weighted: resource 'r' (direct), group 'g', addr 'y': values in address group mode must be arrays of [ IPADDR, WEIGHT ]"),
                Arguments.of("r => { g => { x => [ 192.0.2.1, 1 ], y => [ ::2, 1 ] } }", "::2",
                        "plugin_weighted: resource 'r' (direct), group 'g', addr 'y': '::2' is IPv6, was expecting IPv4"),
                Arguments.of("r => { a => [ 192.0.2.1, 1 ], h => { x => [ 192.0.2.2, 1 ] } }", "{ x => [ 192.0.2.2",
                        "plugin_weighted: resource 'r' (direct): item 'h': values in addrs mode must be arrays"),
                Arguments.of("r => { addrs_v4 => [ 1 ] }", "[ 1 ]", "plugin_weighted: resource 'r' stanza 'addrs_v4' value must be a hash"),
                Arguments.of("r => { addrs_v4 => { multi => true } }", "{ multi",
                        "plugin_weighted: resource 'r' (addrs_v4): empty address-family sets not allowed"),
                Arguments.of("r => { addrs_v6 => { a => [ 192.0.2.1, 1 ] } }", "192.0.2.1",
                        "plugin_weighted: resource 'r' (addrs_v6): item 'a': '192.0.2.1' is IPv4, was expecting IPv6"),
                Arguments.of("r => { addrs_v4 => { a => [ 192.0.2.1, 1 ] }, b => [ 192.0.2.2, 1 ] }", "b =>",
                        "plugin_weighted: resource 'r' seems to have explicit 'addrs_v4', 'addrs_v6', or 'cnames' configuration mixed with direct item config (e.g. 'b'), which is not allowed"),
                Arguments.of("r => { addrs_v4 => { a => 5 } }", "5 }",
                        "plugin_weighted: resource 'r' (addrs_v4): item data must be hash (grouped mode) or array (ungrouped mode)"),
                Arguments.of("r => { multi => maybe, a => [ 192.0.2.1, 1 ] }", "maybe",
                        "plugin_weighted: resource 'r' (direct): 'multi' must be a boolean value ('true' or 'false')"),
                Arguments.of("r => { up_thresh => 0, a => [ 192.0.2.1, 1 ] }", "0,",
                        "plugin_weighted: resource 'r' (direct): 'up_thresh' must be a floating point value in the range (0.0 - 1.0]"),
                Arguments.of("r => { up_thresh => 1.5, a => [ 192.0.2.1, 1 ] }", "1.5", "'up_thresh' must be a floating point value"),
                Arguments.of("r => { up_thresh => x.example., a => [ x.example., 1 ] }", "x.example., a",
                        "plugin_weighted: resource 'r' (direct): 'up_thresh' must be a floating point value"),
                Arguments.of("r => { service_types => [ [ up ] ], a => [ 192.0.2.1, 1 ] }", "[ up ]",
                        "plugin_weighted: resource 'r' (direct): service_types values must be strings"),
                Arguments.of("r => { service_types => nope, a => [ 192.0.2.1, 1 ] }", "192.0.2.1",
                        "Invalid service type 'nope' in monitoring request for '192.0.2.1'"),
                Arguments.of("r => { service_types => web_check, a => [ x.example., 1 ] }", "x.example.",
                        "Service type 'web_check' does not support CNAME monitoring for 'x.example.'"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("errors")
    void everyGdnsdErrorHasItsMessageAndPosition(String resource, String anchor, String message) {
        String lineCol = "3:" + (resource.indexOf(anchor) + 1);
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("plugins => {\nweighted => {\n" + resource + "\n} }\n", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).isNotEmpty();
        ConfigProblem first = p.list().get(0);
        assertThat(first.message()).contains(message);
        assertThat(first.line() + ":" + first.column()).isEqualTo(lineCol);
        assertThat(first.toString()).startsWith("test.conf:" + lineCol + ": ");
        assertThat(c.hasResource("r")).isFalse();
    }

    @Test
    void limitsOf64PerLevel() {
        StringBuilder ok = new StringBuilder("r => {\n");
        StringBuilder tooMany = new StringBuilder("r => {\n");
        StringBuilder group = new StringBuilder("g => { g1 => {\n");
        for (int i = 0; i < 65; i++) {
            String line = "  a" + i + " => [ 10.0." + (i / 256) + "." + (i % 256) + ", 1048575 ]\n";
            if (i < 64) {
                ok.append(line);
            }
            tooMany.append(line);
            group.append(line);
        }
        ok.append("}\n");
        tooMany.append("}\n");
        group.append("} }\n");
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("plugins => { weighted => {\n" + ok + "} }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).isEmpty();
        assertThat(c.resources().get("r").v4().weight()).isEqualTo(64L * 1048575);

        p = new ConfigProblems();
        Synopsis.bind("plugins => { weighted => {\n" + tooMany + "} }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).extracting(ConfigProblem::message).containsExactly(
                "plugin_weighted: resource 'r' (direct): number of direct groups or addrs within one family cannot be more than 64");
        assertThat(p.list().get(0).line()).isEqualTo(67); // at the 65th item

        p = new ConfigProblems();
        Synopsis.bind("plugins => { weighted => {\n" + group + "} }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).extracting(ConfigProblem::message).containsExactly(
                "plugin_weighted: resource 'g' (direct), group 'g1': too many addresses (max 64)");

        StringBuilder cn = new StringBuilder("c => {\n");
        for (int i = 0; i < 65; i++) {
            cn.append("  c").append(i).append(" => [ h").append(i).append(".example., 1 ]\n");
        }
        p = new ConfigProblems();
        Synopsis.bind("plugins => { weighted => {\n" + cn + "} } }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).extracting(ConfigProblem::message).containsExactly(
                "plugin_weighted: resource 'c' (direct): number of cnames cannot be more than 64");
    }

    @Test
    void everyErrorIsListedInOneRun() {
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("""
                plugins => { weighted => {
                  bad1 => { a => [ 192.0.2.1, 0 ] }
                  good => { a => [ 192.0.2.1, 1 ] }
                  bad2 => { a => [ x.example, 1 ] }
                } }
                """, Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).hasSize(2);
        assertThat(c.resources().keySet()).containsExactly("good");
    }

    @Test
    void numbersAreReadAsGdnsdsVscfReadsThem() {
        // strtol(s, &end, 0): hex and octal weights; strtod for up_thresh, nothing after the number
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = Synopsis.bind("plugins => { weighted => { r => { up_thresh => 5e-1, a => [ 192.0.2.1, 0x10 ], b => [ 192.0.2.2, 010 ] } } }",
                Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).isEmpty();
        assertThat(c.resources().get("r").v4().groups()).extracting(g -> g.items().get(0).weight()).containsExactly(16, 8);
        assertThat(c.resources().get("r").v4().upWeight()).isEqualTo(12);
        p = new ConfigProblems();
        Synopsis.bind("plugins => { weighted => { r => { up_thresh => 0.5f, a => [ 192.0.2.1, 1 ] } } }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).extracting(ConfigProblem::message).containsExactly(
                "plugin_weighted: resource 'r' (direct): 'up_thresh' must be a floating point value in the range (0.0 - 1.0]");
        p = new ConfigProblems();
        Synopsis.bind("plugins => { weighted => { r => { a => [ 192.0.2.1, 09 ] } } }", Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).hasSize(1); // 09 is not octal
    }

    @Test
    void addressesAreCanonical() {
        assertThat(WeightedConfig.addressText(WeightedConfig.parseAddress("2001:DB8:0:0:0:0:0:ABC"))).isEqualTo("2001:db8::abc");
        assertThat(WeightedConfig.addressText(WeightedConfig.parseAddress("::1"))).isEqualTo("::1");
        assertThat(WeightedConfig.addressText(WeightedConfig.parseAddress("2001:db8:0:1:0:0:1:1"))).isEqualTo("2001:db8:0:1::1:1");
        assertThat(WeightedConfig.addressText(WeightedConfig.parseAddress("::ffff:192.0.2.1"))).isEqualTo("::ffff:192.0.2.1");
        assertThat(WeightedConfig.parseAddress("192.0.2.256")).isNull();
        assertThat(WeightedConfig.parseAddress("lb01.example.org.")).isNull();
        assertThat(WeightedConfig.parseAddress("2001:db8::1::2")).isNull();
    }

    @Test
    void serviceTypesBindWithGdnsdDefaultsAndErrors() {
        ConfigProblems p = new ConfigProblems();
        var types = Synopsis.serviceTypes(Synopsis.SERVICE_TYPES, p);
        assertThat(p.list()).isEmpty();
        ServiceTypeConfig web = types.get("web_check");
        assertThat(web.interval()).isEqualTo(10);
        assertThat(web.timeout()).isEqualTo(5);
        assertThat(web.upThresh()).isEqualTo(20);
        assertThat(web.okThresh()).isEqualTo(10);
        assertThat(web.downThresh()).isEqualTo(10);
        assertThat(web.params()).containsEntry("ok_codes", "200").containsEntry("url_path", "/health").containsEntry("port", "80");
        assertThat(types).containsKeys("up", "down", "foo", "my_cn_check");

        record Case(String body, String message) {
        }
        List<Case> cases = List.of(
                new Case("up => { plugin => null }", "Explicit service type name 'up' not allowed"),
                new Case("t => 5", "Definition of service type 't' must be a hash"),
                new Case("t => { port => 80 }", "Service type 't': 'plugin' must be defined"),
                new Case("t => { plugin => [ ] }", "Service type 't': 'plugin' must be a string"),
                new Case("t => { plugin => extmon }", "Service type 't' references plugin 'extmon', which does not support service monitoring"),
                new Case("t => { plugin => null, interval => 1 }", "Service type 't': option 'interval': Value out of range (2, 3600)"),
                new Case("t => { plugin => null, up_thresh => x }", "Service type 't': option 'up_thresh': Value must be a positive integer"),
                new Case("t => { plugin => null, interval => 4, timeout => 4 }", "Service type 't': timeout must be less than interval"),
                new Case("t => { plugin => null, intervall => 4 }", "Service type 't', bad option 'intervall'; did you mean 'interval'?"),
                new Case("t => { plugin => tcp_connect }", "plugin_tcp_connect: service type 't' must have a 'port' parameter"),
                new Case("t => { plugin => tcp_connect, port => 65535 }", "plugin_tcp_connect: Service type 't': option 'port': Value out of range (1, 65534)"),
                new Case("t => { plugin => http_status, ok_codes => [ ] }", "plugin_http_status: service type 't': ok_codes array cannot be empty"),
                new Case("t => { plugin => http_status, ok_codes => [ 200, 99 ] }", "plugin_http_status: service type 't': illegal ok_codes value '99'"),
                new Case("t => { plugin => http_status, url_path => [ a ] }", "plugin_http_status: Service type 't': option url_path: Wrong type (should be string)"),
                new Case("t => { plugin => static, state => sideways }", "plugin_static: service type 't': the value of 'state' must be 'up' or 'down', not 'sideways'"),
                new Case("t => { plugin => static, ttl => 268435456 }", "plugin_static: service type 't': the value of 'ttl' must be <= 268435455"));
        for (Case c : cases) {
            ConfigProblems cp = new ConfigProblems();
            var bound = Synopsis.serviceTypes("service_types => {\n" + c.body() + "\n}", cp);
            assertThat(cp.list()).as(c.body()).isNotEmpty();
            assertThat(cp.list().get(0).message()).as(c.body()).contains(c.message());
            assertThat(cp.list().get(0).line()).isEqualTo(2);
            assertThat(bound).containsOnlyKeys("up", "down");
        }
    }
}
