package lookout.console.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 item 11: events kept across restarts in a bounded file of the state directory. */
class EventLogTest {

    static final Instant T0 = Instant.parse("2026-11-29T15:04:05.123Z");

    @Test
    void whatOneRunShowedTheNextRunReadsBack(@TempDir Path dir) throws Exception {
        EventLog first = new EventLog(Runnable::run, Runnable::run);
        first.useFile(dir, old -> assertThat(old).isEmpty());
        first.append(List.of(new EngineEvent.Notice(T0, Subsystem.RESOLVER, Severity.WARNING, "upstream\t192.0.2.53 \\ demoted\nagain"),
                new EngineEvent.Notice(T0.plusSeconds(1), Subsystem.CONFIG, Severity.INFO, "version 2 applied")));
        assertThat(Files.readAllLines(dir.resolve(EventLog.FILE)).get(0))
                .isEqualTo("2026-11-29T15:04:05.123Z\tRESOLVER\tWARNING\tupstream\\t192.0.2.53 \\\\ demoted\\nagain");

        AtomicReference<List<EngineEvent>> read = new AtomicReference<>();
        new EventLog(Runnable::run, Runnable::run).useFile(dir, read::set);
        assertThat(read.get()).extracting(EngineEvent::message)
                .containsExactly("upstream\t192.0.2.53 \\ demoted\nagain", "version 2 applied");
        assertThat(read.get().get(0).at()).isEqualTo(T0);
        assertThat(read.get().get(0).severity()).isEqualTo(Severity.WARNING);

        EventsViewModel vm = new EventsViewModel();
        vm.restore(read.get(), dir.resolve(EventLog.FILE).toString());
        assertThat(vm.rows()).hasSize(3);
        assertThat(vm.rows().get(2).message()).contains("from before this console started");
    }

    @Test
    void theFileStaysBounded(@TempDir Path dir) throws Exception {
        EventLog log = new EventLog(Runnable::run, Runnable::run);
        log.useFile(dir, old -> { });
        for (int batch = 0; batch < 5; batch++) {
            List<EngineEvent> events = new ArrayList<>();
            for (int i = 0; i < EventLog.LIMIT / 2; i++) {
                events.add(new EngineEvent.Notice(T0.plusMillis(batch * 100_000L + i), Subsystem.ENGINE, Severity.INFO,
                        "e" + batch + "/" + i));
            }
            log.append(events);
        }
        List<String> lines = Files.readAllLines(dir.resolve(EventLog.FILE));
        assertThat(lines.size()).isBetween(EventLog.LIMIT, 2 * EventLog.LIMIT);
        assertThat(lines.get(lines.size() - 1)).endsWith("e4/" + (EventLog.LIMIT / 2 - 1));
        Files.writeString(dir.resolve(EventLog.FILE), "not a line\n", java.nio.file.StandardOpenOption.APPEND);
        AtomicReference<List<EngineEvent>> read = new AtomicReference<>();
        new EventLog(Runnable::run, Runnable::run).useFile(dir, read::set);
        assertThat(read.get()).hasSizeLessThanOrEqualTo(EventLog.LIMIT).isNotEmpty();
    }
}
