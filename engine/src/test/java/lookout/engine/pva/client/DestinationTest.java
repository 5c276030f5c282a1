package lookout.engine.pva.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.PvaConfig;
import org.junit.jupiter.api.Test;

class DestinationTest {

    static InetAddress ip(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    static InetAddress literalOnly(String host) {
        return Character.isDigit(host.charAt(0)) ? ip(host) : null;
    }

    @Test
    void unicastFlagOnlyForGenuineUnicast() {
        List<InetAddress> local = List.of(ip("10.1.255.255"));
        PvaConfig cfg = new PvaConfig(List.of(
                new PvaConfig.PvaAddress("127.0.0.1", 0),
                new PvaConfig.PvaAddress("10.1.2.3", 5099),
                new PvaConfig.PvaAddress("10.1.255.255", 0),
                new PvaConfig.PvaAddress("224.0.0.128", 0),
                new PvaConfig.PvaAddress("255.255.255.255", 0),
                new PvaConfig.PvaAddress("127.0.0.1", 0),
                new PvaConfig.PvaAddress("no.such.host", 0)),
                true, List.of(), 5076, 5075, List.of(), false, List.of(),
                new PvaConfig.PvaServerConfig(false, false), List.of(), false, List.of());
        List<String> problems = new ArrayList<>();
        List<Destination> d = Destination.of(cfg, List.of(ip("10.1.255.255"), ip("192.168.7.255")),
                DestinationTest::literalOnly, problems);
        assertThat(d).containsExactly(
                new Destination(new InetSocketAddress(ip("127.0.0.1"), 5076), true),
                new Destination(new InetSocketAddress(ip("10.1.2.3"), 5099), true),
                new Destination(new InetSocketAddress(ip("10.1.255.255"), 5076), false),
                new Destination(new InetSocketAddress(ip("224.0.0.128"), 5076), false),
                new Destination(new InetSocketAddress(ip("255.255.255.255"), 5076), false),
                // auto_addr_list: the other interface's broadcast address, once
                new Destination(new InetSocketAddress(ip("192.168.7.255"), 5076), false));
        assertThat(problems).singleElement().asString().contains("no.such.host");
        assertThat(Destination.isUnicast(ip("10.1.255.255"), java.util.Set.copyOf(local))).isFalse();
        assertThat(d.get(0).toString()).isEqualTo("127.0.0.1:5076 (unicast)");
    }
}
