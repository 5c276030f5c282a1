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
            case "neighbour" -> neighbour(true);
            case "neighbour-unfiltered" -> neighbour(false);
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
        return server(true);
    }

    private static ServerHarness server(boolean kernelFilter) {
        FakeResolved r = new FakeResolved();
        r.resolve(PV, GUID_A, new InetSocketAddress("127.0.0.1", 6000));
        return new ServerHarness(r, true, kernelFilter).start(ServerHarness.pva(PORT, 0, List.of(), List.of(), true));
    }

    /**
     * The second server process: runs until its stdin closes. Its virtual clock moves a second every
     * 100 ms of real time, so that its periodic checks (who else listens on the port) run.
     */
    private static void serve() throws Exception {
        try (ServerHarness h = server()) {
            Thread clock = new Thread(() -> {
                try {
                    boolean told = false;
                    while (true) {
                        Thread.sleep(100);
                        h.scheduler.advance(java.time.Duration.ofSeconds(1));
                        if (!told && "shared".equals(h.serverSnapshot().portSharing())) {
                            told = true;
                            System.out.println("SHARED");
                            System.out.flush();
                        }
                    }
                } catch (InterruptedException | IllegalStateException e) {
                    // closing
                }
            });
            clock.setDaemon(true);
            clock.start();
            System.out.println("READY " + h.serverSnapshot().guid() + " forwarding=" + h.serverSnapshot().forwarding());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for EOF
            }
            clock.interrupt();
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
            // who else listens is checked every 5 s: each server must have seen the other
            for (int i = 0; i < 20 && !"shared".equals(local.serverSnapshot().portSharing()); i++) {
                local.scheduler.advance(java.time.Duration.ofSeconds(5));
                Thread.sleep(100);
            }
            boolean childShared = false;
            while (!childShared && System.nanoTime() < deadline && (line = out.readLine()) != null) {
                childShared = line.equals("SHARED");
            }
            check("each server sees the other on the port", childShared
                    && "shared".equals(local.serverSnapshot().portSharing()), "port " + local.serverSnapshot().portSharing()
                    + ", the other server's " + (childShared ? "shared" : "not told"));

            // warm both servers up (a cold JVM on a busy machine answers its first searches late):
            // a discovery ping, every answer drained
            byte[] warm = RawPva.bytes(new SearchRequest(Pva.SEARCH_SEQUENCE_FIND,
                    Pva.SEARCH_MUST_REPLY | Pva.SEARCH_UNICAST, WireAddress.ANY_ZERO, client.getLocalPort(),
                    List.of(), List.of()));
            for (int i = 0; i < 3; i++) {
                client.send(new DatagramPacket(warm, warm.length, new InetSocketAddress("127.0.0.1", PORT)));
                receive(client, 1000);
            }
            receive(client, 1000);

            // A core-pva/PVXS-style unicast search: Unicast flag, reply address zero.
            byte[] search = RawPva.bytes(RawPva.search(5, Pva.SEARCH_UNICAST, null, client.getLocalPort(), PV));
            client.send(new DatagramPacket(search, search.length, new InetSocketAddress("127.0.0.1", PORT)));
            List<Received> got = receive(client, 15000, 2, 500);
            List<String> guids = got.stream().map(r -> r.reply().guid().toString()).toList();
            // Both servers vouch for the PV through their name-server source (same real GUID); the
            // discovery ping below tells the two servers apart by their own GUIDs.
            PvaServerSnapshot ls = local.serverSnapshot();
            check("unicast search answered by both servers", got.size() == 2, "replies: " + guids + "; here port "
                    + ls.portSharing() + ", forwarded " + ls.forwarded() + ", drops " + ls.drops() + ", searches "
                    + ls.searchesReceived());
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
            // the rules below hold with the kernel filter of our own copies attached
            check("own copies filtered in the kernel", "filtered in the kernel".equals(h.serverSnapshot().ownCopies()),
                    h.serverSnapshot().ownCopies());
            int cp = client.getLocalPort();
            byte[] tag = RawPva.bytes(new OriginTag(lo));
            byte[] fwdSearch = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY, lo, cp, PV));

            // positive control: a well-formed forwarded search on the loopback group is answered (the
            // first one of a cold JVM on a busy machine may take a while: waited for, bounded)
            send(sender, concat(tag, fwdSearch), group);
            List<Received> ok = receive(client, 1500);
            for (int i = 0; i < 10 && ok.isEmpty(); i++) {
                ok = receive(client, 1000);
            }
            check("control: tagged search on loopback group answered", ok.size() == 1, "replies " + ok.size());

            // rule 1: a tag that did not arrive over loopback to the group (here: to our unicast address)
            expectDrop(h, client, "rule 1 tag only on loopback group", ForwardingRules.Drop.TAG_NOT_LOOPBACK_GROUP,
                    () -> send(sender, concat(tag, fwdSearch), unicast));
            // rule 2: two tags
            expectDrop(h, client, "rule 2 at most one tag", ForwardingRules.Drop.MULTIPLE_TAGS,
                    () -> send(sender, concat(tag, tag, fwdSearch), group));
            // rule 3: a forwarded search still asking to be forwarded (Unicast set): answered, not forwarded
            long forwardedBefore = h.serverSnapshot().forwarded();
            byte[] again = RawPva.bytes(RawPva.search(1, Pva.SEARCH_MUST_REPLY | Pva.SEARCH_UNICAST, lo, cp, PV));
            send(sender, concat(tag, again), group);
            List<Received> answered = receive(client, 1500);
            check("rule 3 answered, never re-forwarded", answered.size() == 1
                            && h.serverSnapshot().notReforwarded() == 1 && h.serverSnapshot().forwarded() == forwardedBefore,
                    "replies " + answered.size() + ", not re-forwarded " + h.serverSnapshot().notReforwarded()
                            + ", forwarded " + h.serverSnapshot().forwarded());
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

            // and a genuine unicast search, alone on the port: answered once, from the address
            // searched, and not forwarded (nobody else listens)
            byte[] uni = RawPva.bytes(RawPva.search(2, Pva.SEARCH_UNICAST, null, cp, PV));
            send(sender, uni, unicast);
            List<Received> r = receive(client, 1500);
            check("unicast search alone on the port answered once, not forwarded", r.size() == 1
                            && h.serverSnapshot().forwarded() == forwardedBefore
                            && "alone".equals(h.serverSnapshot().portSharing()),
                    "replies " + r.size() + ", forwarded " + h.serverSnapshot().forwarded() + ", port "
                            + h.serverSnapshot().portSharing());
            check("reply from 127.0.0.1:" + PORT, !r.isEmpty() && r.get(0).from().equals(unicast),
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

    /**
     * A second PVA server on the port: python3, bound to 0.0.0.0 with SO_REUSEADDR and joined to
     * 224.0.0.128 on loopback, as PVXS and core-pva listen; it prints {@code READY}, then the
     * sequence ID of every forwarded search it reads ({@code SEQ n}), until its stdin closes.
     */
    private static Process secondServer() throws Exception {
        String py = String.join("\n",
                "import socket, struct, sys, select",
                "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
                "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
                "s.bind(('0.0.0.0', " + PORT + "))",
                "s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,"
                        + " socket.inet_aton('224.0.0.128') + socket.inet_aton('127.0.0.1'))",
                "print('READY', flush=True)",
                "while True:",
                "    r, _, _ = select.select([s, sys.stdin], [], [], 60)",
                "    if sys.stdin in r or not r:",
                "        break",
                "    d = s.recv(65536)",
                "    if len(d) >= 36 and d[0] == 0xCA and d[3] == 0x16 and d[27] == 0x03:",
                "        print('SEQ %d' % struct.unpack('!I', d[32:36])[0], flush=True)",
                "    else:",
                "        print('OTHER %d' % len(d), flush=True)");
        return new ProcessBuilder("python3", "-c", py).redirectErrorStream(true).start();
    }

    /**
     * seed 002 §5, forwarding only when someone listens: alone on the port, a unicast search is
     * answered directly and not forwarded; with a second server on the port, each is answered once
     * here, forwarded once (our own copy dropped), and the second server gets every one exactly once.
     */
    private static void neighbour(boolean kernelFilter) throws Exception {
        InetSocketAddress unicast = new InetSocketAddress("127.0.0.1", PORT);
        try (ServerHarness h = server(kernelFilter); DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            int cp = client.getLocalPort();
            check("forwarding active", h.serverSnapshot().forwarding(), "group not joined");
            check("alone on the port", "alone".equals(h.serverSnapshot().portSharing()),
                    "port " + h.serverSnapshot().portSharing());
            // warm up (a cold JVM on a busy machine answers its first search late)
            send(client, RawPva.bytes(RawPva.search(1, Pva.SEARCH_UNICAST, null, cp, PV)), unicast);
            for (int i = 0; i < 10 && receive(client, 1000).isEmpty(); i++) {
                // bounded
            }
            for (int i = 0; i < 10; i++) {
                send(client, RawPva.bytes(RawPva.search(100 + i, Pva.SEARCH_UNICAST, null, cp, PV)), unicast);
            }
            List<Received> alone = receive(client, 2000);
            check("alone: each unicast search answered once, none forwarded", alone.size() == 10
                    && h.serverSnapshot().forwarded() == 0, "replies " + alone.size() + ", forwarded "
                    + h.serverSnapshot().forwarded());

            Process other = secondServer();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream()));
                String ready = out.readLine();
                check("second server on the port", "READY".equals(ready), "python3 said " + ready);
                for (int i = 0; i < 20 && !"shared".equals(h.serverSnapshot().portSharing()); i++) {
                    h.scheduler.advance(java.time.Duration.ofSeconds(5)); // the periodic check of who listens
                    Thread.sleep(100);
                }
                check("the second server is seen", "shared".equals(h.serverSnapshot().portSharing()),
                        "port " + h.serverSnapshot().portSharing());
                long forwardedBefore = h.serverSnapshot().forwarded();
                long ownBefore = h.serverSnapshot().drops().get(ForwardingRules.Drop.OWN_COPY.label);
                long kernelBefore = h.serverSnapshot().ownCopiesFiltered();
                long searchesBefore = h.serverSnapshot().searchesReceived();
                int n = 20;
                for (int i = 0; i < n; i++) {
                    send(client, RawPva.bytes(RawPva.search(1000 + i, Pva.SEARCH_UNICAST, null, cp, PV)), unicast);
                }
                List<Received> shared = receive(client, 2000);
                PvaServerSnapshot s = h.serverSnapshot();
                check("shared: each unicast search answered once here", shared.size() == n,
                        "replies " + shared.size());
                long own = s.drops().get(ForwardingRules.Drop.OWN_COPY.label) - ownBefore;
                long kernel = s.ownCopiesFiltered() - kernelBefore;
                long searches = s.searchesReceived() - searchesBefore;
                check("shared: each forwarded once", s.forwarded() - forwardedBefore == n,
                        "forwarded " + (s.forwarded() - forwardedBefore));
                String how = s.ownCopies();
                String state = "own copies " + how + ", " + own + " counted own_forwarded_copy, " + kernel
                        + " dropped by the kernel on the group socket, " + searches + " searches received";
                System.out.println("OWN COPIES " + state);
                if ("filtered in the kernel".equals(how)) {
                    // seed 002 §5 item: the kernel drops our copies on our group socket; none is read
                    check("shared: own copies filtered in the kernel, none read",
                            own == 0 && kernel == n && searches == n, state);
                } else {
                    // no filter: each copy read, dropped before decoding, counted as the rules would
                    check("shared: own copies dropped before decoding, each counted",
                            how.startsWith("dropped before decoding: ") && own == n && searches == 2L * n, state);
                }
                // the filter is for our own senders only: another socket on 127.0.0.1 forwarding to
                // the group is heard and answered as before
                try (DatagramSocket foreign = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                    byte[] fwd = concat(RawPva.bytes(new OriginTag(InetAddress.getByName("127.0.0.1"))),
                            RawPva.bytes(RawPva.search(7, 0, InetAddress.getByName("127.0.0.1"), cp, PV)));
                    send(foreign, fwd, new InetSocketAddress(InetAddress.getByName("224.0.0.128"), PORT));
                    List<Received> heard = receive(client, 5000, 1, 300);
                    check("shared: a foreign forwarded search on the group is answered",
                            heard.size() == 1 && heard.get(0).reply().sequenceId() == 7, "replies " + heard.size());
                }
                other.getOutputStream().close();
                java.util.Map<Integer, Integer> seen = new java.util.TreeMap<>();
                String line;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline && (line = out.readLine()) != null) {
                    if (line.startsWith("SEQ ")) {
                        seen.merge(Integer.parseInt(line.substring(4)), 1, Integer::sum);
                    }
                }
                seen.remove(7); // the foreign forwarded search above, heard by both
                boolean once = seen.size() == n && seen.values().stream().allMatch(c -> c == 1)
                        && seen.keySet().stream().allMatch(q -> q >= 1000 && q < 1000 + n);
                check("the second server got every unicast search exactly once", once, "it got " + seen);
            } finally {
                other.destroyForcibly();
                other.waitFor(10, TimeUnit.SECONDS);
            }
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
