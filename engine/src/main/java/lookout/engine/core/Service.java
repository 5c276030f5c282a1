package lookout.engine.core;

import lookout.engine.config.Config;

/**
 * A part of the engine with its own protocol state: resolver, pools, PVA client, PVA server,
 * status endpoint. Every method is called on the engine loop.
 */
public interface Service {

    /** Short name for logs ({@code resolver}, {@code pva-client}, ...). */
    String name();

    /** Starts on {@code config}; may bind sockets. Throwing aborts the engine start. */
    void start(ServiceContext context, Config config) throws Exception;

    /**
     * Applies a validated new configuration. Must keep what SPEC says survives a reload (marks,
     * ring positions, monitor state) and let in-flight work finish on what it started with.
     * Throwing is logged as an error event; the other services still apply.
     */
    void apply(Config before, Config after) throws Exception;

    /** Stops and releases every socket and timer; idempotent. */
    void stop();

    /** Puts this service's section and metrics into the snapshot being built. */
    void contribute(SnapshotBuilder snapshot);
}
