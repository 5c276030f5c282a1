package lookout.engine.core;

import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.Map;
import java.util.random.RandomGenerator;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.Scheduler;

/**
 * What a service gets from the engine: the loop and clock, randomness, the event sink, the Netty
 * group its sockets register on, the state directory and its sibling services.
 *
 * <p>With a real clock, {@link #io()} is the engine loop itself, so socket handlers are already on
 * the loop; with a virtual clock it is a separate group and handlers hop in with
 * {@code scheduler().run(...)}. Handlers must always use {@code run}, never assume either.
 */
public interface ServiceContext {

    Scheduler scheduler();

    RandomGenerator random();

    EventLoopGroup io();

    /** The transport of {@link #io()}: every socket a service opens comes from it. */
    default Transport transport() {
        return Transport.of(io());
    }

    void publish(EngineEvent event);

    /** {@code state_dir}, created on demand. */
    Path stateDir();

    Map<String, String> environment();

    /** A sibling service implementing {@code type}, or null. */
    <T> T service(Class<T> type);

    /**
     * The whole engine snapshot, built on the engine loop and waited for: call it only from a
     * thread that is not the engine loop (the status endpoint's HTTP thread). The engine's own
     * context ({@code DefaultEngine}, which is the {@link Engine}) answers with
     * {@link Engine#snapshot()}; a test context that is no engine overrides this or has none.
     */
    default EngineSnapshot engineSnapshot() {
        if (this instanceof Engine engine) {
            return engine.snapshot();
        }
        throw new UnsupportedOperationException("this context builds no engine snapshot");
    }
}
