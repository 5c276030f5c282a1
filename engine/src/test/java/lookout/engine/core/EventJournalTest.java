package lookout.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EventsSince;
import lookout.engine.api.SequencedEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal's numbering, bounds, gaps and file, with small bounds. */
class EventJournalTest {

    @TempDir
    Path dir;

    private static EngineEvent notice(int i) {
        return new EngineEvent.Notice(Instant.EPOCH.plusSeconds(i), Subsystem.ENGINE, Severity.INFO, "n" + i);
    }

    @Test
    void numbersKeepsTheLastAndSaysWhenACallerMissedSome() {
        EventJournal j = new EventJournal(5, 3);
        for (int i = 1; i <= 8; i++) {
            assertThat(j.append(notice(i)).seq()).isEqualTo(i);
        }
        EventsSince all = j.since(0);
        assertThat(all.events()).extracting(SequencedEvent::seq).containsExactly(4L, 5L, 6L, 7L, 8L);
        assertThat(all.gap()).isTrue();
        assertThat(all.firstKept()).isEqualTo(4);
        EventsSince recent = j.since(5);
        assertThat(recent.gap()).isFalse();
        assertThat(recent.events()).extracting(SequencedEvent::seq).containsExactly(6L, 7L, 8L);
        assertThat(j.since(3).gap()).isFalse(); // 4 is the next one, and it is kept
        assertThat(j.since(2).gap()).isTrue();
        assertThat(j.since(8).events()).isEmpty();
        assertThat(j.since(9).gap()).isTrue(); // never reached: a reset
    }

    @Test
    void listenersSeeEveryEventInOrder() {
        EventJournal j = new EventJournal(10, 10);
        List<Long> seen = new ArrayList<>();
        AutoCloseable[] handle = new AutoCloseable[1];
        j.append(notice(1));
        EventsSince replay = j.subscribe(0, e -> seen.add(e.seq()), handle);
        j.append(notice(2));
        assertThat(replay.events()).extracting(SequencedEvent::seq).containsExactly(1L);
        assertThat(seen).containsExactly(2L);
    }

    @Test
    void theFileIsBoundedAndLoadsBackSkippingWhatItCannotRead() throws Exception {
        EventJournal j = new EventJournal(6, 3);
        j.open(dir);
        for (int i = 1; i <= 8; i++) {
            j.append(notice(i));
        }
        j.close();
        Path file = dir.resolve(EventJournal.FILE);
        Path older = dir.resolve(EventJournal.FILE + ".1");
        // two segments of at most 3 lines: 4..6 in the older one, 7..8 in the current one
        assertThat(Files.readAllLines(older)).hasSize(3);
        assertThat(Files.readAllLines(file)).hasSize(2);
        // a kill mid-line, and a line of some future version
        Files.writeString(file, "{\"seq\":9,\"event\":{\"type\":\"Notice\",\"at\":\"1970-01-01T00:00:0",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        EventJournal again = new EventJournal(6, 3);
        again.open(dir);
        EventsSince kept = again.since(0);
        assertThat(kept.events()).extracting(SequencedEvent::seq).containsExactly(4L, 5L, 6L, 7L, 8L);
        assertThat(kept.events().get(4).event()).isEqualTo(notice(8));
        assertThat(again.append(notice(9)).seq()).isEqualTo(9);
        again.close();
        assertThat(Files.readString(file)).endsWith("\"message\":\"n9\"}}\n");
    }
}
