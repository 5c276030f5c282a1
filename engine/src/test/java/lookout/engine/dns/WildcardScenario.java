package lookout.engine.dns;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lookout.engine.api.EngineOptions;
import lookout.engine.config.ResolverConfig;
import lookout.engine.config.ZoneConfig;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;

/**
 * Run by {@link WildcardNetnsTest} inside a private network namespace whose loopback also holds
 * 10.9.0.1/24 and fd00:9::1/64: the resolver listens on the wildcard address ({@code [::]} or
 * {@code 0.0.0.0}, port 0) and a client on 127.0.0.1 (or ::1) asks the other address. Every answer
 * must come from the address asked — a question answered on the reader thread (a local zone), one
 * handed to the engine loop and answered in the same task ({@code localhost.}), and one forwarded
 * upstream and answered later — not from the address the kernel would route by (127.0.0.1). Prints
 * {@code PASS}/{@code FAIL} lines; {@code netty} is the control: read through Netty, the answers
 * leave from 127.0.0.1 (so the check can fail).
 *
 * <pre>WildcardScenario v4|v6|mapped|netty</pre>
 */
public final class WildcardScenario {

    private WildcardScenario() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        boolean v6 = mode.equals("v6");
        EngineOptions.UdpReads reads = mode.equals("netty") ? EngineOptions.UdpReads.NETTY : EngineOptions.UdpReads.AUTO;
        // mapped: an IPv4 client of a dual-stack [::] socket (IP_PKTINFO on an IPv6 socket)
        InetAddress any = InetAddress.getByName(v6 || mode.equals("mapped") ? "::" : "0.0.0.0");
        InetAddress asked = InetAddress.getByName(v6 ? "fd00:9::1" : "10.9.0.1");
        InetAddress client = InetAddress.getByName(v6 ? "::1" : "127.0.0.1");
        Path tmp = Files.createTempDirectory("lookout-wildcard");
        String zone = """
                $TTL 300
                @   IN SOA ns1.wild.test. hostmaster.wild.test. 1 3600 600 86400 60
                    IN NS  ns1
                ns1    A   192.0.2.1
                www    A   192.0.2.80
                """;
        try (FakeUpstream upstream = new FakeUpstream((q, t) -> FakeUpstream.a(q, 9))) {
            ResolverConfig rc = new ResolverConfig(List.of(new InetSocketAddress(any, 0)), ResolverHarness.loopbackOnly(),
                    List.of(new ResolverConfig.Scope("up", List.of(), List.of(upstream.address), true)),
                    List.of(), List.of(), 1000);
            try (ResolverHarness h = new ResolverHarness(tmp, 1, rc,
                    Map.of("wild.test.", new ZoneConfig("wild.test.", "wild.test.zone", zone, 1)), reads);
                 DatagramSocket c = new DatagramSocket(new InetSocketAddress(client, 0))) {
                c.setSoTimeout(5000); // a bound on a lost answer; answers come in milliseconds
                int port = h.listen.getPort();
                double nativeReads = h.engine.snapshot().metrics().stream()
                        .filter(m -> m.name().equals("lookout_resolver_udp_native")).mapToDouble(m -> m.value()).findFirst().orElse(-1);
                System.out.println("listening on " + h.listen + ", read natively: " + (nativeReads == 1));
                String[][] questions = {{"www.wild.test.", "local zone, answered on the reader"},
                        {"localhost.", "handed to the engine loop"}, {"host.example.org.", "forwarded upstream"}};
                int id = 1;
                for (String[] q : questions) {
                    byte[] query = DnsTestClient.query(id, q[0], RrType.A, false, 0);
                    c.send(new DatagramPacket(query, query.length, new InetSocketAddress(asked, port)));
                    DatagramPacket p = new DatagramPacket(new byte[4096], 4096);
                    try {
                        c.receive(p);
                    } catch (SocketTimeoutException e) {
                        System.out.println("FAIL " + q[1] + ": no answer");
                        continue;
                    }
                    Message m = DnsTestClient.decode(java.util.Arrays.copyOf(p.getData(), p.getLength()));
                    boolean fromAsked = p.getAddress().equals(asked);
                    String what = q[1] + " (" + q[0] + " " + RrType.rcodeName(m.rcode()) + ") from " + p.getAddress().getHostAddress();
                    if (mode.equals("netty")) {
                        System.out.println((fromAsked ? "FAIL " : "PASS ") + "control, through Netty: " + what);
                    } else {
                        System.out.println((fromAsked && m.rcode() == RrType.NOERROR && m.id == id ? "PASS " : "FAIL ") + what);
                    }
                    id++;
                }
            }
        }
    }
}
