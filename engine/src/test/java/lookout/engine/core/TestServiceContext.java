package lookout.engine.core;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.Scheduler;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.net.Transport;

/**
 * The service context that tests of one service use instead of a whole engine: a given clock (or,
 * with none, a real clock on this context's own I/O loop, as in the engine), a real Netty group,
 * the events published, and siblings registered by hand.
 */
public class TestServiceContext implements ServiceContext, AutoCloseable {

    public final EventLoopGroup io = new MultiThreadIoEventLoopGroup(1,
            Transport.choose(null).ioHandlerFactory());
    public final Scheduler scheduler;
    public final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final RandomGenerator random;
    private final Path stateDir;
    private final Map<String, String> environment;
    private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();
    private volatile EngineOptions options;

    /** @param scheduler the clock, or null for a real clock on {@link #io}'s loop */
    public TestServiceContext(Scheduler scheduler, RandomGenerator random, Path stateDir,
                              Map<String, String> environment) {
        this.scheduler = scheduler != null ? scheduler : new NettyScheduler(io.next());
        this.random = random;
        this.stateDir = stateDir;
        this.environment = Map.copyOf(environment);
        this.options = EngineOptions.forTest(this.scheduler, random, stateDir).withEnvironment(environment);
    }

    /** Makes {@code service} what {@link #seam(Class)} returns for {@code type} (a seam interface). */
    public <T> void register(Class<T> type, T service) {
        ServiceContext.requireSeam(type);
        services.put(type, service);
    }

    /** Replaces the engine options the services see (UDP reads, forwarding, ...). */
    public TestServiceContext options(EngineOptions o) {
        this.options = o;
        return this;
    }

    /** The events of one type published so far. */
    public <T extends EngineEvent> List<T> events(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public EventLoopGroup io() {
        return io;
    }

    @Override
    public void publish(EngineEvent event) {
        events.add(event);
    }

    @Override
    public Path stateDir() {
        return stateDir;
    }

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public EngineOptions options() {
        return options;
    }

    @Override
    public <T> T seam(Class<T> type) {
        ServiceContext.requireSeam(type);
        return type.cast(services.get(type));
    }

    @Override
    public void close() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        if (scheduler instanceof VirtualScheduler v) {
            v.close();
        }
    }
}
