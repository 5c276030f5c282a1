package lookout.console.remote;

import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;

/**
 * The real clock for a console's remote side (reconnect delays, the event stream's silence
 * check): one daemon thread. Tests pass {@code lookout.engine.testing.VirtualScheduler} instead.
 */
public final class SystemTimer implements Scheduler, AutoCloseable {

    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    public SystemTimer(String name) {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(() -> {
                thread = Thread.currentThread();
                r.run();
            }, name);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
        if (executor.isShutdown()) {
            return Cancellable.NONE;
        }
        ScheduledFuture<?> f = executor.schedule(guarded(task), delay, unit);
        return () -> f.cancel(false);
    }

    @Override
    public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        if (executor.isShutdown()) {
            return Cancellable.NONE;
        }
        ScheduledFuture<?> f = executor.scheduleAtFixedRate(guarded(task), initialDelay, period, unit);
        return () -> f.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        if (!executor.isShutdown()) {
            executor.execute(guarded(task));
        }
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /** A task that throws is logged and dropped (as the engine's scheduler promises). */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                System.getLogger("lookout.console.remote").log(System.Logger.Level.WARNING,
                        "timer task failed: " + e.getMessage(), e);
            }
        };
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
