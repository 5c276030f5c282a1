package lookout.engine.status.pv;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;
import org.epics.pva.PVASettings;
import org.epics.pva.client.PVAChannel;
import org.epics.pva.client.PVAClient;
import org.epics.pva.data.PVAInt;
import org.epics.pva.data.PVAString;
import org.epics.pva.data.PVAStringArray;
import org.epics.pva.data.PVAStructure;

/**
 * Issue 15's interop acceptance, run inside a private network namespace by {@link StatusPvInteropTest}
 * (fixed ports are fine there: nothing else lives in it). A whole engine in virtual time — paced
 * at real speed by a driver thread, so that core-pva's real-time client sees an engine that
 * lives — publishes its status PVs under {@code TEST:}; core-pva 4.7.3 clients find
 * {@code TEST:config:version} by UDP search and through the TCP name server, read NTScalars and an
 * NTTable, and monitor {@code TEST:resolver:servers_demoted} while the engine demotes its one
 * upstream of scope corp (a refusal on 127.0.0.1:9) and while the mark runs out (30 s of virtual
 * time skipped at once). Prints {@code PASS name} or {@code FAIL name: why} per check.
 */
public final class StatusPvScenario {

    private static int failures;

    private static void check(String name, boolean ok, String why) {
        if (ok) {
            System.out.println("PASS " + name);
        } else {
            failures++;
            System.out.println("FAIL " + name + ": " + why);
        }
    }

    static final String CONFIG = """
            resolver => {
              listen => [ 127.0.0.1:8053 ]
              scopes => {
                corp => { domains => [ corp.test. ], servers => [ 127.0.0.1:9 ] }
              }
            }
            pva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              broadcast_port => 5076
              server_port => 5075
              beacon_addr_list => [ 127.0.0.1 ]
              auto_beacon_addr_list => false
              server => { enable => true, name_server => true }
            }
            status => { pv_prefix => "TEST:" }
            """;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("lookout-pvs");
        VirtualScheduler clock = new VirtualScheduler();
        AtomicBoolean pace = new AtomicBoolean(true);
        AtomicBoolean stop = new AtomicBoolean();
        Thread driver = new Thread(() -> {
            while (!stop.get()) {
                if (pace.get()) {
                    clock.advance(Duration.ofMillis(20));
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "virtual-time-driver");
        driver.setDaemon(true);
        Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(15), dir).withPvaForwarding(false));
        ConfigResult cr = new ConfigLoader(Map.of()).parse(CONFIG, "pvs.conf", dir);
        if (!cr.ok()) {
            throw new IllegalStateException(cr.problems().toString());
        }
        engine.start(cr.config());
        driver.start();
        try {
            run(engine, clock, pace);
        } finally {
            stop.set(true);
            driver.join(2000);
            engine.stop();
            clock.close();
        }
        System.out.flush();
        System.exit(failures);
    }

    private static PVAClient client(String addrList, String nameServers) throws Exception {
        PVASettings.EPICS_PVA_ENABLE_IPV6 = false;
        PVASettings.EPICS_PVA_AUTO_ADDR_LIST = false;
        PVASettings.EPICS_PVA_ADDR_LIST = addrList;
        PVASettings.EPICS_PVA_NAME_SERVERS = nameServers;
        PVASettings.EPICS_PVA_BROADCAST_PORT = 15076;
        return new PVAClient();
    }

    private static PVAStructure read(PVAClient c, String name) throws Exception {
        PVAChannel ch = c.getChannel(name);
        ch.connect().get(20, TimeUnit.SECONDS);
        return ch.read("").get(10, TimeUnit.SECONDS);
    }

    private static int severity(PVAStructure s) {
        PVAStructure alarm = s.get("alarm");
        return ((PVAInt) alarm.get("severity")).get();
    }

