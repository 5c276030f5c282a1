package lookout.engine.api;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The one clock and timer source of the engine. Every protocol timer — 2-s attempt deadlines,
 * 30-s demotion marks, 1-s ring ticks, 10-ms coalescing, beacon intervals and expiry, monitor
 * intervals — is scheduled here, so that tests can run them in virtual time
 * ({@link VirtualScheduler}).
 *
 * <p>A scheduler is also an executor with a single owning thread: protocol state confined to the
 * engine loop is only touched from tasks run here. I/O handlers on other threads hop in with
 * {@link #execute(Runnable)}; code that may already be on the loop uses {@link #run(Runnable)}.
 *
 * <p>Concurrency: every method may be called from any thread. Tasks run one at a time on the
 * owning thread. A task that throws is logged and dropped; it never kills the loop or a periodic
 * timer.
 */
public interface Scheduler {

    /** Monotonic time in nanoseconds; only differences are meaningful. */
    long nanoTime();

    /** Wall-clock time, for display and event stamps only, never for protocol decisions. */
    Instant now();

    /** Runs {@code task} on the owning thread after {@code delay}. */
    Cancellable schedule(Runnable task, long delay, TimeUnit unit);

    /**
     * Runs {@code task} every {@code period} after {@code initialDelay}, at fixed rate measured
     * on this scheduler's clock. An exception in one run does not cancel later runs.
     */
    Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit);

    /** Queues {@code task} to run on the owning thread. */
    void execute(Runnable task);

    /** True on the owning thread. */
    boolean inLoop();

    /** Runs {@code task} now when already on the owning thread, else queues it. */
    default void run(Runnable task) {
        if (inLoop()) {
            task.run();
        } else {
            execute(task);
        }
    }

    /** A handle on a scheduled task. */
    interface Cancellable {
        /** Cancels the task if it has not run yet (or stops a periodic one); idempotent. */
        void cancel();

        Cancellable NONE = () -> { };
    }
}
