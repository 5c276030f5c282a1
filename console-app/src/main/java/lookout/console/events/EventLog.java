package lookout.console.events;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;

/**
 * The Events pane's memory across restarts: every event the console showed, one line each, in
 * {@code STATE_DIR/console-events.log} — bounded: past {@link #LIMIT} × 2 lines the file is cut
 * back to the newest {@link #LIMIT} (written to a temporary file and moved into place). On start
 * the newest {@link #LIMIT} are read back and shown before this run's, under a line saying so.
 *
 * <p>Line format: {@code 2026-11-29T15:04:05.123Z<TAB>SUBSYSTEM<TAB>SEVERITY<TAB>message}, the
 * message with backslash, tab and line breaks escaped. An unreadable line is skipped; an
 * unreadable file is said once and left alone.
 *
 * <p>Concurrency: {@link #append} and {@link #useFile} on the UI thread; file I/O on the
 * {@code io} executor (one thread), results back on {@code ui}.
 */
public final class EventLog {

    /** Events kept across restarts: as many as the pane shows. */
    public static final int LIMIT = EventsViewModel.MAX_ROWS;
    public static final String FILE = "console-events.log";

    private final Executor io;
    private final Executor ui;
    /** io thread only. */
    private Path file;
    private long lines;
    private boolean broken;

    public EventLog(Executor io, Executor ui) {
        this.io = io;
        this.ui = ui;
    }

    /**
     * Keeps events in {@code dir}/{@value #FILE} from now on; what it holds from earlier runs is
     * read and given to {@code earlier} (on the UI thread), oldest first.
     */
    public void useFile(Path dir, Consumer<List<EngineEvent>> earlier) {
        io.execute(() -> {
            Path f = dir.resolve(FILE);
            List<EngineEvent> old = new ArrayList<>();
            try {
                List<String> all = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (String l : all.subList(Math.max(0, all.size() - LIMIT), all.size())) {
                    EngineEvent e = parse(l);
                    if (e != null) {
                        old.add(e);
                    }
                }
                lines = all.size();
            } catch (NoSuchFileException e) {
                lines = 0;
            } catch (IOException | RuntimeException e) {
                broken = true;
                System.getLogger("lookout.console").log(System.Logger.Level.WARNING,
                        "events of earlier runs not read from " + f + ": " + e.getMessage());
            }
            file = f;
            ui.execute(() -> earlier.accept(old));
        });
    }

    /** Events shown now: appended to the file (once it is chosen). */
    public void append(List<EngineEvent> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<String> text = new ArrayList<>(batch.size());
        for (EngineEvent e : batch) {
            text.add(line(e));
        }
        io.execute(() -> write(text));
    }

    private void write(List<String> text) {
        if (file == null || broken) {
            return;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                for (String l : text) {
                    w.write(l);
                    w.write('\n');
                }
            }
            lines += text.size();
            if (lines > 2L * LIMIT) {
                trim();
            }
        } catch (IOException e) {
            broken = true; // said once; the pane goes on without the file
            System.getLogger("lookout.console").log(System.Logger.Level.WARNING,
                    "events not kept in " + file + ": " + e.getMessage());
        }
    }

    private void trim() throws IOException {
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> keep = all.subList(Math.max(0, all.size() - LIMIT), all.size());
        Path tmp = file.resolveSibling(FILE + ".tmp");
        Files.write(tmp, keep, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        lines = keep.size();
    }

    static String line(EngineEvent e) {
        return lookout.console.widgets.Times.iso(e.at()) + '\t' + e.subsystem().name() + '\t' + e.severity().name() + '\t'
                + escape(e.message());
    }

    /** The event of one line, as a notice (its kind is not kept, its words are); null when unreadable. */
    static EngineEvent parse(String line) {
        String[] f = line.split("\t", 4);
        if (f.length != 4) {
            return null;
        }
        try {
            return new EngineEvent.Notice(Instant.parse(f[0]), Subsystem.valueOf(f[1]), Severity.valueOf(f[2]), unescape(f[3]));
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return null;
        }
    }

    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
