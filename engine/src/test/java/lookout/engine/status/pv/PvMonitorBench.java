package lookout.engine.status.pv;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.Scheduler;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.core.Service;
import lookout.engine.core.ServiceContext;
import lookout.engine.core.SnapshotBuilder;
import lookout.engine.pva.pvdata.NormativeTypes;
import lookout.engine.pva.pvdata.ScalarKind;
import lookout.engine.pva.pvserve.HostedPv;
import lookout.engine.pva.pvserve.PvHost;
import lookout.engine.pva.pvserve.PvServeLimits;
import lookout.engine.pva.server.PvaServerService;
import lookout.engine.pva.udp.PortOwner;
import lookout.engine.seams.HostedPvs;
import org.epics.pva.PVASettings;
import org.epics.pva.client.PVAChannel;
import org.epics.pva.client.PVAClient;
import org.epics.pva.data.PVADouble;
import org.epics.pva.data.PVAInt;
import org.epics.pva.data.PVALong;
import org.epics.pva.data.PVAString;
import org.epics.pva.data.PVAStructure;
import org.epics.pva.server.PVAServer;
import org.epics.pva.server.ServerPV;

/**
 * Issue 15's benchmark: 1 000 monitors (100 NTScalar PVs × 10 clients) updated at 4 Hz, served by
 * Lookout's PVA server (the production path: its TCP listener, the HostedPvs seam, the PV server,
 * real clock, the engine loop being the I/O loop) and by core-pva 4.7.3's {@code PVAServer}, in
 * one run on loopback. Each server runs in a JVM of its own, the ten core-pva clients in a third;
 * the figure is the server process's CPU time over the measured window, per update the clients
 * received. Run by {@code bench/pv-monitor-bench.sh}.
 */
public final class PvMonitorBench {

