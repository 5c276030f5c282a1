package lookout.engine.status;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.control.Access;
import lookout.engine.control.ApiReply;
import lookout.engine.control.Router;
import lookout.engine.json.JsonWriter;

/**
 * {@code GET /status} (the engine snapshot as JSON; {@code ?pretty} indents it) and
 * {@code GET /metrics} (Prometheus text format 0.0.4), as they have always been: reads, so open on
 * loopback and behind a viewer token beyond it.
 */
final class SnapshotRoutes {

    private final StatusCounters counters;
    private final Supplier<EngineSnapshot> snapshots;

    /** @param snapshots the engine's snapshot, built on its loop and waited for (never call it there) */
    SnapshotRoutes(StatusCounters counters, Supplier<EngineSnapshot> snapshots) {
        this.counters = counters;
        this.snapshots = snapshots;
    }

    void register(Router r) {
        r.add("GET", "/status", Access.READ, null, (req, engine) -> {
            EngineSnapshot s = snapshot();
            counters.status.increment();
            boolean pretty = req.query().containsKey("pretty");
            String body = pretty ? JsonWriter.writePretty(s) : JsonWriter.write(s) + "\n";
            return CompletableFuture.completedFuture(new ApiReply(200, ApiReply.JSON, body, java.util.Map.of(), "ok"));
        });
        r.add("GET", "/metrics", Access.READ, null, (req, engine) -> {
            EngineSnapshot s = snapshot();
            counters.metrics.increment();
            return CompletableFuture.completedFuture(new ApiReply(200, PrometheusWriter.CONTENT_TYPE,
                    PrometheusWriter.write(s.metrics()), java.util.Map.of(), "ok"));
        });
    }

    private EngineSnapshot snapshot() {
        try {
            return snapshots.get();
        } catch (RuntimeException e) {
            // The engine loop did not answer (stopping, or stuck): say so rather than hang.
            throw new IllegalStateException("snapshot unavailable: " + e.getMessage(), e);
        }
    }
}
