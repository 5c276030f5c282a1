package lookout.engine.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigResult;

/**
 * The Lookout engine: DNS resolver, weighted pools with monitors, PVA name resolution. All
 * protocol state lives on the engine's loop ({@link Scheduler}); callers on other threads see it
 * only through {@link #snapshot()} values and events, and change it only through these methods.
 *
 * <p>Engines are made by the composition root, {@code lookout.engine.boot.Engines#create}.
 *
 * <p>Concurrency: every method is safe from any thread except the engine loop itself, where the
 * blocking ones ({@link #start}, {@link #apply}, {@link #stop}, {@link #snapshot}) must not be
 * called.
 */
public interface Engine extends AutoCloseable {

    /** Starts every service on {@code config} (version 1). Throws if a listener cannot bind. */
    void start(Config config);

    /**
     * Live reload with an already validated configuration: diffed against the running one and
     * applied atomically on the engine loop; in-flight work finishes on what it started with. All or
     * nothing: when a service cannot take the candidate (a port it must bind is taken, say), every
     * service goes back to the running configuration, the version stays, and the result says why
     * ({@link ReloadResult#failure()}).
     */
    ReloadResult apply(Config candidate);

    /** Live reload from a parse result: a result with problems is rejected and changes nothing. */
    ReloadResult apply(ConfigResult candidate);

    /** Parses, validates and applies {@code text} as the new configuration. */
    ReloadResult reload(String text, String sourceName, Path baseDir);

    /** Stops every service and closes every socket; idempotent. */
    void stop();

    @Override
    default void close() {
        stop();
    }

    EngineState state();

    /** The current state of everything, built on the engine loop. */
    EngineSnapshot snapshot();

    /** Registers a listener for events; the returned handle unsubscribes. Listeners must not block. */
    AutoCloseable subscribe(Consumer<EngineEvent> listener);

    /** The engine's clock and timers. */
    Scheduler scheduler();

    // ---- operator commands (each completes on the engine loop) ----

    /** Resolves {@code name}/{@code type} through the resolver as a client would, with the full trace. */
    CompletableFuture<ResolveTrace> resolve(String name, String type);

    /**
     * Forces an address or resource (gdnsd admin_state key: glob allowed) {@code UP} or {@code DOWN},
     * optionally for {@code ttl} only (null = until released). Persisted in {@code state_dir}.
     */
    CompletableFuture<Void> force(String key, String state, Duration ttl);

    /** Releases a forced state. */
    CompletableFuture<Void> release(String key);

    /**
     * What-if odds: every resource as it would be if the monitors matching each glob key of
     * {@code hypothetical} were in the given state ({@code UP}/{@code DOWN}); nothing is applied.
     */
    CompletableFuture<java.util.List<PoolsSnapshot.PoolResource>> whatIf(java.util.Map<String, String> hypothetical);

    /**
     * The odds {@code candidate}'s weighted pools would give under the current monitor and forced
     * states, nothing applied (the console's "odds before → after" in the diff). A monitor the
     * running configuration does not have counts as admin_state forces it, else UP.
     */
    CompletableFuture<java.util.List<PoolsSnapshot.PoolResource>> candidateOdds(lookout.engine.config.Config candidate);

    /** Starts searching a PV name (the console's search box). */
    CompletableFuture<Void> searchPv(String name);

    /** Stops searching a PV name added with {@link #searchPv}. */
    CompletableFuture<Void> dropPv(String name);

    /** Sends one discovery ping to every search destination (seed 002 §7). */
    CompletableFuture<Void> discoveryPing();

    /** Expedited search (seed 002 §3.2 hurry-up), subject to the 30-s holdoff. */
    CompletableFuture<Boolean> searchNow();
}
