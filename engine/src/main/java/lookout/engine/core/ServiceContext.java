package lookout.engine.core;

import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.Map;
import java.util.random.RandomGenerator;
import lookout.engine.api.Actor;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.Scheduler;
import lookout.engine.net.Transport;

/**
 * What a service gets from the engine: the loop and clock, randomness, the event sink, the Netty
 * group its sockets register on, the state directory, the engine's options and the seams other
 * services offer.
 *
 * <p>With a real clock, {@link #io()} is the engine loop itself, so socket handlers are already on
 * the loop; with a virtual clock it is a separate group and handlers hop in with
 * {@code scheduler().run(...)}. Handlers must always use {@code run}, never assume either.
 */
public interface ServiceContext {

    /** The package every seam type lives in: services meet only through interfaces declared there. */
    String SEAMS_PACKAGE = "lookout.engine.seams";

    Scheduler scheduler();

    RandomGenerator random();

    EventLoopGroup io();

    /** How the engine was built: the I/O choices a launcher made (transport, UDP reads, forwarding). */
    EngineOptions options();

    /** The transport of {@link #io()}: every socket a service opens comes from it. */
    default Transport transport() {
        return Transport.of(io());
    }

    void publish(EngineEvent event);

    /** {@code state_dir}, created on demand. */
    Path stateDir();

    Map<String, String> environment();

    /**
     * The running service that offers seam {@code type} (an interface of {@link #SEAMS_PACKAGE}),
     * or null when none does. Services never name each other's classes: this is how they meet.
     *
     * @throws IllegalArgumentException when {@code type} is not a declared seam
     */
    <T> T seam(Class<T> type);

    /** Throws unless {@code type} is a declared seam; implementations call it first. */
    static void requireSeam(Class<?> type) {
        if (!type.isInterface() || !SEAMS_PACKAGE.equals(type.getPackageName())) {
            throw new IllegalArgumentException(type.getName() + " is not a seam between services (an interface of "
                    + SEAMS_PACKAGE + ")");
        }
    }

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

    /**
     * The engine facade itself, for the control API (never called on the engine loop: its
     * blocking methods would wait for the loop), or null when this context is no engine (a test's).
     */
    default Engine engine() {
        return this instanceof Engine engine ? engine : null;
    }

    /**
     * Records a write refused before it reached the engine (no token, the wrong role, a malformed
     * request) in the audit log, as {@link Engine#actingAs} records the ones that reach it. A
     * context that is no engine has no audit log.
     */
    default void recordRefusal(Actor actor, String action, Map<String, Object> args, String reason) {
    }
}
