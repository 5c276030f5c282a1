package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigProblem;
import lookout.engine.config.ConfigResult;
import lookout.engine.dns.answer.Answer;
import lookout.engine.dns.answer.LocalZones;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.zone.Zone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 1035 §5.1 {@code $INCLUDE file [origin]} in local zones: read by the loader, parsed where
 * it stands, under its origin; the parent's origin, {@code $TTL} and owner come back afterwards;
 * relative names are relative to the including file's directory; every problem names the file
 * it is in; cycles and unreadable files are problems, not hangs or crashes.
 */
class ZoneIncludeTest {

    @TempDir
    Path tmp;

    static final String APEX = """
            $TTL 300
            @    SOA ns1 hostmaster 1 7200 1800 604800 300
                 NS  ns1
            ns1  A   192.0.2.53
            """;

    private void write(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private ConfigResult load(String zones) throws Exception {
        write("lookout.conf", "zones => {\n" + zones + "\n}\n");
        return new ConfigLoader(Map.of()).load(tmp.resolve("lookout.conf"));
    }

    private static Rr only(LocalZones zones, String name) {
        Zone z = zones.find(name);
        assertThat(z).as(name).isNotNull();
        Answer a = zones.answer(z, name, RrType.A, RrType.IN, null);
        assertThat(a.rcode).as(name).isEqualTo(RrType.NOERROR);
        assertThat(a.answer()).as(name).hasSize(1);
        return a.answer().get(0);
    }

    private static String ip(Rr r) {
        byte[] b = r.rdata();
        return (b[0] & 0xFF) + "." + (b[1] & 0xFF) + "." + (b[2] & 0xFF) + "." + (b[3] & 0xFF);
    }

    @Test
    void includedRecordsAreReadUnderTheirOriginAndTheParentsStateComesBack() throws Exception {
        write("zones/example.com", APEX + """
                $INCLUDE hosts.inc
                after  A 192.0.2.9
                $INCLUDE "sub/lab.inc" lab ; the lab's own origin
                       A 192.0.2.11
                last   A 192.0.2.10
                """);
        write("zones/hosts.inc", """
                $TTL 60
                www A 192.0.2.1
                $ORIGIN other.example.com.
                x   A 192.0.2.2
                """);
        write("zones/sub/lab.inc", """
                @   A 192.0.2.3
                h1  A 192.0.2.4
                $include deeper.inc
                """);
        write("zones/sub/deeper.inc", "h2 A 192.0.2.5\n");
        ConfigResult r = load("example.com => zones/example.com");
        assertThat(r.problems()).isEmpty();
        LocalZones zones = new LocalZones(r.config().zones());

        assertThat(only(zones, "www.example.com.").ttl()).isEqualTo(60);
        assertThat(ip(only(zones, "x.other.example.com."))).isEqualTo("192.0.2.2");
        // back in the parent: its origin and its $TTL, not the included file's
        Zone z = zones.find("after.example.com.");
        assertThat(z.node("after.example.com.").rrset(RrType.A)).allSatisfy(rr -> assertThat(rr.ttl()).isEqualTo(300));
        assertThat(ip(only(zones, "lab.example.com."))).isEqualTo("192.0.2.3");
        assertThat(ip(only(zones, "h1.lab.example.com."))).isEqualTo("192.0.2.4");
        // nested, relative to sub/, under the origin its includer was read with
        assertThat(ip(only(zones, "h2.lab.example.com."))).isEqualTo("192.0.2.5");
        // a blank owner after the include is the parent's last owner, not the included file's
        assertThat(z.node("after.example.com.").rrset(RrType.A)).extracting(ZoneIncludeTest::ip)
                .containsExactlyInAnyOrder("192.0.2.9", "192.0.2.11");
        assertThat(only(zones, "last.example.com.").ttl()).isEqualTo(300);
        assertThat(z.node("h1.example.com.")).isNull();
    }

    @Test
    void problemsNameTheFileTheyAreIn() throws Exception {
        write("zones/example.com", APEX + """
                $INCLUDE missing.inc
                $INCLUDE bad.inc
                $INCLUDE loop-a.inc
                $INCLUDE ok.inc outside.org.
                $INCLUDE
                """);
        write("zones/bad.inc", "; a bad address\nwww A 192.0.2.300\n");
        write("zones/loop-a.inc", "a A 192.0.2.1\n$INCLUDE loop-b.inc\n");
        write("zones/loop-b.inc", "$INCLUDE loop-a.inc\n");
        write("zones/ok.inc", "a A 192.0.2.1\n");
        // a zone that is fine but for a DYNA in its included file naming no resource
        write("zones/example.net", APEX + "$INCLUDE dyn.inc\n");
        write("zones/dyn.inc", "pool DYNA weighted!nosuch\n");
        ConfigResult r = load("example.com => zones/example.com\nexample.net => zones/example.net");
        Path zones = tmp.resolve("zones").toAbsolutePath();
        String zone = zones.resolve("example.com").toString();
        assertThat(r.problems()).extracting(ConfigProblem::toString).containsExactlyInAnyOrder(
                zone + ":5:10: cannot read the included file '" + zones.resolve("missing.inc") + "': no such file",
                zones.resolve("bad.inc") + ":2:7: '192.0.2.300' is not an IPv4 address",
                zones.resolve("loop-b.inc") + ":1:10: '" + zones.resolve("loop-a.inc") + "' includes itself ("
                        + zone + " → " + zones.resolve("loop-a.inc") + " → " + zones.resolve("loop-b.inc") + " → "
                        + zones.resolve("loop-a.inc") + ")",
                zone + ":8:17: origin outside.org. is outside the zone example.com.",
                zone + ":9:1: $INCLUDE takes a file name and an optional origin",
                zones.resolve("dyn.inc") + ":1:11: DYNA at pool.example.net.: plugin_weighted: unknown resource 'nosuch'");
    }

    @Test
    void anEditedIncludedFileChangesTheZoneAndInlineZonesIncludeFromTheConfigurationsDirectory() throws Exception {
        write("zones/example.com", APEX + "$INCLUDE hosts.inc\n");
        write("zones/hosts.inc", "www A 192.0.2.1\n");
        write("inline.inc", "www A 198.51.100.1\n");
        String sections = "example.com => zones/example.com\nexample.org => { text => \"\n"
                + APEX + "$INCLUDE inline.inc\n\" }";
        Config before = load(sections).config();
        assertThat(before).isNotNull();
        assertThat(ip(only(new LocalZones(before.zones()), "www.example.org."))).isEqualTo("198.51.100.1");

        write("zones/hosts.inc", "www A 192.0.2.2\n");
        Config after = load(sections).config();
        // the zone's own file did not change, its included one did: the zone differs (a reload applies it)
        assertThat(after.zones().get("example.com.")).isNotEqualTo(before.zones().get("example.com."));
        assertThat(after.zones().get("example.org.")).isEqualTo(before.zones().get("example.org."));
        assertThat(ip(only(new LocalZones(after.zones()), "www.example.com."))).isEqualTo("192.0.2.2");
        assertThat(ip(only(new LocalZones(before.zones()), "www.example.com."))).isEqualTo("192.0.2.1");
    }
}
