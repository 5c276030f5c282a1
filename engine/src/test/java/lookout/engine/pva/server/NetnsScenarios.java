package lookout.engine.pva.server;

import io.netty.buffer.Unpooled;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.OriginTag;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;

/**
 * Forwarding scenarios that join the loopback multicast group, so they run only inside a private
 * network namespace ({@code unshare -n}, {@code ip link set lo up}); {@link ForwardingNetnsTest}
 * starts this class there as a child JVM and reads its verdict lines ({@code PASS name} /
 * {@code FAIL name: why}). Fixed ports are fine in the namespace: nothing else lives there.
 */
public final class NetnsScenarios {

    static final int PORT = 5076;
    static final String PV = "shared:pv";
    static final String GUID_A = "0a0a0a0a0a0a0a0a0a0a0a0a";
    private static int failures;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "serve" -> serve();
            case "shared" -> shared();
            case "rules" -> rules();
            case "limited" -> limitedBroadcast();
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
        System.exit(failures);
    }

    private static void check(String name, boolean ok, String why) {
        if (ok) {
            System.out.println("PASS " + name);
        } else {
            failures++;
            System.out.println("FAIL " + name + ": " + why);
        }
    }

    private static ServerHarness server() {
        FakeResolved r = new FakeResolved();
        r.resolve(PV, GUID_A, new InetSocketAddress("127.0.0.1", 6000));
        return new ServerHarness(r, true).start(ServerHarness.pva(PORT, 0, List.of(), List.of(), true));
    }

    /** The second server process: runs until its stdin closes. */
    private static void serve() throws Exception {
        try (ServerHarness h = server()) {
            System.out.println("READY " + h.serverSnapshot().guid() + " forwarding=" + h.serverSnapshot().forwarding());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for EOF
            }
        }
    }

    record Received(SearchResponse reply, InetSocketAddress from) {
    }

    static List<Received> receive(DatagramSocket s, int millis) throws Exception {
        return receive(s, millis, Integer.MAX_VALUE, 0);
    }

    /**
     * Replies until {@code expected} have come (then {@code graceMillis} more, to catch one too
     * many) or {@code millis} have passed. A cold server JVM on a loaded machine may take seconds
     * to answer its first search; waiting for the count keeps the check about what is answered,
     * not how fast.
     */
    static List<Received> receive(DatagramSocket s, int millis, int expected, int graceMillis) throws Exception {
        List<Received> out = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean graced = false;
        byte[] buf = new byte[65536];
        while (System.nanoTime() < end) {
            s.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                s.receive(p);
            } catch (SocketTimeoutException e) {
                break;
            }
            for (Frame f : PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(p.getData(), 0, p.getLength())).frames()) {
                if (f.message() instanceof SearchResponse r) {
                    out.add(new Received(r, (InetSocketAddress) p.getSocketAddress()));
                }
            }
            if (!graced && out.size() >= expected) {
                graced = true;
                end = Math.min(end, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis));
            }
        }
        return out;
    }

    /** Two server processes on one port; a unicast search reaches both through forwarding. */
    private static void shared() throws Exception {
        String cp = System.getProperty("java.class.path");
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", cp,
                NetnsScenarios.class.getName(), "serve").redirectErrorStream(true).start();
        try (ServerHarness local = server();
             DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            String line;
            String childGuid = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (childGuid == null && System.nanoTime() < deadline && (line = out.readLine()) != null) {
                if (line.startsWith("READY ")) {
                    childGuid = line.split(" ")[1];
                }
            }
            check("child server started", childGuid != null, "no READY line");
            String localGuid = local.serverSnapshot().guid();
            check("forwarding active", local.serverSnapshot().forwarding(), "group not joined");

            // A core-pva/PVXS-style unicast search: Unicast flag, reply address zero.
            byte[] search = RawPva.bytes(RawPva.search(5, Pva.SEARCH_UNICAST, null, client.getLocalPort(), PV));
            client.send(new DatagramPacket(search, search.length, new InetSocketAddress("127.0.0.1", PORT)));
            List<Received> got = receive(client, 15000, 2, 500);
            List<String> guids = got.stream().map(r -> r.reply().guid().toString()).toList();
            // Both servers vouch for the PV through their name-server source (same real GUID); the
            // discovery ping below tells the two servers apart by their own GUIDs.
            check("unicast search answered by both servers", got.size() == 2, "replies: " + guids);
            check("replies come from the address searched",
                    got.stream().allMatch(r -> r.from().equals(new InetSocketAddress("127.0.0.1", PORT))),
                    "from " + got.stream().map(Received::from).toList());

            byte[] ping = RawPva.bytes(new SearchRequest(Pva.SEARCH_SEQUENCE_FIND,
                    Pva.SEARCH_MUST_REPLY | Pva.SEARCH_UNICAST, WireAddress.ANY_ZERO, client.getLocalPort(),
                    List.of(), List.of()));
            client.send(new DatagramPacket(ping, ping.length, new InetSocketAddress("127.0.0.1", PORT)));
            List<String> pingGuids = receive(client, 15000, 2, 500).stream().map(r -> r.reply().guid().toString()).sorted().toList();
            List<String> expected = new ArrayList<>(List.of(localGuid, String.valueOf(childGuid)));
            expected.sort(null);
            check("unicast discovery ping reaches both processes", pingGuids.equals(expected),
                    "got " + pingGuids + " expected " + expected);
        } finally {
            child.getOutputStream().close();
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** Sends a raw IPv4/UDP datagram with a forged source (python3 raw socket; root in the namespace). */
    private static void sendForged(String source, String dest, int port, byte[] payload) throws Exception {
        String py = String.join("\n",
                "import socket, struct, sys",
                "src, dst, dport, payload = sys.argv[1], sys.argv[2], int(sys.argv[3]), bytes.fromhex(sys.argv[4])",
                "udp = struct.pack('!HHHH', 40000, dport, 8 + len(payload), 0) + payload",
                "ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 1, 0, 1, 17, 0,"
                        + " socket.inet_aton(src), socket.inet_aton(dst))",
                "s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)",
                "s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)",
                "s.sendto(ip + udp, (dst, 0))");
        Process p = new ProcessBuilder("python3", "-c", py, source, dest, Integer.toString(port),
                HexFormat.of().formatHex(payload)).inheritIO().start();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("python3 raw send failed");
        }
    }

    /** Each of the four receive rules and the all-zero reply address: dropped and counted. */
    private static void rules() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        InetSocketAddress group = new InetSocketAddress(InetAddress.getByName("224.0.0.128"), PORT);
        InetSocketAddress unicast = new InetSocketAddress(lo, PORT);
        try (ServerHarness h = server();
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0));
             DatagramSocket sender = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            check("forwarding active", h.serverSnapshot().forwarding(), "group not joined");
            int cp = client.getLocalPort();
            byte[] tag = RawPva.bytes(new OriginTag(lo));
            byte[] fwdSearch = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY, lo, cp, PV));

            // positive control: a well-formed forwarded search on the loopback group is answered
            send(sender, concat(tag, fwdSearch), group);
            List<Received> ok = receive(client, 1500);
            check("control: tagged search on loopback group answered", ok.size() == 1, "replies " + ok.size());

            // rule 1: a tag that did not arrive over loopback to the group (here: to our unicast address)
            expectDrop(h, client, "rule 1 tag only on loopback group", ForwardingRules.Drop.TAG_NOT_LOOPBACK_GROUP,
                    () -> send(sender, concat(tag, fwdSearch), unicast));
            // rule 2: two tags
            expectDrop(h, client, "rule 2 at most one tag", ForwardingRules.Drop.MULTIPLE_TAGS,
                    () -> send(sender, concat(tag, tag, fwdSearch), group));
            // rule 3: a forwarded search still asking to be forwarded (Unicast set)
            byte[] again = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY | Pva.SEARCH_UNICAST, lo, cp, PV));
            expectDrop(h, client, "rule 3 never re-forwarded", ForwardingRules.Drop.REFORWARD,
                    () -> send(sender, concat(tag, again), group));
            long forwardedBefore = h.serverSnapshot().forwarded();
            // rule 4: a multicast source address (forged with a raw socket)
            byte[] plain = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY, lo, cp, PV));
            expectDrop(h, client, "rule 4 multicast source ignored", ForwardingRules.Drop.MULTICAST_SOURCE,
                    () -> sendForged("224.1.2.3", "127.0.0.1", PORT, plain));
            // a forwarded search whose reply address is all-zero
            byte[] zero = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY, null, cp, PV));
            expectDrop(h, client, "all-zero reply address dropped", ForwardingRules.Drop.ZERO_REPLY_ADDRESS,
                    () -> send(sender, concat(tag, zero), group));
            check("dropped datagrams were not forwarded", h.serverSnapshot().forwarded() == forwardedBefore,
                    "forwarded moved");

            // and a genuine unicast search is forwarded once and answered once, from the address searched
            byte[] uni = RawPva.bytes(RawPva.search(2, Pva.SEARCH_UNICAST, null, cp, PV));
            send(sender, uni, unicast);
            List<Received> r = receive(client, 1500);
            check("unicast search forwarded and answered once", r.size() == 1 && h.serverSnapshot().forwarded() == forwardedBefore + 1,
                    "replies " + r.size() + ", forwarded " + h.serverSnapshot().forwarded());
            check("forwarded reply from 127.0.0.1:" + PORT, !r.isEmpty() && r.get(0).from().equals(unicast),
                    r.isEmpty() ? "none" : String.valueOf(r.get(0).from()));
            PvaServerSnapshot s = h.serverSnapshot();
            System.out.println("DROPS " + s.drops());
        }
    }

    /**
     * A search sent to 255.255.255.255 is answered once, from the local address on the client's
     * subnet; datagrams to the server's other addresses are not answered twice for it. The
     * namespace's {@code lo} also carries 10.9.0.1/24 (ForwardingNetnsTest), a subnet of a
     * non-loopback address: the server listens beyond loopback only when pointed at one.
     */
    private static void limitedBroadcast() throws Exception {
        InetAddress subnet = InetAddress.getByName("10.9.0.1");
        FakeResolved resolved = new FakeResolved();
        resolved.resolve(PV, GUID_A, new InetSocketAddress("127.0.0.1", 6000));
        lookout.engine.config.PvaConfig beyond = new lookout.engine.config.PvaConfig(
                List.of(new lookout.engine.config.PvaConfig.PvaAddress("10.9.0.255", 0)), false, List.of(), PORT, 0, List.of(), false,
                List.of(), new lookout.engine.config.PvaConfig.PvaServerConfig(true, false), List.of(), false, List.of());
        try (ServerHarness h = new ServerHarness(resolved, false).start(beyond);
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(subnet, 0))) {
            client.setBroadcast(true);
            List<String> listeners = h.serverSnapshot().udpListeners();
            check("listening for limited broadcasts", listeners.contains("255.255.255.255:" + PORT), "bound " + listeners);
            int cp = client.getLocalPort();
            byte[] search = RawPva.bytes(RawPva.search(3, 0, null, cp, PV));
            send(client, search, new InetSocketAddress(InetAddress.getByName("255.255.255.255"), PORT));
            List<Received> got = receive(client, 1500);
            check("search to 255.255.255.255 answered once", got.size() == 1, "replies " + got.size());
            check("reply from the address on the client's subnet",
                    !got.isEmpty() && got.get(0).from().equals(new InetSocketAddress(subnet, PORT)),
                    got.isEmpty() ? "none" : String.valueOf(got.get(0).from()));
            // a search to the server's own address reaches the wildcard socket too: answered once only
            send(client, search, new InetSocketAddress(subnet, PORT));
            List<Received> direct = receive(client, 1500);
            check("search to an own address answered once", direct.size() == 1, "replies " + direct.size());
            PvaServerSnapshot s = h.serverSnapshot();
            check("two searches counted", s.searchesReceived() == 2, "searches " + s.searchesReceived());
        }
    }

    interface Action {
        void run() throws Exception;
    }

    private static void send(DatagramSocket s, byte[] data, InetSocketAddress to) throws Exception {
        s.send(new DatagramPacket(data, data.length, to));
    }

    private static void expectDrop(ServerHarness h, DatagramSocket client, String name, ForwardingRules.Drop rule,
                                   Action action) throws Exception {
        long before = h.serverSnapshot().drops().get(rule.label);
        action.run();
        List<Received> r = receive(client, 700);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long after = h.serverSnapshot().drops().get(rule.label);
        while (after == before && System.nanoTime() < deadline) {
            Thread.sleep(20);
            after = h.serverSnapshot().drops().get(rule.label);
        }
        Map<String, Long> drops = h.serverSnapshot().drops();
        check(name, r.isEmpty() && after == before + 1, "replies " + r.size() + ", " + rule.label + " " + before
                + " -> " + after + " " + drops);
    }
}