    static final int PVS = 100;
    static final int CLIENTS = 10;
    static final long PERIOD_MS = 250;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "run" -> run(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "lookout" -> serveLookout(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "corepva" -> serveCorePva(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "clients" -> clients(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static String name(int i) {
        return "bench:pv:" + i;
    }

    // ---------------------------------------------------------------- orchestration

    record Result(String server, long updates, double seconds, double cpuSeconds) {
        double updatesPerSecond() {
            return updates / seconds;
        }

        double microsPerUpdate() {
            return cpuSeconds * 1e6 / updates;
        }

        double cpuPercent() {
            return cpuSeconds / seconds * 100;
        }
    }

    static void run(int seconds, int rounds) throws Exception {
        List<Result> results = new ArrayList<>();
        int udp = 25076;
        int tcp = 25075;
        for (int round = 0; round < rounds; round++) {
            for (String server : List.of("lookout", "corepva")) {
                udp += 2;
                tcp += 2;
                Result r = measure(server, udp, tcp, seconds);
                results.add(r);
                System.out.printf(Locale.ROOT, "%-8s round %d: %,d updates in %.1f s (%,.0f/s), server CPU %.2f s "
                        + "(%.1f %% of a core), %.2f us per update%n", server, round + 1, r.updates(), r.seconds(),
                        r.updatesPerSecond(), r.cpuSeconds(), r.cpuPercent(), r.microsPerUpdate());
            }
        }
        double lk = median(results, "lookout");
        double cp = median(results, "corepva");
        System.out.printf(Locale.ROOT, "RESULT median CPU per update: lookout %.2f us, core-pva %.2f us; "
                + "lookout / core-pva = %.2fx (goal <= 1.0x)%n", lk, cp, lk / cp);
    }

    static double median(List<Result> rs, String server) {
        double[] v = rs.stream().filter(r -> r.server().equals(server)).mapToDouble(Result::microsPerUpdate).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static Process java(String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseParallelGC", "-cp",
                System.getProperty("java.class.path"), PvMonitorBench.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    static String await(BufferedReader in, String prefix, Process p) throws Exception {
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
            if (line.startsWith("FAIL")) {
                throw new IllegalStateException(line);
            }
        }
        throw new IllegalStateException("process ended (" + p.waitFor() + ") before " + prefix);
    }

    static Result measure(String server, int udp, int tcp, int seconds) throws Exception {
        Process s = java(server, String.valueOf(udp), String.valueOf(tcp));
        Process c = null;
        try {
            BufferedReader sin = new BufferedReader(new InputStreamReader(s.getInputStream()));
            await(sin, "READY", s);
            Thread drain = new Thread(() -> {
                try {
                    sin.lines().forEach(l -> { });
                } catch (java.io.UncheckedIOException e) {
                    // the server was stopped
                }
            });
            drain.setDaemon(true);
            drain.start();
            c = java("clients", String.valueOf(udp), String.valueOf(tcp), String.valueOf(seconds));
            BufferedReader cin = new BufferedReader(new InputStreamReader(c.getInputStream()));
            await(cin, "WINDOW_START", c);
            Duration cpu0 = s.info().totalCpuDuration().orElseThrow();
            String end = await(cin, "WINDOW_END", c);
            Duration cpu1 = s.info().totalCpuDuration().orElseThrow();
            String[] f = end.split(" ");
            return new Result(server, Long.parseLong(f[1]), Double.parseDouble(f[2]),
                    (cpu1.toNanos() - cpu0.toNanos()) / 1e9);
        } finally {
            if (c != null) {
                c.destroy();
                c.waitFor(10, TimeUnit.SECONDS);
            }
            s.destroy();
            s.waitFor(10, TimeUnit.SECONDS);
        }
    }

    // ---------------------------------------------------------------- the clients

    static void clients(int udp, int tcp, int seconds) throws Exception {
        AtomicLong updates = new AtomicLong();
        CountDownLatch first = new CountDownLatch(PVS * CLIENTS);
        List<PVAClient> clients = new ArrayList<>();
        List<AutoCloseable> subs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
            PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
            PVASettings.EPICS_PVA_ADDR_LIST = "127.0.0.1:" + udp;
            PVASettings.EPICS_PVA_NAME_SERVERS = "";
            PVASettings.EPICS_PVA_BROADCAST_PORT = udp + 10_000 + c;
            PVAClient client = new PVAClient();
            clients.add(client);
            for (int i = 0; i < PVS; i++) {
                PVAChannel ch = client.getChannel(name(i));
                boolean[] seen = {false};
                ch.connect().get(60, TimeUnit.SECONDS);
                subs.add(ch.subscribe("", (channel, changes, overruns, data) -> {
                    if (data == null) {
                        return;
                    }
                    updates.incrementAndGet();
                    if (!seen[0]) {
                        seen[0] = true;
                        first.countDown();
                    }
                }));
            }
        }
        if (!first.await(60, TimeUnit.SECONDS)) {
            System.out.println("FAIL only " + (PVS * CLIENTS - first.getCount()) + " monitors got a first update");
            System.exit(1);
        }
        Thread.sleep(5000); // warm-up: both servers compiled and settled before the window
        long u0 = updates.get();
        long t0 = System.nanoTime();
        System.out.println("WINDOW_START");
        Thread.sleep(seconds * 1000L);
        long u1 = updates.get();
        long t1 = System.nanoTime();
        System.out.printf(Locale.ROOT, "WINDOW_END %d %.3f%n", u1 - u0, (t1 - t0) / 1e9);
        System.out.flush();
        for (AutoCloseable s : subs) {
            s.close();
        }
        for (PVAClient c : clients) {
            c.close();
        }
        System.exit(0);
    }

    // ---------------------------------------------------------------- core-pva's PVAServer

    static PVAStructure coreScalar(double v, long sec, int nanos) {
        return new PVAStructure("", NormativeTypes.NT_SCALAR,
                new PVADouble("value", v),
                new PVAStructure("alarm", "alarm_t", new PVAInt("severity", 0), new PVAInt("status", 0),
                        new PVAString("message", "")),
                new PVAStructure("timeStamp", "time_t", new PVALong("secondsPastEpoch", false, sec),
                        new PVAInt("nanoseconds", nanos), new PVAInt("userTag", 0)),
                new PVAStructure("display", "", new PVADouble("limitLow", 0), new PVADouble("limitHigh", 100),
                        new PVAString("description", "bench"), new PVAString("units", "u"), new PVAInt("precision", 1)));
    }

    static void serveCorePva(int udp, int tcp) throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVAS_INTF_ADDR_LIST = "127.0.0.1";
        PVASettings.EPICS_PVAS_BROADCAST_PORT = udp;
        PVASettings.EPICS_PVA_SERVER_PORT = tcp;
        PVAServer server = new PVAServer();
        List<ServerPV> pvs = new ArrayList<>();
        List<PVAStructure> data = new ArrayList<>();
        for (int i = 0; i < PVS; i++) {
            PVAStructure d = coreScalar(i, 0, 0);
            data.add(d);
            pvs.add(server.createPV(name(i), d));
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        long[] n = {0};
        timer.scheduleAtFixedRate(() -> {
            n[0]++;
            long now = System.currentTimeMillis();
            for (int i = 0; i < PVS; i++) {
                PVAStructure d = data.get(i);
                ((PVADouble) d.get("value")).set(n[0] + i);
                PVAStructure ts = d.get("timeStamp");
                ((PVALong) ts.get("secondsPastEpoch")).set(now / 1000);
                ((PVAInt) ts.get("nanoseconds")).set((int) (now % 1000) * 1_000_000);
                try {
                    pvs.get(i).update(d);
                } catch (Exception e) {
                    System.out.println("FAIL update: " + e);
                }
            }
        }, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
        System.out.println("READY core-pva PVAServer on TCP " + server.getTCPAddress(false));
        Thread.sleep(Long.MAX_VALUE);
    }

    // ---------------------------------------------------------------- Lookout

    /** The engine's PVA server with a hosted-PV service of 100 PVs posting at 4 Hz, as the status PVs do. */
    static final class BenchPvs implements Service, HostedPvs {
        private volatile PvHost host;
        private Scheduler.Cancellable timer = Scheduler.Cancellable.NONE;

        @Override
        public String name() {
            return "bench-pvs";
        }

        @Override
        public void start(ServiceContext ctx, Config config) {
            host = new PvHost(ctx.scheduler(), PvServeLimits.DEFAULT);
            List<HostedPv> pvs = new ArrayList<>();
            for (int i = 0; i < PVS; i++) {
                pvs.add(host.publish(PvMonitorBench.name(i), NormativeTypes.scalarType(ScalarKind.DOUBLE), value(i, ctx)));
            }
            BitSet changed = new BitSet();
            changed.set(NormativeTypes.SCALAR_VALUE);
            changed.set(NormativeTypes.SCALAR_TIME);
            long[] n = {0};
            timer = ctx.scheduler().scheduleAtFixedRate(() -> {
                n[0]++;
                for (int i = 0; i < PVS; i++) {
                    host.post(pvs.get(i), value(n[0] + i, ctx), changed);
                }
            }, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
        }

        static Object[] value(double v, ServiceContext ctx) {
            var now = ctx.scheduler().now();
            return new Object[] {v, NormativeTypes.alarm(0, 0, ""), NormativeTypes.time(now.getEpochSecond(), now.getNano()),
                    new Object[] {0.0, 100.0, "bench", "u", 1}};
        }

        @Override
        public void apply(Config before, Config after) {
        }

        @Override
        public void stop() {
            timer.cancel();
        }

        @Override
        public void contribute(SnapshotBuilder snapshot) {
        }

        @Override
        public boolean hosts(String name) {
            PvHost h = host;
            return h != null && h.hosts(name);
        }

        @Override
        public Session open(Peer peer) {
            return host.open(peer);
        }
    }

    static void serveLookout(int udp, int tcp) throws Exception {
        Path dir = Files.createTempDirectory("lookout-bench");
        String text = """
                pva => {
                  addr_list => [ 127.0.0.1 ]
                  auto_addr_list => false
                  broadcast_port => UDP
                  server_port => TCP
                  beacon_addr_list => [ 127.0.0.1 ]
                  auto_beacon_addr_list => false
                  server => { enable => true, name_server => true }
                }
                """.replace("UDP", String.valueOf(udp)).replace("TCP", String.valueOf(tcp));
        ConfigResult cr = new ConfigLoader(Map.of()).parse(text, "bench.conf", dir);
        if (!cr.ok()) {
            throw new IllegalStateException(cr.problems().toString());
        }
        Engine engine = new DefaultEngine(EngineOptions.defaults().withEnvironment(Map.of()).withStateDir(dir)
                .withPvaForwarding(false), () -> List.of(new PortOwner(), new BenchPvs(), new PvaServerService()));
        engine.start(cr.config());
        System.out.println("READY Lookout on TCP " + engine.snapshot().pvaServer().tcpPort());
        Thread.sleep(Long.MAX_VALUE);
    }
}
