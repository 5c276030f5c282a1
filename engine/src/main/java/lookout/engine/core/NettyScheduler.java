package lookout.engine.core;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;

/** The real {@link Scheduler}: one Netty event loop and the system clocks (public for tests; the package is not exported). */
public final class NettyScheduler implements Scheduler {

    private static final Logger LOG = System.getLogger("lookout.engine.loop");

    private final EventLoop loop;

    public NettyScheduler(EventLoop loop) {
        this.loop = loop;
    }

    EventLoop loop() {
        return loop;
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
        ScheduledFuture<?> f = loop.schedule(safe(task), delay, unit);
        return () -> f.cancel(false);
    }

    @Override
    public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        ScheduledFuture<?> f = loop.scheduleAtFixedRate(safe(task), initialDelay, period, unit);
        return () -> f.cancel(false);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(safe(task));
    }

    @Override
    public boolean inLoop() {
        return loop.inEventLoop();
    }

    /** A task that throws is logged, never allowed to cancel a periodic timer or kill the loop. */
    private static Runnable safe(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable t) {
                LOG.log(Level.ERROR, "task failed on the engine loop", t);
            }
        };
    }
}
