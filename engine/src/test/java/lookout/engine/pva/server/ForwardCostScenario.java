package lookout.engine.pva.server;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.pva.wire.Pva;

/**
 * Not a test: the deterministic run behind bench/results/issue18-forwarding.md. In a private
 * network namespace ({@code unshare -n}, {@code lo} up), a server with a second PVA server on its
 * port (python3, bound to 0.0.0.0 and joined to 224.0.0.128 as core-pva is) gets
 * {@code bursts} × 16 unicast searches of 4 claimed names each, a burst at a time (the next sent
 * when the 16 replies are in, so every run reads the same bursts), while {@code strace -c} counts
 * the responder threads' system calls. It prints {@code TIDS} (the responder threads, for strace),
 * waits for {@code DIR/go}, runs, prints the counters and writes {@code DIR/done}.
 *
 * <pre>
 * unshare -n sh -c 'ip link set lo up &amp;&amp; exec java -cp CP lookout.engine.pva.server.ForwardCostScenario DIR 500 [unfiltered]'
 * </pre>
 * ({@code unfiltered}: own copies not filtered in the kernel, only dropped before decoding).
 */
public final class ForwardCostScenario {

    static final int PORT = 5076;
    static final int BURST = 16;

    private ForwardCostScenario() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int bursts = Integer.parseInt(args[1]);
        String[] names = {"cost:a", "cost:b", "cost:c", "cost:d"};
        FakeResolved r = new FakeResolved();
        for (String n : names) {
            r.resolve(n, NetnsScenarios.GUID_A, new InetSocketAddress("127.0.0.1", 6000));
        }
        Process other = new ProcessBuilder("python3", "-c", String.join("\n",
                "import socket, sys, select",
                "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
                "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
                "s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)",
                "s.bind(('0.0.0.0', " + PORT + "))",
                "s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,"
                        + " socket.inet_aton('224.0.0.128') + socket.inet_aton('127.0.0.1'))",
                "print('READY', flush=True)",
                "n = 0",
                "while True:",
                "    r, _, _ = select.select([s, sys.stdin], [], [], 120)",
                "    if s in r:",
                "        s.recv(65536)",
                "        n += 1",
                "    elif sys.stdin in r or not r:",
                "        break",
                "print('GOT %d' % n, flush=True)")).redirectErrorStream(true).start();
        boolean kernelFilter = args.length < 3 || !"unfiltered".equals(args[2]);
        try (ServerHarness h = new ServerHarness(r, true, kernelFilter).start(ServerHarness.pva(PORT, 0, List.of(), List.of(), true));
             DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream()));
            System.out.println("python " + out.readLine());
            for (int i = 0; i < 40 && !"shared".equals(h.serverSnapshot().portSharing()); i++) {
                h.scheduler.advance(java.time.Duration.ofSeconds(5));
                Thread.sleep(100);
            }
            System.out.println("sharing " + h.serverSnapshot().portSharing() + ", udp threads "
                    + h.serverSnapshot().udpThreads());
            byte[] search = RawPva.bytes(RawPva.search(1, Pva.SEARCH_UNICAST, null, client.getLocalPort(), names));
            InetSocketAddress to = new InetSocketAddress("127.0.0.1", PORT);
            int warm = run(client, search, to, Math.max(50, bursts / 2)); // the JIT, before counting
            System.out.println("warm-up replies " + warm);
            StringBuilder tids = new StringBuilder();
            for (Path t : Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                String comm = Files.readString(t.resolve("comm")).trim();
                if (comm.startsWith("lookout-pva-res")) {
                    tids.append(' ').append(t.getFileName());
                }
            }
            System.out.println("TIDS" + tids);
            System.out.flush();
            for (int i = 0; i < 600 && !Files.exists(dir.resolve("go")); i++) {
                Thread.sleep(100);
            }
            PvaServerSnapshot before = h.serverSnapshot();
            int replies = run(client, search, to, bursts);
            Thread.sleep(500);
            PvaServerSnapshot after = h.serverSnapshot();
            Files.writeString(dir.resolve("done"), "");
            System.out.println("searches sent " + bursts * BURST + ", replies " + replies);
            System.out.println("searches received " + (after.searchesReceived() - before.searchesReceived())
                    + ", forwarded " + (after.forwarded() - before.forwarded()) + ", own_forwarded_copy "
                    + (after.drops().get("own_forwarded_copy") - before.drops().get("own_forwarded_copy")));
            System.out.println("status " + after);
            other.getOutputStream().close();
            String line;
            while ((line = out.readLine()) != null) {
                System.out.println("python " + line);
            }
        } finally {
            other.destroyForcibly();
            other.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** {@code bursts} bursts of 16 searches, each sent when the last one's replies are in (or after 2 s). */
    private static int run(DatagramSocket client, byte[] search, InetSocketAddress to, int bursts) throws Exception {
        int replies = 0;
        byte[] buf = new byte[2048];
        client.setSoTimeout(2000);
        for (int b = 0; b < bursts; b++) {
            for (int i = 0; i < BURST; i++) {
                client.send(new DatagramPacket(search, search.length, to));
            }
            for (int i = 0; i < BURST; i++) {
                try {
                    client.receive(new DatagramPacket(buf, buf.length));
                    replies++;
                } catch (SocketTimeoutException e) {
                    break;
                }
            }
        }
        return replies;
    }
}
