package lookout.engine.core;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import lookout.engine.api.Actor;
import lookout.engine.api.AuditRecord;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;

/**
 * Records writes: one {@link AuditRecord} line in the audit log and one
 * {@link EngineEvent.AuditRecorded} event per write, accepted or refused.
 *
 * <p>Concurrency: {@link #record} blocks on the disk and runs on the caller's thread; a write that
 * completes on the engine loop (a command future) is recorded on this auditor's own thread
 * ({@link #executor}), so the loop never waits for a disk.
 */
final class Auditor implements AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.engine.audit");

    private final Supplier<AuditLog> log;
    private final Supplier<Scheduler> clock;
    private final Consumer<EngineEvent> publish;
    /** One thread at most, in order, gone after 5 s idle (an engine may live long without a write). */
    private final ExecutorService executor = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "lookout-audit");
                t.setDaemon(true);
                return t;
            });

    /**
     * @param log     the audit log of the running engine (null before the first start)
     * @param clock   the engine's clock
     * @param publish where the {@code AuditRecorded} events go
     */
    Auditor(Supplier<AuditLog> log, Supplier<Scheduler> clock, Consumer<EngineEvent> publish) {
        this.log = log;
        this.clock = clock;
        this.publish = publish;
    }

    /** Where writes that complete on the engine loop are recorded. */
    Executor executor() {
        return executor;
    }

    /** Null when writes may go ahead; else why not (the audit log cannot be written). */
    String refusal() {
        AuditLog l = log.get();
        if (l == null) {
            return null; // not started: the write itself is refused as "engine is NEW"
        }
        return l.ready() ? null : "the audit log " + l.file() + " cannot be written, so no write is done";
    }

    /**
     * Records one write. A log that cannot be written is reported (ERROR) but does not undo the
     * write, which has happened; {@link #refusal} is asked first so that this stays rare.
     */
    void record(Actor actor, String action, Map<String, Object> args, String summary, String result,
                List<String> diff, Long version) {
        Scheduler s = clock.get();
        AuditRecord r = new AuditRecord(s == null ? java.time.Instant.now() : s.now(), actor.token(), actor.peer(),
                action, args, result, diff, version);
        AuditLog l = log.get();
        if (l != null) {
            try {
                l.append(r);
            } catch (IOException e) {
                LOG.log(Level.ERROR, "audit log " + l.file() + ": cannot record " + summary + " (" + result + "): "
                        + e.getMessage());
            }
        }
        publish.accept(new EngineEvent.AuditRecorded(r.at(), r.token(), r.peer(), action, summary, result));
    }

    @Override
    public void close() {
        executor.shutdown();
    }
}
