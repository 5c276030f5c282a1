package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Actor;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every write of every path is audited: the plain facade as the console, actingAs as its actor. */
class AuditTest {

    @TempDir
    Path dir;

    private int udp;
    private int tcp;

    @org.junit.jupiter.api.BeforeEach
    void ports() throws Exception {
        try (java.net.DatagramSocket d = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress());
             java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            udp = d.getLocalPort();
            tcp = s.getLocalPort();
        }
    }

    private ConfigResult config(String extra) {
        return new ConfigLoader(Map.of()).parse("resolver => { listen => [ 127.0.0.1:0 ] }\n"
                + "pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, broadcast_port => " + udp
                + ", server_port => " + tcp + ",\n"
                + "  beacon_addr_list => [ 127.0.0.1 ], auto_beacon_addr_list => false, server => { enable => false } }\n"
                + extra, "a.conf", dir);
    }

    @Test
    void thePlainFacadeAuditsAsTheConsoleAndActingAsAsItsActor() throws Exception {
        ConfigResult c = config("");
        assertThat(c.problems()).isEmpty();
        List<EngineEvent> events = new CopyOnWriteArrayList<>();
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(1), dir.resolve("state"))
                     .withPvaForwarding(false))) {
            engine.subscribe(events::add);
            engine.start(c.config());
            engine.force("127.0.0.9/up", "DOWN", null).get(10, TimeUnit.SECONDS);
            engine.actingAs(new Actor("alice", "192.0.2.7:40000")).release("127.0.0.9/up").get(10, TimeUnit.SECONDS);
            assertThat(engine.apply(config("# changed\n").config()).applied()).isTrue();
            assertThatThrownBy(() -> engine.release("nothing-forced").get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("no forced state");

            List<AuditRecord> a = engine.audit(10);
            assertThat(a).extracting(AuditRecord::action).containsExactly("force", "release", "apply", "release");
            assertThat(a.get(0)).satisfies(r -> {
                assertThat(r.peer()).isEqualTo("console");
                assertThat(r.token()).isNull();
                assertThat(r.result()).isEqualTo("ok");
            });
            assertThat(a.get(1).token()).isEqualTo("alice");
            assertThat(a.get(1).peer()).isEqualTo("192.0.2.7:40000");
            assertThat(a.get(2).args()).containsEntry("saved", false);
            assertThat(a.get(2).version()).isEqualTo(2L);
            assertThat(a.get(3).result()).startsWith("failed: no forced state");
            assertThat(events).filteredOn(EngineEvent.AuditRecorded.class::isInstance).hasSize(4);
        }
    }

    @Test
    void aWriteTheAuditLogCannotRecordIsNotDone() throws Exception {
        Path state = dir.resolve("state");
        Files.createDirectories(state.resolve("audit.log")); // a directory where the file should be
        try (VirtualScheduler clock = new VirtualScheduler();
             Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(1), state)
                     .withPvaForwarding(false))) {
            engine.start(config("").config());
            assertThatThrownBy(() -> engine.force("127.0.0.9/up", "DOWN", null).get(10, TimeUnit.SECONDS))
                    .hasMessageContaining("audit log");
            assertThat(engine.snapshot().pools().forced()).isEmpty();
            assertThat(engine.apply(config("# changed\n").config()).applied()).isFalse();
            assertThat(engine.snapshot().config().version()).isEqualTo(1);
        }
    }
}
