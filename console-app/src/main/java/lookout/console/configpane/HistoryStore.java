package lookout.console.configpane;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The applied-version history on disk, so that compare and roll back work across restarts
 * (SPEC: {@code state_dir} holds "forced states (admin_state), history"). One UTF-8 file,
 * {@value #FILE_NAME} in the engine's state directory, newest first:
 *
 * <pre>
 * lookout-config-history 1
 * entry VERSION APPLIED_AT SHA256 CHARS SOURCE_NAME(url-encoded)
 * TEXT (exactly CHARS chars, then a newline)
 * ...
 * </pre>
 *
 * Length-prefixed texts, so a configuration text may contain anything, these header lines
 * included. Written to a temporary file and moved into place: a crash leaves the old history or
 * the new one, never half of one. Version numbers restart with the engine, so the applied time and
 * the hash, not the version, tell entries apart.
 *
 * <p>Threading: not thread-safe; the console calls it from its single "parser" thread only.
 */
public final class HistoryStore {

    public static final String FILE_NAME = "console-history.txt";
    /** How many versions are kept (the newest). */
    public static final int LIMIT = 50;
    private static final String MAGIC = "lookout-config-history 1";

    private final Path file;
    private final int limit;

    public HistoryStore(Path stateDir) {
        this(stateDir.resolve(FILE_NAME), LIMIT);
    }

    HistoryStore(Path file, int limit) {
        this.file = file;
        this.limit = limit;
    }

    public Path file() {
        return file;
    }

    /** The stored entries, newest first; none when there is no file yet. */
    public List<HistoryEntry> load() throws IOException {
        String s;
        try {
            s = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<HistoryEntry> out = new ArrayList<>();
        int pos = line(s, 0);
        if (!s.substring(0, pos).equals(MAGIC)) {
            throw new IOException(file + ": not a Lookout configuration history (first line '" + s.substring(0, pos) + "')");
        }
        pos++;
        while (pos < s.length() && out.size() < limit) {
            int end = line(s, pos);
            String[] h = s.substring(pos, end).split(" ", -1);
            if (h.length != 6 || !h[0].equals("entry")) {
                throw new IOException(file + ": bad entry header at character " + pos);
            }
            try {
                long version = Long.parseLong(h[1]);
                Instant at = Instant.parse(h[2]);
                int chars = Integer.parseInt(h[4]);
                String source = URLDecoder.decode(h[5], StandardCharsets.UTF_8);
                int textStart = end + 1;
                int textEnd = textStart + chars;
                if (chars < 0 || textEnd > s.length()) {
                    throw new IOException(file + ": entry at character " + pos + " is cut short");
                }
                out.add(new HistoryEntry(version, at, h[3].equals("-") ? "" : h[3], source, s.substring(textStart, textEnd)));
                pos = textEnd + 1; // the newline after the text
            } catch (RuntimeException e) {
                throw new IOException(file + ": bad entry at character " + pos + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** Replaces the stored history with the newest {@link #LIMIT} of {@code entries} (newest first). */
    public void save(List<HistoryEntry> entries) throws IOException {
        StringBuilder b = new StringBuilder(MAGIC).append('\n');
        for (HistoryEntry e : entries.subList(0, Math.min(limit, entries.size()))) {
            b.append("entry ").append(e.version()).append(' ').append(e.appliedAt()).append(' ')
                    .append(e.sha256() == null || e.sha256().isEmpty() ? "-" : e.sha256()).append(' ')
                    .append(e.text().length()).append(' ')
                    .append(URLEncoder.encode(e.sourceName() == null ? "" : e.sourceName(), StandardCharsets.UTF_8))
                    .append('\n').append(e.text()).append('\n');
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, FILE_NAME, ".tmp");
        try {
            Files.writeString(tmp, b, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static int line(String s, int from) {
        int i = s.indexOf('\n', from);
        return i < 0 ? s.length() : i;
    }
}
