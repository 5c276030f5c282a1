package lookout.engine.health;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;

/**
 * The {@code admin_state} file in {@code state_dir} (gdnsd's syntax, SPEC §Weighted pools): read at
 * start, polled every second for edits, rewritten by {@link #force}/{@link #release}. A file with
 * any error is ignored whole with an error event, and the forced states in effect stay (gdnsd
 * {@code admin_process_file}); a deleted file clears every forced state. Because the states live
 * in the file, they survive a restart.
 *
 * <p>Concurrency: engine-loop confined.
 */
public final class ForcedStates {

    public static final String FILE_NAME = "admin_state";

    private final Path file;
    private final Scheduler scheduler;
    private final Consumer<EngineEvent> publish;
    private final Consumer<AdminState> onApply;
    private AdminState current = AdminState.empty();
    private String lastError;
    private FileTime seenModified;
    private long seenSize = -1;
    private boolean seenExists;
    private Scheduler.Cancellable poll = Scheduler.Cancellable.NONE;

    public ForcedStates(Path stateDir, Scheduler scheduler, Consumer<EngineEvent> publish, Consumer<AdminState> onApply) {
        this.file = stateDir.resolve(FILE_NAME);
        this.scheduler = scheduler;
        this.publish = publish;
        this.onApply = onApply;
    }

    public void start() {
        reload();
        poll = scheduler.scheduleAtFixedRate(this::pollFile, 1, 1, TimeUnit.SECONDS);
    }

    public void stop() {
        poll.cancel();
    }

    public Path file() {
        return file;
    }

    public AdminState current() {
        return current;
    }

    /** The last load error, or null when the file in effect loaded cleanly. */
    public String lastError() {
        return lastError;
    }

    /** Sets {@code glob} to {@code state} ({@code UP}/{@code DOWN}) with an optional TTL; it wins over earlier entries. */
    public void force(String glob, String state, Duration ttl) throws IOException {
        if (glob == null || glob.isBlank()) {
            throw new IllegalArgumentException("a forced state needs a key (a monitor name or glob, e.g. 192.0.2.1/up)");
        }
        String value = state == null ? "" : state.trim().toUpperCase();
        if (!value.equals("UP") && !value.equals("DOWN")) {
            throw new IllegalArgumentException("forced state must be UP or DOWN, not '" + state + "'");
        }
        if (ttl != null && (ttl.isNegative() || ttl.getSeconds() > lookout.engine.config.ServiceTypeConfig.TTL_MAX)) {
            throw new IllegalArgumentException("forced TTL must be 0 to " + lookout.engine.config.ServiceTypeConfig.TTL_MAX + " s");
        }
        AdminState.globPattern(glob);
        requireCleanFile();
        write(current.with(new AdminState.Entry(glob, value.equals("DOWN"), ttl == null ? null : ttl.getSeconds())));
    }

    /** Removes the entry for exactly {@code glob}. */
    public void release(String glob) throws IOException {
        requireCleanFile();
        if (current.entries().stream().noneMatch(e -> e.glob().equals(glob))) {
            throw new IllegalArgumentException("no forced state for '" + glob + "'");
        }
        write(current.without(glob));
    }

    private void requireCleanFile() {
        if (lastError != null) {
            throw new IllegalStateException("the admin_state file " + file + " has errors; fix or delete it first: " + lastError);
        }
    }

    private void write(AdminState next) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        Files.writeString(tmp, next.render(), StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        reload();
    }

    private void pollFile() {
        boolean exists = Files.exists(file);
        FileTime mod = null;
        long size = -1;
        if (exists) {
            try {
                mod = Files.getLastModifiedTime(file);
                size = Files.size(file);
            } catch (IOException e) {
                return;
            }
        }
        if (exists != seenExists || !Objects.equals(mod, seenModified) || size != seenSize) {
            reload();
        }
    }

    /** Reads the file now and applies it when it is clean. */
    public void reload() {
        seenExists = Files.exists(file);
        AdminState next;
        if (!seenExists) {
            seenModified = null;
            seenSize = -1;
            next = AdminState.empty();
        } else {
            String text;
            try {
                seenModified = Files.getLastModifiedTime(file);
                seenSize = Files.size(file);
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                fail("admin_state: Loading file '" + file + "' failed: " + e.getMessage());
                return;
            }
            try {
                next = AdminState.parse(text, file.toString());
            } catch (IllegalArgumentException e) {
                fail(e.getMessage());
                return;
            }
        }
        lastError = null;
        AdminState before = current;
        current = next;
        for (AdminState.Entry e : next.entries()) {
            AdminState.Entry old = before.entries().stream().filter(o -> o.glob().equals(e.glob())).findFirst().orElse(null);
            if (!e.equals(old)) {
                publish.accept(new EngineEvent.ForcedStateChanged(scheduler.now(), e.glob(), e.value(),
                        old == null ? "forced" : "re-forced from " + old.value()));
            }
        }
        for (AdminState.Entry old : before.entries()) {
            if (next.entries().stream().noneMatch(e -> e.glob().equals(old.glob()))) {
                publish.accept(new EngineEvent.ForcedStateChanged(scheduler.now(), old.glob(), "RELEASED",
                        "no longer forced (was " + old.value() + ")"));
            }
        }
        onApply.accept(next);
    }

    private void fail(String message) {
        lastError = message;
        publish.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.POOLS, Severity.ERROR, message
                + "; all contents were ignored and any current forced states are unaffected"));
    }
}
