package lookout.engine.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Addresses as text: RFC 5952 for IPv6, brackets with a port, literals without DNS. */
class HostPortTest {

    @Test
    void addressesWithPortsReadAsOperatorsWriteThem() throws Exception {
        assertThat(HostPort.format(new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 53))).isEqualTo("192.0.2.1:53");
        assertThat(HostPort.format(new InetSocketAddress(InetAddress.getByName("2001:0db8:0:0:0:0:0:1"), 53)))
                .isEqualTo("[2001:db8::1]:53");
        assertThat(HostPort.format(InetSocketAddress.createUnresolved("ns.example", 5075))).isEqualTo("ns.example:5075");
        assertThat(HostPort.format(null)).isNull();
        // RFC 5952 §4.2.2: a single zero field is not shortened; §4.3: lower case
        assertThat(HostPort.address(InetAddress.getByName("2001:DB8:0:1:1:1:1:1"))).isEqualTo("2001:db8:0:1:1:1:1:1");
        assertThat(HostPort.address(InetAddress.getByName("::ffff:192.0.2.9"))).isEqualTo("192.0.2.9");
    }

    @Test
    void literalsAreReadWithoutAskingDns() throws Exception {
        assertThat(HostPort.literal("10.0.0.1")).isEqualTo(InetAddress.getByName("10.0.0.1"));
        assertThat(HostPort.literal("[::1]")).isEqualTo(InetAddress.getByName("::1"));
        assertThat(HostPort.literal(" 2001:db8::5 ")).isEqualTo(InetAddress.getByName("2001:db8::5"));
        assertThat(HostPort.literal("::ffff:10.1.2.3")).isEqualTo(InetAddress.getByName("10.1.2.3"));
        assertThat(HostPort.literal("localhost")).isNull();
        assertThat(HostPort.literal("ioc.example.org")).isNull();
        assertThat(HostPort.literal("256.1.1.1")).isNull();
        assertThat(HostPort.literal("")).isNull();
        assertThat(HostPort.literal(null)).isNull();
    }
}
