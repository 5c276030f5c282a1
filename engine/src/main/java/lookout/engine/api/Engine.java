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

    /**
     * Starts every service on {@code config}. Throws if a listener cannot bind. The version
     * continues from the last run on the same state directory ({@code STATE_DIR/version}): the
     * same text keeps its number, another one gets the next; 1 on a fresh state directory.
     */
    void start(Config config);

    /**
     * Live reload with an already validated configuration, in memory only (nothing is written
     * back; {@link #applyText} is the operator's apply that saves): diffed against the running
     * one and applied atomically on the engine loop; in-flight work finishes on what it started with. All or
     * nothing: when a service cannot take the candidate (a port it must bind is taken, say), every
     * service goes back to the running configuration, the version stays, and the result says why
     * ({@link ReloadResult#failure()}). Audited.
     */
    ReloadResult apply(Config candidate);

    /** Live reload from a parse result: a result with problems is rejected and changes nothing. */
    ReloadResult apply(ConfigResult candidate);

    /** Parses, validates and applies {@code text} as the new configuration. */
    ReloadResult reload(String text, String sourceName, Path baseDir);

    /**
     * The operator's apply: parses and validates {@code text} against the engine's configuration
     * file (FILE:LINE:COLUMN problems name it), refuses what would remove every service unless
     * {@link ApplyRequest#confirmEmpty}, refuses when the file on disk is not the running
     * configuration (edited by hand) unless {@link ApplyRequest#force}, applies it atomically
     * ({@link #apply(Config)}) and, when the engine runs on a file, writes it back atomically with
     * the previous content kept as a numbered backup in {@code STATE_DIR/backups}. A dry run only
     * validates and diffs. Audited. Blocking; not on the engine loop.
     */
    default ApplyOutcome applyText(String text, ApplyRequest request) {
        throw new UnsupportedOperationException("this engine does not apply configuration texts");
    }

    /**
     * Re-reads the engine's configuration file and applies it (SIGHUP, the console's Reload):
     * {@link #applyText} without the write-back, since the text is the file's (and without the
     * edited-on-disk check: the edit is what is reloaded). Refused ({@link ApplyOutcome.Status#FAILED})
     * when the engine runs on no file.
     */
    default ApplyOutcome reloadFile(ApplyRequest request) {
        throw new UnsupportedOperationException("this engine does not reload files");
    }

    /**
     * Parses and validates {@code text} as {@link #applyText} would (the same file name, directory
     * and environment), nothing applied: the console's live check, the API's candidate odds.
     */
    default ConfigResult parse(String text) {
        throw new UnsupportedOperationException("this engine does not parse configuration texts");
    }

    /** The configuration file the engine runs on and writes back to, or null (embedded default, a text). */
    default Path configFile() {
        return null;
    }

    /**
     * A view of this engine whose writes are audited as {@code actor}'s (the control API passes
     * the token name and peer address of each request); reads go straight through. The plain
     * facade audits as {@link Actor#CONSOLE}.
     */
    default Engine actingAs(Actor actor) {
        return this;
    }

    /** The last {@code limit} records of {@code STATE_DIR/audit.log}, oldest first. Blocking. */
    default java.util.List<AuditRecord> audit(int limit) {
        return java.util.List.of();
    }

    /** The kept journal events after sequence number {@code seq}, oldest first. */
    default EventsSince eventsSince(long seq) {
        throw new UnsupportedOperationException("this engine keeps no event journal");
    }

    /**
     * Registers a listener for events with their sequence numbers, called in sequence order (under
     * the journal's lock: it must only hand the event on, never block). The handle unsubscribes.
     */
    default AutoCloseable subscribeSequenced(Consumer<SequencedEvent> listener) {
        throw new UnsupportedOperationException("this engine keeps no event journal");
    }

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

    // Writes below are audited ({@link #actingAs}).

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

    /**
     * What the PVA client knows about one PV name (the console's "why?"): its searches, the replies
     * for it and where from, duplicates, its place in the ring, the destinations failing now. A
     * read: nothing changes, nothing is searched.
     */
    default CompletableFuture<PvaChannelDiagnosis> diagnosePv(String name) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this engine cannot diagnose a PV"));
    }

    /** Expedited search (seed 002 §3.2 hurry-up), subject to the 30-s holdoff. */
    CompletableFuture<Boolean> searchNow();
}
