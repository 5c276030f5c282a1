package lookout.engine.dns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lookout.engine.api.EngineOptions;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.wire.RrType;
import lookout.engine.net.Udp;

/**
 * Run by {@link NativeFallbackTest} in a JVM whose temporary directory is not a directory, so
 * that liblookoutnet.so cannot be unpacked (as on a host whose {@code /tmp} is mounted noexec):
 * says why native reads are unavailable, then runs a resolver with two sockets per address under
 * {@code AUTO} (native where it can) and under {@code NATIVE} (native or nothing). Prints
 * {@code PASS}/{@code FAIL} lines.
 *
 * <pre>NativeFallbackScenario WORK_DIR</pre>
 */
public final class NativeFallbackScenario {

    private NativeFallbackScenario() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        String why = Udp.nativeUnavailable();
        System.out.println("unavailable: " + why);
        ResolverConfig rc = new ResolverConfig(List.of(ResolverHarness.loopback0()), ResolverHarness.loopbackOnly(),
                List.of(), List.of(), List.of(), 1000, 2);
        try (ResolverHarness h = new ResolverHarness(Files.createDirectories(work.resolve("auto")), 1, rc, Map.of(),
                EngineOptions.UdpReads.AUTO);
             DnsTestClient c = new DnsTestClient(h.listen)) {
            double nativeReads = h.engine.snapshot().metrics().stream()
                    .filter(m -> m.name().equals("lookout_resolver_udp_native")).mapToDouble(m -> m.value()).findFirst().orElse(-1);
            System.out.println("read natively: " + (nativeReads == 1));
            c.send(DnsTestClient.query(7, "localhost.", RrType.A, false, 0));
            byte[] r = c.receive(5_000);
            System.out.println(r != null && DnsTestClient.decode(r).rcode() == RrType.NOERROR
                    ? "PASS answered through Netty" : "FAIL no answer through Netty");
        }
        try (ResolverHarness h = new ResolverHarness(Files.createDirectories(work.resolve("native")), 1, rc, Map.of(),
                EngineOptions.UdpReads.NATIVE)) {
            System.out.println("FAIL native reads started on " + h.listen);
        } catch (RuntimeException e) {
            StringBuilder m = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                m.append(t.getMessage()).append(" / ");
            }
            System.out.println((why != null && m.indexOf(why) >= 0 ? "PASS" : "FAIL") + " native reads refused: " + m);
        }
    }
}
