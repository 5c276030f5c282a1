package lookout.console.configpane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryStoreTest {

    @TempDir
    Path tmp;

    private static HistoryEntry entry(long v, String text) {
        return new HistoryEntry(v, Instant.parse("2026-11-29T10:00:00Z").plusSeconds(v), Long.toHexString(v).repeat(2),
                "/etc/lookout/engine conf.vscf", text);
    }

    @Test
    void aSavedHistoryReadsBackExactlyEvenWhenATextLooksLikeItsHeaders() throws IOException {
        HistoryStore store = new HistoryStore(tmp.resolve("state"));
        List<HistoryEntry> entries = List.of(
                entry(3, "lookout-config-history 1\nentry 9 x y 3 z\n"),
                entry(2, "no newline at the end, ünïcödé ✓"),
                entry(1, ""));
        store.save(entries);
        assertThat(store.file()).isEqualTo(tmp.resolve("state").resolve(HistoryStore.FILE_NAME));

        assertThat(new HistoryStore(tmp.resolve("state")).load()).containsExactlyElementsOf(entries);
    }

    @Test
    void noFileIsAnEmptyHistoryAndAForeignFileIsRefused() throws IOException {
        assertThat(new HistoryStore(tmp).load()).isEmpty();
        Files.writeString(tmp.resolve(HistoryStore.FILE_NAME), "something else\n");
        assertThatThrownBy(() -> new HistoryStore(tmp).load()).isInstanceOf(IOException.class)
                .hasMessageContaining("not a Lookout configuration history");
    }

    @Test
    void aTruncatedFileIsAnErrorNotAShorterHistory() throws IOException {
        HistoryStore store = new HistoryStore(tmp);
        store.save(List.of(entry(1, "a => 1\n")));
        String s = Files.readString(store.file());
        Files.writeString(store.file(), s.substring(0, s.length() - 4));
        assertThatThrownBy(store::load).isInstanceOf(IOException.class).hasMessageContaining("cut short");
    }

    @Test
    void onlyTheNewestLimitAreKept() throws IOException {
        HistoryStore store = new HistoryStore(tmp);
        List<HistoryEntry> many = new ArrayList<>();
        for (int v = 60; v >= 1; v--) {
            many.add(entry(v, "v" + v));
        }
        store.save(many);
        List<HistoryEntry> back = store.load();
        assertThat(back).hasSize(HistoryStore.LIMIT);
        assertThat(back.get(0).version()).isEqualTo(60);
        assertThat(back.get(HistoryStore.LIMIT - 1).version()).isEqualTo(11);
        try (var files = Files.list(tmp)) {
            assertThat(files).as("no temporary file left behind").containsExactly(store.file());
        }
    }
}
