package lookout.engine.control;

import java.util.function.Supplier;

/** The control API's routes (docs/design/control.md), for the status listener's {@link Router}. */
public final class ControlApi {

    private ControlApi() {
    }

    /**
     * A router with every {@code /api/v1/} route; the listener adds {@code /status} and
     * {@code /metrics} to it.
     *
     * @param engineName this engine's name, as {@code GET /api/v1/engine} gives it
     */
    public static Router routes(Supplier<String> engineName) {
        Router r = new Router();
        new EngineRoutes(engineName).register(r);
        new ConfigRoutes().register(r);
        new PoolRoutes().register(r);
        new PvaRoutes().register(r);
        r.add("GET", ApiHandler.EVENTS, Access.READ, null, (req, engine) -> {
            throw new IllegalStateException("the event stream is served by EventStream");
        });
        return r;
    }
}
