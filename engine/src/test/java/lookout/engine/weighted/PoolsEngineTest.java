package lookout.engine.weighted;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.dns.ResolverService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lookout.engine.boot.Engines;

/** Black-box through the engine facade: a forced DOWN overrides a monitored UP and survives a restart; DYNA over UDP. */
class PoolsEngineTest {

    @TempDir
    Path tmp;

    static final String CONFIG = """
            resolver => { listen => [ 127.0.0.1:0 ], allow => [ 127.0.0.0/8 ] }
            zones => { example.test => { text => "
            $TTL 300
            @    SOA ns1 hostmaster 1 7200 1800 604800 300
            @    NS  ns1
            ns1  A   127.0.0.1
            www  300 DYNA weighted!pool
            " } }
            plugins => { weighted => {
              pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ], c => [ 192.0.2.3, 10 ] }
            } }
            pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
                     auto_beacon_addr_list => false, server => { enable => false } }
            """;

    private Engine start(VirtualScheduler clock, long seed) {
        ConfigResult r = new ConfigLoader(Map.of()).parse(CONFIG, "engine.conf", tmp);
        assertThat(r.problems()).isEmpty();
        Engine e = Engines.create(EngineOptions.forTest(clock, new Random(seed), tmp.resolve("state")));
        e.start(r.config());
        return e;
    }

    private static PoolsSnapshot.PoolItem itemA(Engine e) {
        return e.snapshot().pools().resources().get(0).families().get(0).groups().get(0).items().get(0);
    }

    /** A plain DNS query for www.example.test A; returns the answer addresses. */
    private static Set<String> query(InetSocketAddress server) throws Exception {
        ByteBuffer q = ByteBuffer.allocate(64);
        q.putShort((short) 0x1234).putShort((short) 0).putShort((short) 1).putShort((short) 0).putShort((short) 0).putShort((short) 0);
        for (String l : new String[] {"www", "example", "test"}) {
            q.put((byte) l.length()).put(l.getBytes());
        }
        q.put((byte) 0).putShort((short) 1).putShort((short) 1);
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(5000);
            s.send(new DatagramPacket(q.array(), q.position(), server));
            byte[] buf = new byte[512];
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            s.receive(p);
            ByteBuffer r = ByteBuffer.wrap(buf, 0, p.getLength());
            r.position(6);
            int an = r.getShort() & 0xffff;
            r.position(12);
            while (r.get() != 0) {
                r.position(r.position() + (buf[r.position() - 1] & 0xff));
            }
            r.position(r.position() + 4);
            Set<String> out = new HashSet<>();
            for (int i = 0; i < an; i++) {
                r.getShort(); // compressed owner
                int type = r.getShort();
                r.getShort();
                r.getInt();
                int len = r.getShort();
                byte[] rd = new byte[len];
                r.get(rd);
                if (type == 1) {
                    out.add((rd[0] & 0xff) + "." + (rd[1] & 0xff) + "." + (rd[2] & 0xff) + "." + (rd[3] & 0xff));
                }
            }
            return out;
        }
    }

    @Test
    void forcedDownSurvivesAnEngineRestartAndShapesDnsAnswers() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            Engine e = start(clock, 1);
            assertThat(itemA(e).down()).isFalse();
            e.force("192.0.2.1/*", "DOWN", null).get(10, TimeUnit.SECONDS);
            assertThat(itemA(e).down()).isTrue();
            assertThat(itemA(e).monitoredDown()).isFalse();
            InetSocketAddress dns = clock.call(() -> ((DefaultEngine) e).runningService(ResolverService.class).boundAddresses().get(0));
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 60; i++) {
                seen.addAll(query(dns));
            }
            assertThat(seen).containsExactlyInAnyOrder("192.0.2.2", "192.0.2.3");
            e.stop();

            Engine again = start(clock, 2);
            assertThat(itemA(again).down()).isTrue();
            assertThat(again.snapshot().pools().forced()).extracting(PoolsSnapshot.PoolForced::key).containsExactly("192.0.2.1/*");
            again.release("192.0.2.1/*").get(10, TimeUnit.SECONDS);
            clock.advance(Duration.ofSeconds(1));
            assertThat(itemA(again).down()).isFalse();
            again.stop();
        }
    }

    @Test
    void whatIfRecomputesOddsWithoutApplyingThem() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            Engine e = start(clock, 3);
            var hypothetical = e.whatIf(Map.of("192.0.2.1/*", "DOWN")).get(10, TimeUnit.SECONDS);
            PoolsSnapshot.PoolFamily fam = hypothetical.get(0).families().get(0);
            // three equal weights, one hypothetically DOWN: 1/2 each for the other two, 0 for a
            assertThat(fam.groups().get(0).items().get(0).probability()).isZero();
            assertThat(fam.groups().get(1).items().get(0).probability()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(fam.liveWeight()).isEqualTo(20);
            // nothing applied: the running odds are still a third each
            assertThat(itemA(e).down()).isFalse();
            assertThat(itemA(e).probability()).isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
            e.stop();
        }
    }
    @Test
    void candidateOddsUseTodaysStatesWithoutApplyingAnything() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            Engine e = start(clock, 5);
            e.force("192.0.2.1/*", "DOWN", null).get(10, TimeUnit.SECONDS);
            // a glob for a monitor the running configuration does not have yet
            e.force("192.0.2.5/*", "DOWN", null).get(10, TimeUnit.SECONDS);
            clock.advance(Duration.ofSeconds(1));
            String candidateText = CONFIG.replace(
                    "pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 10 ], c => [ 192.0.2.3, 10 ] }",
                    "pool => { a => [ 192.0.2.1, 10 ], b => [ 192.0.2.2, 30 ], c => [ 192.0.2.3, 10 ],"
                            + " d => [ 192.0.2.4, 20 ], e => [ 192.0.2.5, 40 ] }");
            ConfigResult candidate = new ConfigLoader(Map.of()).parse(candidateText, "engine.conf", tmp);
            assertThat(candidate.problems()).isEmpty();

            var odds = e.candidateOdds(candidate.config()).get(10, TimeUnit.SECONDS);
            PoolsSnapshot.PoolFamily fam = odds.get(0).families().get(0);
            // by hand: a forced DOWN, e (new) DOWN by its glob, d (new) UP; live b 30 + c 10 + d 20 = 60
            assertThat(fam.groups()).extracting(g -> g.items().get(0).down()).containsExactly(true, false, false, false, true);
            assertThat(fam.liveWeight()).isEqualTo(60);
            assertThat(fam.failover()).isFalse(); // 60 >= 0.5 * 110
            assertThat(fam.groups()).extracting(g -> g.items().get(0).probability())
                    .containsExactly(0.0, 30.0 / 60, 10.0 / 60, 20.0 / 60, 0.0);
            // the running odds are untouched: b and c half each
            PoolsSnapshot.PoolFamily running = e.snapshot().pools().resources().get(0).families().get(0);
            assertThat(running.groups()).hasSize(3);
            assertThat(running.groups()).extracting(g -> g.items().get(0).probability()).containsExactly(0.0, 0.5, 0.5);
            e.stop();
        }
    }
}
