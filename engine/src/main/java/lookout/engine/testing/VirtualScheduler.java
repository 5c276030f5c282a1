package lookout.engine.testing;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import lookout.engine.api.Scheduler;

/**
 * A {@link Scheduler} whose clock only moves when a test says so. Tasks run on one dedicated
 * thread (so confinement is the same as with a real event loop, and real socket handlers can hop
 * in with {@link #execute}); timers fire only inside {@link #advance(Duration)}, in due order, with
 * {@link #nanoTime()} equal to each timer's due time while it runs.
 *
 * <p>Concurrency: {@code queue} and {@code timers} are shared between callers and the loop thread
 * and guarded by {@code this}; {@code nanos} is written only by the loop thread.
 */
public final class VirtualScheduler implements Scheduler, AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.engine.time");

    private final Instant epoch;
    private final long origin;
    private final AtomicLong nanos;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Thread thread;
    private long sequence;
    private volatile boolean closed;

    /** A virtual clock that starts at {@code start} (wall clock) and nanoTime {@code startNanos}. */
    public VirtualScheduler(Instant start, long startNanos) {
        this.epoch = start;
        this.origin = startNanos;
        this.nanos = new AtomicLong(startNanos);
        this.thread = new Thread(this::loop, "lookout-virtual-loop");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** A virtual clock at 2026-01-01T00:00:00Z. */
    public VirtualScheduler() {
        this(Instant.parse("2026-01-01T00:00:00Z"), 1_000_000_000_000L);
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public Instant now() {
        return epoch.plusNanos(nanos.get() - origin);
    }

    @Override
    public Cancellable schedule(Runnable task, long delay, TimeUnit unit) {
        Timer t = new Timer(task, nanos.get() + Math.max(0, unit.toNanos(delay)), 0);
        synchronized (this) {
            t.seq = sequence++;
            timers.add(t);
        }
        return t;
    }

    @Override
    public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        if (period <= 0) {
            throw new IllegalArgumentException("period must be positive");
        }
        Timer t = new Timer(task, nanos.get() + Math.max(0, unit.toNanos(initialDelay)), unit.toNanos(period));
        synchronized (this) {
            t.seq = sequence++;
            timers.add(t);
        }
        return t;
    }

    @Override
    public void execute(Runnable task) {
        if (closed) {
            return;
        }
        queue.add(task);
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /**
     * Moves the clock forward by {@code by}, firing every timer that falls due on the way, in
     * order, and runs the tasks they queue. Returns when the loop is idle at the new time.
     * Must not be called from the loop thread.
     */
    public void advance(Duration by) {
        if (inLoop()) {
            throw new IllegalStateException("advance() from the loop thread would deadlock");
        }
        long target = nanos.get() + by.toNanos();
        call(() -> {
            runTimersUntil(target);
            return null;
        });
    }

    /** Runs every queued task and every timer due at the current time; returns when idle. */
    public void runPending() {
        advance(Duration.ZERO);
    }

    /** Number of timers scheduled and not cancelled (for tests). */
    public synchronized int pendingTimers() {
        return (int) timers.stream().filter(t -> !t.cancelled).count();
    }

    /** Runs {@code body} on the loop thread and returns its result (for tests). */
    public <T> T call(java.util.concurrent.Callable<T> body) {
        if (inLoop()) {
            try {
                return body.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        execute(() -> {
            try {
                drainQueue();
                f.complete(body.call());
                drainQueue();
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("virtual loop did not answer within 60 s", e);
        }
    }

    private void runTimersUntil(long target) {
        while (true) {
            drainQueue();
            Timer next;
            synchronized (this) {
                next = timers.peek();
                if (next == null || next.due - target > 0) {
                    break;
                }
                timers.poll();
            }
            if (next.cancelled) {
                continue;
            }
            if (next.due - nanos.get() > 0) {
                nanos.set(next.due);
            }
            runSafely(next.task);
            if (next.period > 0 && !next.cancelled) {
                next.due += next.period;
                synchronized (this) {
                    next.seq = sequence++;
                    timers.add(next);
                }
            }
        }
        if (target - nanos.get() > 0) {
            nanos.set(target);
        }
        drainQueue();
    }

    private void drainQueue() {
        Runnable r;
        int guard = 0;
        while ((r = queue.poll()) != null) {
            runSafely(r);
            if (++guard > 10_000_000) {
                LOG.log(Level.WARNING, "virtual loop: task queue does not drain");
                break;
            }
        }
    }

    private void loop() {
        while (!closed) {
            try {
                Runnable r = queue.poll(100, TimeUnit.MILLISECONDS);
                if (r != null) {
                    runSafely(r);
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void runSafely(Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            // A failing task must never stop the loop or a periodic timer (STYLE: pvxs timers).
            LOG.log(Level.ERROR, "task failed on the virtual loop", t);
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }

    private static final class Timer implements Comparable<Timer>, Cancellable {
        final Runnable task;
        final long period;
        long due;
        long seq;
        volatile boolean cancelled;

        Timer(Runnable task, long due, long period) {
            this.task = task;
            this.due = due;
            this.period = period;
        }

        @Override
        public int compareTo(Timer o) {
            // by difference: nanoTime wraps (Scheduler: only differences are meaningful)
            int c = Long.compare(due - o.due, 0);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }
}
