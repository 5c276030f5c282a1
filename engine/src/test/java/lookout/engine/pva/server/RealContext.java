package lookout.engine.pva.server;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.core.ServiceContext;

/**
 * A production-like service context: real clock, and the engine loop is the Netty I/O loop (as
 * the engine runs with a real clock), with sibling services registered by the test.
 */
final class RealContext implements ServiceContext, AutoCloseable {
    final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final EventLoop loop = io.next();
    final Map<String, String> env;
    final Map<Class<?>, Object> services = new HashMap<>();
    final Scheduler scheduler = new Scheduler() {
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
            var f = loop.schedule(task, delay, unit);
            return () -> f.cancel(false);
        }

        @Override
        public Cancellable scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
            var f = loop.scheduleAtFixedRate(task, initialDelay, period, unit);
            return () -> f.cancel(false);
        }

        @Override
        public void execute(Runnable task) {
            loop.execute(task);
        }

        @Override
        public boolean inLoop() {
            return loop.inEventLoop();
        }
    };

    RealContext(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    <T> void register(Class<T> type, T service) {
        services.put(type, service);
    }

    <T> T onLoop(Callable<T> body) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                f.complete(body.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f.get(30, TimeUnit.SECONDS);
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public RandomGenerator random() {
        return new SplittableRandom();
    }

    @Override
    public EventLoopGroup io() {
        return io;
    }

    @Override
    public void publish(EngineEvent event) {
    }

    @Override
    public Path stateDir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    @Override
    public Map<String, String> environment() {
        return env;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T service(Class<T> type) {
        return (T) services.get(type);
    }

    @Override
    public void close() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
