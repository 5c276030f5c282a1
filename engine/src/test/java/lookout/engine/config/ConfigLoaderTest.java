package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.config.PvaConfig.PvaAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Binding of every section of SPEC.md into the configuration records. */
class ConfigLoaderTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    static Path valid(String name) throws URISyntaxException {
        return Path.of(ConfigLoaderTest.class.getResource("/config/valid/" + name).toURI());
    }

    @Test
    void specExampleBindsEverySection() throws Exception {
        Path file = valid("spec-example.conf");
        ConfigResult r = loader.load(file);
        assertThat(r.problems()).isEmpty();
        Config c = r.config();

        ResolverConfig res = c.resolver();
        assertThat(res.listen()).containsExactly(new InetSocketAddress("127.0.0.1", 8053));
        assertThat(res.allow()).extracting(Cidr::toString).containsExactly("127.0.0.0/8", "0:0:0:0:0:0:0:1/128");
        assertThat(res.scopes()).hasSize(2);
        ResolverConfig.Scope corp = res.scopes().get(0);
        assertThat(corp.name()).isEqualTo("corp");
        assertThat(corp.domains()).containsExactly("corp.example.");
        assertThat(corp.servers()).containsExactly(new InetSocketAddress("192.0.2.53", 53),
                new InetSocketAddress("192.0.2.54", 5353));
        assertThat(corp.defaultScope()).isFalse();
        ResolverConfig.Scope lan = res.scopes().get(1);
        assertThat(lan.defaultScope()).isTrue();
        assertThat(lan.domains()).isEmpty();
        assertThat(res.fallbackServers()).containsExactly(new InetSocketAddress("203.0.113.1", 53));
        assertThat(res.search()).containsExactly("corp.example.");
        assertThat(res.cacheSize()).isEqualTo(100000);

        ZoneConfig zone = c.zones().get("example.com.");
        assertThat(zone.sourceName()).isEqualTo(file.getParent().resolve("zones/example.com").toString());
        assertThat(zone.text()).startsWith("$TTL 300\n");
        assertThat(zone.line()).isEqualTo(1);

        PvaConfig pva = c.pva();
        assertThat(pva.addrList()).containsExactly(new PvaAddress("127.0.0.1", 0));
        assertThat(pva.autoAddrList()).isFalse();
        assertThat(pva.broadcastPort()).isEqualTo(5076);
        assertThat(pva.serverPort()).isEqualTo(5075);
        assertThat(pva.nameServers()).isEmpty();
        assertThat(pva.server()).isEqualTo(new PvaConfig.PvaServerConfig(true, true));
        assertThat(pva.watch()).containsExactly("ring:demo:1", "ring:demo:2");
        assertThat(pva.discoveryAtStart()).isFalse();

        assertThat(c.status().listen()).isEqualTo(new InetSocketAddress("127.0.0.1", 9153));
        assertThat(c.stateDir()).isEqualTo(file.getParent().resolve("state"));
        assertThat(c.source().name()).isEqualTo(file.toString());
        assertThat(c.source().sha256()).hasSize(64);
    }

    @Test
    void seed001SynopsisStanzaParsesUnchanged() throws Exception {
        Path file = valid("seed001-synopsis.conf");
        String text = Files.readString(file);
        assertThat(text).contains("multi = false # default").contains("up_thresh => 0.01,")
                .contains("www6set1 = {");
        ConfigResult r = loader.load(file);
        assertThat(r.problems()).isEmpty();
        assertThat(r.ok()).isTrue();
    }

    @Test
    void absentSectionsTakeTheirDefaults() {
        ConfigResult r = loader.parse("", "empty.conf", Path.of("/srv/lookout"));
        assertThat(r.problems()).isEmpty();
        Config c = r.config();
        assertThat(c.resolver().listen()).containsExactly(new InetSocketAddress("127.0.0.1", 8053));
        assertThat(c.resolver().allow()).extracting(Cidr::toString).containsExactly("127.0.0.0/8", "0:0:0:0:0:0:0:1/128");
        assertThat(c.resolver().cacheSize()).isEqualTo(10_000);
        assertThat(c.zones()).isEmpty();
        assertThat(c.pva().broadcastPort()).isEqualTo(5076);
        assertThat(c.pva().serverPort()).isEqualTo(5075);
        assertThat(c.pva().autoAddrList()).isTrue();
        assertThat(c.pva().server()).isEqualTo(new PvaConfig.PvaServerConfig(false, false));
        assertThat(c.status().listen()).isNull();
        assertThat(c.stateDir()).isEqualTo(Path.of("/srv/lookout/state"));
    }

    @Test
    void addressFormsOfServersAndListen() {
        ConfigResult r = loader.parse("""
                resolver => {
                  listen => [ 127.0.0.1, "[::1]:5300", ::1 ]
                  fallback_servers => [ 192.0.2.1:5353, "[2001:db8::1]:54", 2001:db8::2 ]
                }
                status => { listen => 9153 }
                """, "a.conf", null);
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().resolver().listen()).containsExactly(new InetSocketAddress("127.0.0.1", 53),
                new InetSocketAddress("::1", 5300), new InetSocketAddress("::1", 53));
        assertThat(r.config().resolver().fallbackServers()).containsExactly(new InetSocketAddress("192.0.2.1", 5353),
                new InetSocketAddress("2001:db8::1", 54), new InetSocketAddress("2001:db8::2", 53));
        assertThat(r.config().status().listen()).isEqualTo(new InetSocketAddress("127.0.0.1", 9153));
    }

    @Test
    void inlineZoneKeepsItsLineInTheConfigFile() {
        ConfigResult r = loader.parse("# zones\nzones => {\n  Demo.Test => { text => \"$TTL 60\n@ SOA ns1 admin 1 3600 600 86400 60\n@ NS ns1\n\" }\n}\n",
                "z.conf", null);
        assertThat(r.problems()).isEmpty();
        ZoneConfig z = r.config().zones().get("demo.test.");
        // relative $INCLUDE names in inline text point from the configuration's directory (here the working one)
        assertThat(z).isEqualTo(new ZoneConfig("demo.test.", "z.conf", "$TTL 60\n@ SOA ns1 admin 1 3600 600 86400 60\n@ NS ns1\n", 3,
                Path.of("").toAbsolutePath().normalize().toString(), Map.of()));
    }

    @Test
    void zoneFileByHashFormRelativeToTheConfigFile(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("zones"));
        Files.writeString(dir.resolve("zones/a.zone"), "$TTL 60\n@ SOA ns1.a.example. admin.a.example. 1 3600 600 86400 60\n@ NS ns1.a.example.\nns1 A 192.0.2.1\n");
        Files.writeString(dir.resolve("main.conf"), "zones => { a.example => { file => zones/a.zone } }\n");
        ConfigResult r = loader.load(dir.resolve("main.conf"));
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().zones().get("a.example.").text()).isEqualTo("$TTL 60\n@ SOA ns1.a.example. admin.a.example. 1 3600 600 86400 60\n@ NS ns1.a.example.\nns1 A 192.0.2.1\n");
    }

    @Test
    void anUnreadableFileIsOneProblemAtLineOneColumnOne(@TempDir Path dir) {
        Path missing = dir.resolve("nope.conf");
        ConfigResult r = loader.load(missing);
        assertThat(r.problems()).singleElement().hasToString(missing + ":1:1: cannot read the configuration file: no such file");
    }

    @Test
    void aFileThatIsNotUtf8IsRejected(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("latin1.conf");
        Files.write(f, new byte[] {'a', ' ', '=', '>', ' ', (byte) 0xE9, '\n'});
        assertThat(loader.load(f).problems()).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("not valid UTF-8"));
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstKey(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bom.conf");
        Files.write(f, "\uFEFFresolver => { cache_size => 7 }\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ConfigResult r = loader.load(f);
        assertThat(r.problems()).isEmpty();
        assertThat(r.config().resolver().cacheSize()).isEqualTo(7);
    }

    @Test
    void stateDirExpandsHome() {
        // ~ is the HOME of the environment the loader was given, whatever this JVM's user.home says
        ConfigLoader withHome = new ConfigLoader(Map.of("HOME", "/home/operator"));
        ConfigResult r = withHome.parse("state_dir => ~/lookout-state\n", "s.conf", Path.of("/etc/lookout"));
        assertThat(r.config().stateDir()).isEqualTo(Path.of("/home/operator/lookout-state"));
        ConfigResult abs = loader.parse("state_dir => /var/lib/lookout\n", "s.conf", Path.of("/etc/lookout"));
        assertThat(abs.config().stateDir()).isEqualTo(Path.of("/var/lib/lookout"));
    }

    @Test
    void everyErrorOfAFileIsListedInOneRun() {
        ConfigResult r = loader.parse("resolvr => { }\npva => { watch => [ \"\" ], broadcast_port => x }\n"
                + "status => { listen => nowhere }\n", "m.conf", null);
        assertThat(r.problems()).extracting(ConfigProblem::path)
                .containsExactly("resolvr", "pva.watch", "pva.broadcast_port", "status.listen");
    }
}
