package lookout.engine.status;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import lookout.engine.api.Metric;
import lookout.engine.core.SnapshotBuilder;

/**
 * Request counters of the status endpoint. Written by the HTTP thread, read by the engine loop
 * when it builds a snapshot; {@link LongAdder}s make both sides lock-free.
 */
final class StatusCounters {

    final LongAdder status = new LongAdder();
    final LongAdder metrics = new LongAdder();
    final LongAdder notFound = new LongAdder();
    final LongAdder badMethod = new LongAdder();
    final LongAdder badRequest = new LongAdder();
    final LongAdder unavailable = new LongAdder();

    void contribute(SnapshotBuilder b) {
        String name = "lookout_status_requests_total";
        String help = "HTTP requests to the status endpoint, by path or outcome";
        b.metric(sample(name, help, "/status", status));
        b.metric(sample(name, help, "/metrics", metrics));
        b.metric(sample(name, help, "not_found", notFound));
        b.metric(sample(name, help, "method_not_allowed", badMethod));
        b.metric(sample(name, help, "bad_request", badRequest));
        b.metric(sample(name, help, "unavailable", unavailable));
    }

    private static Metric sample(String name, String help, String what, LongAdder a) {
        return new Metric(name, help, "counter", Map.of("request", what), a.sum());
    }
}
