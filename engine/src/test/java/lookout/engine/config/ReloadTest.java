package lookout.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ReloadResult;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lookout.engine.boot.Engines;

/**
 * Live reload through the Engine facade in virtual time (issue 2, "Live reload"): an invalid
 * candidate changes nothing and reports its errors; a valid one bumps the version and its diff
 * lists exactly the changed keys.
 */
class ReloadTest {

    /** Loopback only, ephemeral ports, PVA auto lists off, no server: safe beside other tests. */
    private static final String RUNNING = """
            resolver => {
              listen => [ 127.0.0.1:0 ]
              cache_size => 1000
            }
            pva => {
              addr_list => [ 127.0.0.1 ]
              auto_addr_list => false
              beacon_addr_list => [ 127.0.0.1 ]
              auto_beacon_addr_list => false
              watch => [ "reload:test:1" ]
            }
            """;

    @TempDir
    Path dir;
    private VirtualScheduler clock;
    private Engine engine;

    @BeforeEach
    void start() {
        clock = new VirtualScheduler();
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), dir));
        ConfigResult initial = new ConfigLoader(Map.of()).parse(RUNNING, "lookout.conf", dir);
        assertThat(initial.problems()).isEmpty();
        engine.start(initial.config());
    }

    @AfterEach
    void stop() {
        engine.stop();
        clock.close();
    }

    @Test
    void anInvalidCandidateChangesNothingAndReportsItsErrors() {
        ConfigStatus before = engine.snapshot().config();
        assertThat(before.version()).isEqualTo(1);

        String bad = RUNNING.replace("cache_size => 1000", "cache_size => many\n  listn => [ 127.0.0.1:0 ]");
        ReloadResult r = engine.reload(bad, "lookout.conf", dir);

        assertThat(r.applied()).isFalse();
        assertThat(r.version()).isEqualTo(1);
        assertThat(r.problems()).extracting(Object::toString).containsExactly(
                "lookout.conf:3:17: resolver.cache_size: expected an integer from 0 to 10000000, found 'many'",
                "lookout.conf:4:3: unknown key 'resolver.listn'; did you mean 'listen'?");
        ConfigStatus after = engine.snapshot().config();
        assertThat(after.version()).isEqualTo(1);
        assertThat(after.sha256()).isEqualTo(before.sha256());
        assertThat(after.text()).isEqualTo(RUNNING);
        assertThat(after.appliedAt()).isEqualTo(before.appliedAt());
        assertThat(after.lastReload()).isEqualTo(r);
    }

    @Test
    void aValidCandidateBumpsTheVersionAndListsExactlyTheChangedKeys() {
        String good = RUNNING.replace("cache_size => 1000", "cache_size => 5000")
                .replace("watch => [ \"reload:test:1\" ]", "watch => [ \"reload:test:1\", \"reload:test:2\" ]\n"
                        + "  discovery_at_start => false");
        ReloadResult r = engine.reload(good, "lookout.conf", dir);

        assertThat(r.problems()).isEmpty();
        assertThat(r.applied()).isTrue();
        assertThat(r.version()).isEqualTo(2);
        assertThat(r.diff().changes()).extracting(Object::toString).containsExactlyInAnyOrder(
                "~ resolver.cache_size: 1000 -> 5000",
                "~ pva.watch: [ \"reload:test:1\" ] -> [ \"reload:test:1\", \"reload:test:2\" ]",
                "+ pva.discovery_at_start = false");
        ConfigStatus after = engine.snapshot().config();
        assertThat(after.version()).isEqualTo(2);
        assertThat(after.text()).isEqualTo(good);
        assertThat(after.lastReload()).isEqualTo(r);
    }

    @Test
    void aRejectedCandidateAfterAnAppliedOneKeepsTheAppliedVersion() {
        String good = RUNNING.replace("cache_size => 1000", "cache_size => 5000");
        assertThat(engine.reload(good, "lookout.conf", dir).applied()).isTrue();
        ReloadResult bad = engine.reload("resolver => {", "lookout.conf", dir);
        assertThat(bad.applied()).isFalse();
        assertThat(bad.problems()).extracting(Object::toString).containsExactly(
                "lookout.conf:1:14: resolver: expected '}' to close the hash opened at line 1, column 13, found end of file");
        assertThat(engine.snapshot().config().version()).isEqualTo(2);
        assertThat(engine.snapshot().config().text()).isEqualTo(good);
    }

    @Test
    void reapplyingTheSameTextIsAnEmptyDiffButANewVersion() {
        ReloadResult r = engine.reload(RUNNING, "lookout.conf", dir);
        assertThat(r.applied()).isTrue();
        assertThat(r.version()).isEqualTo(2);
        assertThat(r.diff().isEmpty()).isTrue();
    }
}
