package lookout.engine.pva.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import lookout.engine.config.PvaConfig;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.core.ServiceContext;
import lookout.engine.seams.ResolvedNames;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import org.epics.pva.PVASettings;
import org.epics.pva.data.PVADouble;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;

/**
 * Searches handled per second with 100 000 claimable names: Lookout's responder (real clock, the
 * engine loop being the Netty I/O loop as in production) against a core-pva 4.7.3 PVAServer
 * holding the same names, in one run on loopback. Run by {@code bench/pva-server-bench.sh}.
 *
 * <p>Each server runs in its own JVM (so neither pays for the other's garbage), the load generator
 * in a third. Load: a closed loop with a fixed window of outstanding search datagrams (so neither server
 * is measured on what its socket buffer drops), names drawn uniformly from the 100 000, each
 * message complete when every CID is answered (core-pva answers one reply per CID, Lookout one
 * per message). CPU per search: the server process's CPU time over the
 * measurement (JVM start of the load generator excluded: it is another process).
 */
public final class PvaServerBench {

    static final int NAMES = 100_000;

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "run";
        switch (mode) {
            case "load" -> {
                Result r = load(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])), names(),
                        Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                System.out.println("RESULT " + r.messages + " " + r.names + " " + r.lost + " " + r.seconds + " "
                        + (long) r.loadCpuNanos);
                System.exit(0);
            }
            case "serve-core" -> serveCore();
            case "serve-lookout" -> serveLookout();
            case "ab" -> ab(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> run(Integer.parseInt(args.length > 1 ? args[1] : "10"), Integer.parseInt(args.length > 2 ? args[2] : "32"));
        }
    }

    /** A core-pva PVAServer with the names, in its own JVM; prints its UDP port, runs until stdin closes. */
    static void serveCore() throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        int coreUdp;
        try (DatagramSocket s = new DatagramSocket(0, java.net.InetAddress.getByName("127.0.0.1"))) {
            coreUdp = s.getLocalPort();
        }
        PVASettings.EPICS_PVAS_BROADCAST_PORT = coreUdp;
        PVASettings.EPICS_PVA_SERVER_PORT = 0;
        PVAServer core = new PVAServer();
        for (String n : names()) {
            core.createPV(n, new PVAStructure("", "epics:nt/NTScalar:1.0", new PVADouble("value", 1)));
        }
        System.gc();
        System.out.println("READY " + coreUdp);
        System.out.flush();
        while (System.in.read() >= 0) {
            // until EOF
        }
        core.close();
        System.exit(0);
    }

    /** Lookout's server vouching for the names (what its PVA client would have resolved), in its own JVM. */
    static void serveLookout() throws Exception {
        lookout.engine.net.Transport.leakDetection(true); // as the engine does at start
        Map<String, ResolvedNames.Resolution> table = new HashMap<>();
        InetSocketAddress real = new InetSocketAddress("127.0.0.1", 5075);
        for (String n : names()) {
            table.put(n, new ResolvedNames.Resolution(n, "0102030405060708090a0b0c", real));
        }
        RealContext ctx = new RealContext(Map.of());
        ctx.options(ctx.options().withPvaForwarding(false));
        ctx.register(ResolvedNames.class, tableLookup(table));
        PvaServerService lookout = new PvaServerService();
        ctx.onLoop(() -> {
            lookout.start(ctx, ServerHarness.config(lookoutPva()));
            return null;
        });
        System.gc();
        System.out.println("READY " + ctx.onLoop(() -> lookout.snapshot().udpPort()));
        System.out.flush();
        while (System.in.read() >= 0) {
            // until EOF
        }
        var s = ctx.onLoop(lookout::snapshot);
        System.err.println("lookout snapshot: searches " + s.searchesReceived() + ", replies " + s.repliesSent()
                + ", drops " + s.drops());
        System.exit(0);
    }

    /** The server's configuration; PVA_BENCH_UDP_THREADS sets {@code udp_threads} (default 0: one per core). */
    static PvaConfig lookoutPva() {
        PvaConfig p = ServerHarness.pva(0, 0, List.of(), List.of(), false);
        int threads = Integer.parseInt(System.getenv().getOrDefault("PVA_BENCH_UDP_THREADS", "0").trim());
        if (threads == 0) {
            return p;
        }
        PvaConfig.PvaServerConfig d = p.server();
        PvaConfig.PvaServerConfig s = new PvaConfig.PvaServerConfig(d.enable(), d.nameServer(), d.onDemandLimit(),
                d.onDemandRate(), d.onDemandPerClient(), d.onDemandHold(), d.checkInterval(), d.checkAfter(), threads);
        return new PvaConfig(p.addrList(), p.autoAddrList(), p.nameServers(), p.broadcastPort(), p.serverPort(),
                p.beaconAddrList(), p.autoBeaconAddrList(), p.ignoreAddrList(), s, p.watch(), p.discoveryAtStart(),
                p.ignoreGuids());
    }

    record Server(Process process, int port) {
        long cpuNanos() {
            return process.info().totalCpuDuration().orElseThrow().toNanos();
        }

        /** User-mode CPU time (Linux: /proc/PID/stat utime at 100 ticks/s), or -1: the rest is the kernel's. */
        long userNanos() {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + process.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Long.parseLong(f[11]) * 10_000_000L;
            } catch (java.io.IOException | RuntimeException e) {
                return -1;
            }
        }
    }

    static Server spawn(String mode) throws Exception {
        return spawn(mode, System.getProperty("java.class.path"), mode);
    }

    /** A server JVM running {@code mode} of the PvaServerBench found on {@code classPath} (another build's, for A/B runs). */
    static Server spawn(String mode, String classPath, String tag) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(java(), "-Xmx512m", "-XX:+UseParallelGC"));
        String jfr = System.getenv("PVA_BENCH_JFR"); // a Flight Recorder profile of each server: FILE-MODE.jfr
        if (jfr != null && !jfr.isBlank()) {
            cmd.add("-XX:StartFlightRecording=filename=" + jfr + "-" + tag + ".jfr,settings=" + System.getenv().getOrDefault("PVA_BENCH_JFC", "profile"));
        }
        cmd.addAll(List.of("-cp", classPath, PvaServerBench.class.getName(), mode));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("READY ")) {
                return new Server(p, Integer.parseInt(line.substring(6).trim()));
            }
        }
        throw new IllegalStateException(mode + " did not start");
    }

    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    static void run(int seconds, int window) throws Exception {
        Server lookout = spawn("serve-lookout");
        Server core = spawn("serve-core");
        try {
            System.out.printf("machine: %d cores, %s %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name"), System.getProperty("java.version"));
            System.out.printf("names: %d, window: %d datagrams outstanding, %d s per measurement (after a %d-s warm-up), load generator %s%n",
                    NAMES, window, seconds, Integer.parseInt(System.getenv().getOrDefault("PVA_BENCH_WARMUP", "5").trim()), System.getenv("PVA_LOAD") == null ? "Java" : "C (" + System.getenv("PVA_LOAD") + ")");
            // PVA_BENCH_SIZES: the names per search to measure (default "1 4 30")
            String sizes = System.getenv().getOrDefault("PVA_BENCH_SIZES", "1 4 30").trim();
            // PVA_BENCH_WARMUP: seconds of load before each measurement (default 5), enough for the
            // JIT to finish compiling the path of that search size
            int warmup = Integer.parseInt(System.getenv().getOrDefault("PVA_BENCH_WARMUP", "5").trim());
            for (int perMessage : java.util.Arrays.stream(sizes.split("[ ,]+")).mapToInt(Integer::parseInt).toArray()) {
                for (int round = 0; round < 2; round++) {
                    boolean measure = round == 1;
                    Result l = phase(lookout, perMessage, window, measure ? seconds : warmup);
                    Result c = phase(core, perMessage, window, measure ? seconds : warmup);
                    if (measure) {
                        print("lookout", perMessage, l);
                        print("core-pva", perMessage, c);
                        System.out.printf("ratio lookout/core-pva, %d name(s) per search: %.2f x names/s, %.2f x CPU per name%n",
                                perMessage, l.namesPerSecond() / c.namesPerSecond(),
                                (l.serverCpuNanos / Math.max(1, l.names)) / (c.serverCpuNanos / Math.max(1, c.names)));
                    }
                }
            }
        } finally {
            lookout.process().getOutputStream().close();
            core.process().getOutputStream().close();
            lookout.process().waitFor(20, TimeUnit.SECONDS);
            core.process().waitFor(20, TimeUnit.SECONDS);
        }
    }

    /**
     * This build's responder against another build's (PVA_BENCH_OTHER_CP, its classes and
     * dependencies; PVA_BENCH_OTHER_LABEL names it) in one run: both servers up at once, the same
     * JVM options and load generator, a warm-up of each per search size, then {@code rounds}
     * measurements of each, alternating which goes first, each round's ratio and their median.
     * Same-run pairs take out what drifts between separate runs of the script (the machine's
     * other tenants, its clock).
     */
    static void ab(int seconds, int window, int rounds) throws Exception {
        String otherCp = System.getenv("PVA_BENCH_OTHER_CP");
        if (otherCp == null || otherCp.isBlank()) {
            throw new IllegalArgumentException("PVA_BENCH_OTHER_CP: the other build's class path");
        }
        String label = System.getenv().getOrDefault("PVA_BENCH_OTHER_LABEL", "other");
        // PVA_BENCH_FRESH=1: new server JVMs for each search size, so that no size is measured on
        // code the JIT compiled for another size's profile (the default keeps them for the run)
        boolean fresh = "1".equals(System.getenv("PVA_BENCH_FRESH"));
        Server[] servers = {spawn("serve-lookout", System.getProperty("java.class.path"), "this"),
                spawn("serve-lookout", otherCp, "other")};
        try {
            String sizes = System.getenv().getOrDefault("PVA_BENCH_SIZES", "1 4 30").trim();
            int warmup = Integer.parseInt(System.getenv().getOrDefault("PVA_BENCH_WARMUP", "5").trim());
            System.out.printf("A/B: this build against %s; %d s per measurement, %d rounds, %d-s warm-ups, window %d, load generator %s%s%n",
                    label, seconds, rounds, warmup, window, System.getenv("PVA_LOAD") == null ? "Java" : "C",
                    fresh ? ", new server JVMs for each size" : "");
            boolean first = true;
            for (int perMessage : java.util.Arrays.stream(sizes.split("[ ,]+")).mapToInt(Integer::parseInt).toArray()) {
                if (fresh && !first) {
                    stop(servers);
                    servers[0] = spawn("serve-lookout", System.getProperty("java.class.path"), "this-" + perMessage);
                    servers[1] = spawn("serve-lookout", otherCp, "other-" + perMessage);
                }
                first = false;
                Server a = servers[0];
                Server b = servers[1];
                phase(a, perMessage, window, warmup);
                phase(b, perMessage, window, warmup);
                double[] ratios = new double[rounds];
                double[] cpuRatios = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    Result ra;
                    Result rb;
                    if (r % 2 == 0) {
                        ra = phase(a, perMessage, window, seconds);
                        rb = phase(b, perMessage, window, seconds);
                    } else {
                        rb = phase(b, perMessage, window, seconds);
                        ra = phase(a, perMessage, window, seconds);
                    }
                    print("this", perMessage, ra);
                    print(label, perMessage, rb);
                    ratios[r] = ra.namesPerSecond() / rb.namesPerSecond();
                    cpuRatios[r] = (ra.serverCpuNanos / Math.max(1, ra.names)) / (rb.serverCpuNanos / Math.max(1, rb.names));
                    System.out.printf("round %d, %d name(s): this/%s %.3f x names/s, %.3f x CPU per name%n", r + 1, perMessage,
                            label, ratios[r], cpuRatios[r]);
                }
                java.util.Arrays.sort(ratios);
                java.util.Arrays.sort(cpuRatios);
                System.out.printf("median over %d rounds, %d name(s) per search: this/%s %.3f x names/s (%.3f-%.3f), %.3f x CPU per name%n",
                        rounds, perMessage, label, median(ratios), ratios[0], ratios[rounds - 1], median(cpuRatios));
            }
        } finally {
            stop(servers);
        }
    }

    private static void stop(Server[] servers) throws Exception {
        for (Server s : servers) {
            s.process().getOutputStream().close();
        }
        for (Server s : servers) {
            if (!s.process().waitFor(20, TimeUnit.SECONDS)) {
                s.process().destroyForcibly();
            }
        }
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static ResolvedNames tableLookup(Map<String, ResolvedNames.Resolution> table) {
        return new ResolvedNames() {
            @Override
            public Resolution lookup(String name) {
                return table.get(name);
            }

            @Override
            public java.util.List<Resolution> resolutions() {
                return java.util.List.copyOf(table.values());
            }

            @Override
            public Want want(String name) {
                return Want.REFUSED;
            }

            @Override
            public void release(String name) {
            }

            @Override
            public boolean isOwnSearcher(java.net.InetSocketAddress endpoint) {
                return false;
            }

            @Override
            public void addListener(Listener l) {
            }

            @Override
            public void removeListener(Listener l) {
            }
        };
    }

    static String[] names() {
        String[] names = new String[NAMES];
        for (int i = 0; i < NAMES; i++) {
            names[i] = String.format("bench:pv:%06d", i);
        }
        return names;
    }

    /** Runs the load generator in a child JVM; the server's CPU time is read from its own process. */
    static Result phase(Server server, int perMessage, int window, int seconds) throws Exception {
        // PVA_LOAD=path: the C generator (bench/pva-load.c; batched syscalls, ~1 us per search),
        // else the Java one (one thread, a syscall per datagram, ~6 us per search)
        String c = System.getenv("PVA_LOAD");
        List<String> cmd = c != null && !c.isBlank()
                ? List.of(c, Integer.toString(server.port()), Integer.toString(NAMES), Integer.toString(perMessage),
                        Integer.toString(window), Integer.toString(seconds))
                : List.of(java(), "-cp", System.getProperty("java.class.path"), PvaServerBench.class.getName(),
                        "load", Integer.toString(server.port()), Integer.toString(perMessage), Integer.toString(window),
                        Integer.toString(seconds));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        long cpu0 = server.cpuNanos();
        long user0 = server.userNanos();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("load generator hung");
        }
        long cpu = server.cpuNanos() - cpu0;
        long user = user0 < 0 ? -1 : server.userNanos() - user0;
        String line = out.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("load generator: " + out));
        String[] f = line.split(" ");
        return new Result(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), Double.parseDouble(f[4]), cpu, user,
                Double.parseDouble(f[5]), f.length > 6 ? Double.parseDouble(f[6]) : -1);
    }

    /** {@code loadCpuNanos}: the load generator's CPU time over its loop (its ceiling: one thread, one syscall per datagram). */
    record Result(long messages, long names, long lost, double seconds, double serverCpuNanos, double serverUserNanos,
                  double loadCpuNanos, double loadUserNanos) {
        double namesPerSecond() {
            return names / seconds;
        }
    }

    static void print(String who, int perMessage, Result r) {
        System.out.printf("%-8s %2d name(s)/search: %9.0f searches/s %10.0f names/s  lost %d  server CPU %.2f us/search"
                        + " (user %.2f), %.2f us/name; load generator %.2f us/search%s%n",
                who, perMessage, r.messages / r.seconds, r.namesPerSecond(), r.lost,
                r.serverCpuNanos / 1000.0 / Math.max(1, r.messages), r.serverUserNanos / 1000.0 / Math.max(1, r.messages),
                r.serverCpuNanos / 1000.0 / Math.max(1, r.names), r.loadCpuNanos / 1000.0 / Math.max(1, r.messages),
                r.loadUserNanos < 0 ? "" : String.format(" (user %.2f)", r.loadUserNanos / 1000.0 / Math.max(1, r.messages)));
    }

    /** Closed-loop load: {@code window} datagrams outstanding; a datagram completes when all its CIDs are answered. */
    static Result load(InetSocketAddress to, String[] names, int perMessage, int window, int seconds) throws Exception {
        SplittableRandom rnd = new SplittableRandom(17);
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            s.setReceiveBufferSize(4 << 20);
            int port = s.getLocalPort();
            int[] remaining = new int[window];
            long[] sentAt = new long[window];
            int[] generation = new int[window];
            long done = 0;
            long doneNames = 0;
            long lost = 0;
            long t0 = System.nanoTime();
            long cpu0 = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
            long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
            for (int slot = 0; slot < window; slot++) {
                send(s, to, names, perMessage, rnd, slot, generation, remaining, sentAt, port);
            }
            byte[] buf = new byte[65536];
            s.setSoTimeout(50);
            while (System.nanoTime() < end) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(p);
                    for (Frame f : PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(buf, 0, p.getLength())).frames()) {
                        if (f.message() instanceof SearchResponse r) {
                            for (int cid : r.cids()) {
                                int slot = (cid >>> 8) % window;
                                int gen = cid >>> 8;
                                if (gen / window == generation[slot] && remaining[slot] > 0) {
                                    if (--remaining[slot] == 0) {
                                        done++;
                                        doneNames += perMessage;
                                        send(s, to, names, perMessage, rnd, slot, generation, remaining, sentAt, port);
                                    }
                                }
                            }
                        }
                    }
                } catch (SocketTimeoutException e) {
                    // fall through to the loss check
                }
                long now = System.nanoTime();
                for (int slot = 0; slot < window; slot++) {
                    if (remaining[slot] > 0 && now - sentAt[slot] > TimeUnit.MILLISECONDS.toNanos(500)) {
                        lost++;
                        send(s, to, names, perMessage, rnd, slot, generation, remaining, sentAt, port);
                    }
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            long cpu = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos() - cpu0;
            return new Result(done, doneNames, lost, secs, 0, 0, cpu, -1);
        }
    }

    private static void send(DatagramSocket s, InetSocketAddress to, String[] names, int perMessage, SplittableRandom rnd,
                             int slot, int[] generation, int[] remaining, long[] sentAt, int replyPort) throws Exception {
        generation[slot]++;
        int window = generation.length;
        int gen = generation[slot] * window + slot; // (gen % window) == slot
        List<SearchRequest.Name> ns = new ArrayList<>(perMessage);
        for (int i = 0; i < perMessage; i++) {
            ns.add(new SearchRequest.Name((gen << 8) | i, names[rnd.nextInt(names.length)]));
        }
        byte[] data = RawPva.bytes(new SearchRequest(0x66696E64, 0, WireAddress.ANY_ZERO, replyPort, List.of("tcp"), ns));
        remaining[slot] = perMessage;
        sentAt[slot] = System.nanoTime();
        s.send(new DatagramPacket(data, data.length, to));
    }

}
