package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lookout.engine.api.EngineOptions;
import lookout.engine.config.Cidr;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener on {@code [::]} (dual-stack) sees an IPv4 client by its IPv4 address, so the access
 * list written in IPv4 applies to it; an address outside the list is still refused.
 */
class DualStackListenTest {

    @Test
    void anIpv4ClientOfADualStackListenerIsJudgedByItsIpv4Address(@TempDir Path tmp) throws Exception {
        // read through Netty (a wildcard address is read natively by default where the JVM can)
        judgedByIpv4Address(tmp, false);
    }

    /** The same with the socket read natively: the sender arrives as a mapped {@code sockaddr_in6}. */
    @Test
    void readNativelyAnIpv4ClientIsJudgedByItsIpv4AddressToo(@TempDir Path tmp) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(lookout.engine.net.Transport.nativeDatagramsUnavailable() == null,
                "native datagrams unavailable here");
        judgedByIpv4Address(tmp, true);
    }

    private static void judgedByIpv4Address(Path tmp, boolean readNatively) throws Exception {
        InetAddress any6 = InetAddress.getByName("::");
        ResolverConfig allowLoopback = new ResolverConfig(List.of(new InetSocketAddress(any6, 0)),
                List.of(new Cidr(InetAddress.getByName("127.0.0.0"), 8)), List.of(), List.of(), List.of(), 1000);
        EngineOptions.UdpReads reads = readNatively ? EngineOptions.UdpReads.NATIVE : EngineOptions.UdpReads.NETTY;
        try (ResolverHarness h = new ResolverHarness(tmp, 1, allowLoopback, Map.of(), reads);
             DnsTestClient c = new DnsTestClient(new InetSocketAddress("127.0.0.1", h.listen.getPort()))) {
            Message m = c.ask("localhost.", RrType.A);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(m.answer).hasSize(1);
            assertThat(h.snapshot().denied()).isZero();
            assertThat(h.engine.snapshot().metrics()).filteredOn(x -> x.name().equals("lookout_resolver_udp_native"))
                    .singleElement().satisfies(x -> assertThat(x.value()).isEqualTo(readNatively ? 1 : 0));
        }
        ResolverConfig allowOther = new ResolverConfig(List.of(new InetSocketAddress(any6, 0)),
                List.of(new Cidr(InetAddress.getByName("192.0.2.0"), 24)), List.of(), List.of(), List.of(), 1000);
        try (ResolverHarness h = new ResolverHarness(tmp, 1, allowOther, Map.of(), reads);
             DnsTestClient c = new DnsTestClient(new InetSocketAddress("127.0.0.1", h.listen.getPort()))) {
            assertThat(c.ask("localhost.", RrType.A).rcode()).isEqualTo(RrType.REFUSED);
            assertThat(h.snapshot().denied()).isEqualTo(1);
        }
    }
}
