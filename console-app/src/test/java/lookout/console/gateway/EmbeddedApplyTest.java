package lookout.console.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import lookout.console.configpane.ConfigViewModel;
import lookout.console.remote.TestEngine;
import lookout.engine.api.ApplyOutcome;
import lookout.engine.api.ApplyRequest;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.boot.Engines;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded console's Apply goes the engine's persistence path ({@link Engine#applyText}) as an
 * attached one does: on a file it is saved with a backup and audited as the console; on the
 * embedded default (no file) it is applied in memory only and the console says so; a file edited
 * on disk is refused until the operator overwrites it. A real engine in virtual time.
 */
class EmbeddedApplyTest {

    @TempDir
    Path dir;

    private final VirtualScheduler clock = new VirtualScheduler();
    private Engine engine;
    private EngineGateway gateway;
    private final ConfigLoader loader = new ConfigLoader(Map.of());

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (engine != null) {
            engine.stop();
        }
        clock.close();
    }

    /** The engine started on {@code text} under {@code name}, and the console's gateway and Configuration pane on it. */
    private ConfigViewModel start(String text, String name) {
        ConfigResult r = loader.parse(text, name, dir);
        assertThat(r.problems()).isEmpty();
        engine = Engines.create(EngineOptions.forTest(clock, new Random(1), dir.resolve("state")));
        engine.start(r.config());
        gateway = new EngineGateway(engine, Runnable::run);
        ConfigViewModel vm = new ConfigViewModel(loader, Runnable::run, Runnable::run, gateway::apply);
        vm.onSnapshot(engine.snapshot());
        return vm;
    }

    @Test
    void onAFileTheApplyIsSavedWithABackupAndAuditedAsTheConsole() throws Exception {
        String text = TestEngine.config("", "");
        Path file = Files.writeString(dir.resolve("lookout.conf"), text);
        ConfigViewModel vm = start(text, file.toString());
        String changed = text.replace("up_thresh => 0.25", "up_thresh => 0.5");
        vm.textProperty().set(changed);

        ApplyOutcome o = vm.apply().get(30, TimeUnit.SECONDS);
        assertThat(o.status()).as(o.message()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(o.saved()).isEqualTo(file.toAbsolutePath().normalize());
        assertThat(Files.readString(file)).isEqualTo(changed);
        assertThat(Files.readString(o.backup())).isEqualTo(text);
        assertThat(vm.messageProperty().get()).isEqualTo("Version 2 applied (1 change), saved to " + o.saved()
                + " (the previous file kept as lookout.conf.1).");
        AuditRecord a = engine.audit(10).get(0);
        assertThat(a.peer()).isEqualTo("console");
        assertThat(a.token()).isNull();
        assertThat(a.result()).isEqualTo("ok");
        assertThat(a.args()).containsEntry("saved", o.saved().toString()).containsEntry("expectedVersion", 1L);
    }

    @Test
    void theEmbeddedDefaultAppliesInMemoryAndTheConsoleSaysSo() throws Exception {
        String text = TestEngine.config("", "");
        ConfigViewModel vm = start(text, ConfigLoader.EMBEDDED_NAME);
        assertThat(gateway.configFile()).isNull();
        vm.textProperty().set(text.replace("up_thresh => 0.25", "up_thresh => 0.5"));

        ApplyOutcome o = vm.apply().get(30, TimeUnit.SECONDS);
        assertThat(o.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(o.saved()).isNull();
        assertThat(o.message()).contains("in memory only");
        assertThat(vm.messageProperty().get()).isEqualTo("Version 2 applied (1 change) in memory only: the embedded default"
                + " has no file to save it to.");
        assertThat(engine.snapshot().config().version()).isEqualTo(2);
        assertThat(engine.audit(10)).singleElement().satisfies(a -> assertThat(a.args()).containsEntry("saved", false));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no file written but the state").containsExactly("state");
        }
    }

    @Test
    void aFileEditedOnDiskIsRefusedUntilTheOperatorOverwritesIt() throws Exception {
        String text = TestEngine.config("", "");
        Path file = Files.writeString(dir.resolve("lookout.conf"), text);
        ConfigViewModel vm = start(text, file.toString());
        String byHand = text + "# by hand\n";
        Files.writeString(file, byHand);
        String changed = text.replace("up_thresh => 0.25", "up_thresh => 0.5");
        vm.textProperty().set(changed);

        ApplyOutcome refused = vm.apply().get(30, TimeUnit.SECONDS);
        assertThat(refused.status()).isEqualTo(ApplyOutcome.Status.EDITED_ON_DISK);
        assertThat(Files.readString(file)).isEqualTo(byHand);
        ApplyRequest overwrite = vm.wayPast(refused);
        assertThat(overwrite.force()).isTrue();

        ApplyOutcome o = vm.apply(overwrite).get(30, TimeUnit.SECONDS);
        assertThat(o.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(Files.readString(file)).isEqualTo(changed);
        assertThat(Files.readString(o.backup())).isEqualTo(byHand);
        assertThat(engine.audit(10)).extracting(AuditRecord::result).satisfiesExactly(
                r -> assertThat(r).startsWith("refused: "), r -> assertThat(r).isEqualTo("ok"));
    }
}