    private static void run(Engine engine, VirtualScheduler clock, AtomicBoolean pace) throws Exception {
        try (PVAClient udp = client("127.0.0.1:5076", "")) {
            PVAStructure version = read(udp, "TEST:config:version");
            check("udp-search-reads-config-version", version.getStructureName().equals("epics:nt/NTScalar:1.0")
                    && ((PVAInt) version.get("value")).get() == 1 && severity(version) == 0, version.toString());
            PVAStructure reload = read(udp, "TEST:config:last_reload");
            check("reads-a-string-scalar", "OK".equals(((PVAString) reload.get("value")).get()), reload.toString());
            PVAStructure table = read(udp, "TEST:resolver:servers");
            PVAStringArray labels = table.get("labels");
            PVAStructure cols = table.get("value");
            PVAStringArray servers = cols.get("server");
            check("reads-an-nttable", table.getStructureName().equals("epics:nt/NTTable:1.0")
                    && labels.get().length == 8 && "scope".equals(labels.get()[0])
                    && servers.get().length == 1 && "127.0.0.1:9".equals(servers.get()[0]), table.toString());

            // monitor the demotion count: 0 and NO_ALARM now
            LinkedBlockingQueue<int[]> updates = new LinkedBlockingQueue<>();
            PVAChannel demoted = udp.getChannel("TEST:resolver:servers_demoted");
            demoted.connect().get(20, TimeUnit.SECONDS);
            AutoCloseable sub = demoted.subscribe("", (ch, changes, overruns, data) -> {
                if (data != null) {
                    updates.add(new int[] {((PVAInt) data.get("value")).get(), severity(data)});
                }
            });
            int[] first = updates.poll(10, TimeUnit.SECONDS);
            check("monitor-first-update", first != null && first[0] == 0 && first[1] == 0,
                    first == null ? "none" : first[0] + "/" + first[1]);

            // a question for corp.test: its one server refuses, so it is demoted (seed 000 §4.6.3)
            long sent = System.nanoTime();
            long virtualSent = clock.nanoTime();
            ask("www.corp.test");
            int[] up = awaitValue(updates, 1, 5);
            long realMs = (System.nanoTime() - sent) / 1_000_000;
            long virtualMs = (clock.nanoTime() - virtualSent) / 1_000_000;
            check("demotion-raises-servers-demoted-within-1s", up != null && realMs <= 1000,
                    "update " + (up == null ? "none" : up[0]) + " after " + realMs + " ms (virtual " + virtualMs + " ms)");
            check("every-server-of-a-scope-demoted-is-major", up != null && up[1] == 2,
                    up == null ? "none" : "severity " + up[1]);
            System.out.println("INFO demotion seen after " + realMs + " ms real, " + virtualMs + " ms virtual");

            // the mark (30 s) runs out: skip 31 s of virtual time at once
            pace.set(false);
            Thread.sleep(50);
            clock.advance(Duration.ofSeconds(31));
            pace.set(true);
            int[] back = awaitValue(updates, 0, 5);
            check("mark-expiry-returns-to-no-alarm", back != null && back[1] == 0,
                    back == null ? "none" : back[0] + "/" + back[1]);
            sub.close();
        }
        try (PVAClient tcp = client("", "127.0.0.1:5075")) {
            PVAStructure version = read(tcp, "TEST:config:version");
            check("name-server-reads-config-version", ((PVAInt) version.get("value")).get() == 1, version.toString());
        }
        var s = engine.snapshot().statusPvs();
        check("snapshot-lists-the-pvs", s != null && s.pvs().size() == StatusPvCatalog.ALL.size() && s.served()
                && s.malformed() == 0, String.valueOf(s));
    }

    private static int[] awaitValue(LinkedBlockingQueue<int[]> q, int value, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            int[] u = q.poll(Math.max(1, (end - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            if (u != null && u[0] == value) {
                return u;
            }
        }
        return null;
    }

    /** One DNS question (A, recursion desired) to the engine's resolver; the answer is not awaited. */
    static void ask(String name) throws Exception {
        java.io.ByteArrayOutputStream q = new java.io.ByteArrayOutputStream();
        q.write(new byte[] {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0});
        for (String label : name.split("\\.")) {
            q.write(label.length());
            q.write(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        q.write(new byte[] {0, 0, 1, 0, 1});
        try (DatagramSocket s = new DatagramSocket()) {
            byte[] b = q.toByteArray();
            s.send(new DatagramPacket(b, b.length, new InetSocketAddress("127.0.0.1", 8053)));
        }
    }
}
