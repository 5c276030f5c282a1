package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ReloadResult;
import lookout.engine.boot.Engines;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Engine#apply} is all or nothing: a service that cannot take the candidate makes every
 * service go back to the running configuration, the version stays, and the result says why.
 */
class AtomicApplyTest {

    @TempDir
    Path dir;

    private static final String BASE = """
            resolver => { listen => [ 127.0.0.1:0 ] }
            pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
                     auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
            """;

    private Config parse(String text) {
        ConfigResult r = new ConfigLoader(Map.of()).parse(text, "atomic.conf", dir);
        assertThat(r.problems()).isEmpty();
        return r.config();
    }

    /** A service that records what it is given and throws when told to. */
    private static final class Scripted implements Service {
        final String name;
        final List<String> log;
        boolean failOnApply;

        Scripted(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void start(ServiceContext context, Config config) {
            log.add(name + " start");
        }

        @Override
        public void apply(Config before, Config after) throws Exception {
            log.add(name + " apply " + before.source().shortHash() + "→" + after.source().shortHash());
            if (failOnApply && after.source().text().contains("# break")) {
                throw new java.io.IOException("port 8053 is taken");
            }
        }

        @Override
        public void stop() {
            log.add(name + " stop");
        }

        @Override
        public void contribute(SnapshotBuilder snapshot) {
        }
    }

    @Test
    void aServiceThatFailsToApplyRollsBackEveryServiceAppliedBeforeItAndTheVersionStays() {
        List<String> log = new CopyOnWriteArrayList<>();
        Scripted a = new Scripted("a", log);
        Scripted b = new Scripted("b", log);
        Scripted c = new Scripted("c", log);
        b.failOnApply = true;
        Config running = parse(BASE);
        Config good = parse(BASE + "# fine\n");
        Config bad = parse(BASE + "# break\n");
        String r0 = running.source().shortHash();
        String g = good.source().shortHash();
        String x = bad.source().shortHash();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = new DefaultEngine(EngineOptions.forTest(clock, new Random(1), dir), () -> List.of(a, b, c))) {
            List<EngineEvent> events = new CopyOnWriteArrayList<>();
            engine.subscribe(events::add);
            engine.start(running);
            log.clear();

            ReloadResult failed = engine.apply(bad);
            assertThat(failed.applied()).isFalse();
            assertThat(failed.version()).isEqualTo(1);
            assertThat(failed.failure()).contains("b").contains("port 8053 is taken");
            assertThat(failed.reasons()).containsExactly(failed.failure());
            // a applied, b failed (it may have taken part: it goes back too), c never saw it;
            // the rollback runs newest first
            assertThat(log).containsExactly("a apply " + r0 + "→" + x, "b apply " + r0 + "→" + x,
                    "b apply " + x + "→" + r0, "a apply " + x + "→" + r0);
            assertThat(engine.snapshot().config().version()).isEqualTo(1);
            assertThat(engine.snapshot().config().text()).isEqualTo(running.source().text());
            assertThat(engine.snapshot().config().lastReload().failure()).isEqualTo(failed.failure());
            assertThat(events).filteredOn(EngineEvent.ConfigRejected.class::isInstance).hasSize(1);
            assertThat(events).noneMatch(EngineEvent.ConfigApplied.class::isInstance);

            // the next apply starts from the running configuration, not the one rolled back
            log.clear();
            ReloadResult ok = engine.apply(good);
            assertThat(ok.applied()).isTrue();
            assertThat(ok.version()).isEqualTo(2);
            assertThat(log).containsExactly("a apply " + r0 + "→" + g, "b apply " + r0 + "→" + g,
                    "c apply " + r0 + "→" + g);
        }
    }

    /** The real engine: a reload that moves the resolver onto a taken port keeps it on the old one. */
    @Test
    void aResolverThatCannotBindTheNewPortKeepsAnsweringOnTheOld() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(2), dir)
                     .withUdpReads(EngineOptions.UdpReads.NETTY))) {
            engine.start(parse(BASE));
            List<String> before = engine.snapshot().resolver().listen();
            assertThat(before).hasSize(1);
            int takenPort = taken.getLocalPort();

            ReloadResult r = engine.apply(parse(BASE.replace("127.0.0.1:0 ]", "127.0.0.1:" + takenPort + " ]")));
            assertThat(r.applied()).isFalse();
            assertThat(r.failure()).startsWith("resolver").contains(String.valueOf(takenPort));
            assertThat(engine.snapshot().config().version()).isEqualTo(1);
            List<String> after = engine.snapshot().resolver().listen();
            // back on a port of its own (the old port number when the OS gives it back; never the taken one)
            assertThat(after).hasSize(1);
            assertThat(after.get(0)).doesNotEndWith(":" + takenPort);
            int port = Integer.parseInt(after.get(0).substring(after.get(0).lastIndexOf(':') + 1));
            assertThat(answersLocalhost(port)).isTrue();
        }
    }

    /** One UDP question for localhost/A to 127.0.0.1:{@code port}; true when a reply with its ID comes back. */
    private static boolean answersLocalhost(int port) throws java.io.IOException {
        byte[] q = {0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
                9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', 0, 0, 1, 0, 1};
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            s.setSoTimeout(5000); // a bound on a lost reply; the engine answers localhost at once
            s.send(new java.net.DatagramPacket(q, q.length, InetAddress.getLoopbackAddress(), port));
            java.net.DatagramPacket p = new java.net.DatagramPacket(new byte[512], 512);
            s.receive(p);
            byte[] r = p.getData();
            return p.getLength() >= 12 && r[0] == 0x12 && r[1] == 0x34 && (r[2] & 0x80) != 0;
        }
    }

    @Test
    void everyServiceStopsInReverseOrder() {
        List<String> log = new ArrayList<>();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = new DefaultEngine(EngineOptions.forTest(clock, new Random(1), dir),
                     () -> List.of(new Scripted("a", log), new Scripted("b", log)))) {
            engine.start(parse(BASE));
            engine.stop();
        }
        assertThat(log).containsExactly("a start", "b start", "b stop", "a stop");
    }
}
