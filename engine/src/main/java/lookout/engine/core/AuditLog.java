package lookout.engine.core;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.api.AuditRecord;
import lookout.engine.json.JsonReader;
import lookout.engine.json.JsonWriter;
import lookout.engine.json.RecordReader;

/**
 * {@code STATE_DIR/audit.log}: one JSON line per write asked of the engine (docs/design/control.md
 * §Audit), appended and synced to disk before the caller answers. The file is created readable by
 * its owner only; past {@link #ROTATE_BYTES} it becomes {@code audit.log.1} (replacing the older
 * one) and a new one starts.
 *
 * <p>Concurrency: appends and reads are serialised on {@code this}; callers are the threads that
 * do the writes (the control API's workers, the console's command thread, the signal thread),
 * never the engine loop.
 */
final class AuditLog {

    private static final Logger LOG = System.getLogger("lookout.engine.audit");

    static final String FILE = "audit.log";
    /** About 50 000 records; an operator's writes are rare, so this is months of a busy control room. */
    static final long ROTATE_BYTES = 16L << 20;
    /** The most records one read returns. */
    static final int MAX_READ = 10_000;

    private final Path file;
    private FileChannel channel;

    AuditLog(Path stateDir) {
        this.file = stateDir.resolve(FILE);
    }

    Path file() {
        return file;
    }

    /**
     * Opens the file (creating it owner-only) if it is not open yet; false, with the reason logged,
     * when it cannot be: a write is then refused rather than done unrecorded.
     */
    synchronized boolean ready() {
        try {
            open();
            return true;
        } catch (IOException e) {
            LOG.log(Level.ERROR, "audit log " + file + " cannot be opened: " + e.getMessage());
            return false;
        }
    }

    private void open() throws IOException {
        if (channel != null && channel.isOpen()) {
            return;
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Set<StandardOpenOption> opts = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        channel = AtomicFiles.posix()
                ? FileChannel.open(file, opts, PosixFilePermissions.asFileAttribute(AtomicFiles.OWNER_ONLY))
                : FileChannel.open(file, opts);
    }

    /** Appends {@code r} as one line and syncs it. */
    synchronized void append(AuditRecord r) throws IOException {
        open();
        byte[] line = (line(r) + "\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.wrap(line);
        try {
            while (b.hasRemaining()) {
                channel.write(b);
            }
            channel.force(false);
        } catch (IOException e) {
            closeQuietly();
            throw e;
        }
        if (channel.size() >= ROTATE_BYTES) {
            closeQuietly();
            Files.move(file, file.resolveSibling(FILE + ".1"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The line of {@code r}: null members ({@code diff}, {@code version} of a non-apply) left out. */
    static String line(AuditRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", r.at());
        m.put("token", r.token());
        m.put("peer", r.peer());
        m.put("action", r.action());
        m.put("args", r.args());
        m.put("result", r.result());
        if (r.diff() != null) {
            m.put("diff", r.diff());
        }
        if (r.version() != null) {
            m.put("version", r.version());
        }
        return JsonWriter.write(m);
    }

    /** The last {@code limit} records (at most {@link #MAX_READ}), oldest first; unreadable lines skipped. */
    synchronized List<AuditRecord> last(int limit) {
        int n = Math.max(0, Math.min(limit, MAX_READ));
        List<String> lines = new ArrayList<>();
        for (Path p : List.of(file.resolveSibling(FILE + ".1"), file)) {
            if (Files.isReadable(p)) {
                try {
                    lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    LOG.log(Level.WARNING, "audit log " + p + " could not be read: " + e.getMessage());
                }
            }
        }
        List<AuditRecord> out = new ArrayList<>();
        for (int k = Math.max(0, lines.size() - n); k < lines.size(); k++) {
            AuditRecord r = decode(lines.get(k));
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    static AuditRecord decode(String line) {
        try {
            return RecordReader.record(AuditRecord.class, JsonReader.parseObject(line));
        } catch (JsonReader.JsonException | RuntimeException e) {
            return null;
        }
    }

    synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing to keep
            }
            channel = null;
        }
    }
}
