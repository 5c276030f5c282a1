package lookout.engine.control;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import lookout.engine.api.Metric;

/**
 * {@code lookout_control_requests_total{route,result}}: every request of the HTTP listener by
 * route (the path of a known route, {@code other} for the rest, so that a scanner cannot grow the
 * label set) and outcome; and the event streams open now. Written by the HTTP and worker threads,
 * read by the engine loop when it builds a snapshot; lock-free.
 */
public final class ControlCounters {

    static final String NAME = "lookout_control_requests_total";
    static final String HELP = "Requests to the HTTP listener (status, metrics, control API), by route and outcome";

    private final Set<String> routes;
    private final Map<List<String>, LongAdder> counts = new ConcurrentHashMap<>();
    final AtomicInteger streams = new AtomicInteger();
    final LongAdder connectionsRefused = new LongAdder();

    public ControlCounters(Set<String> routes) {
        this.routes = Set.copyOf(routes);
    }

    public void count(String path, String result) {
        String route = path != null && routes.contains(path) ? path : "other";
        counts.computeIfAbsent(List.of(route, result), k -> new LongAdder()).increment();
    }

    public long counted(String route, String result) {
        LongAdder a = counts.get(List.of(route, result));
        return a == null ? 0 : a.sum();
    }

    public void connectionRefused() {
        connectionsRefused.increment();
    }

    public void contribute(java.util.function.Consumer<Metric> out) {
        for (Map.Entry<List<String>, LongAdder> e : counts.entrySet()) {
            out.accept(new Metric(NAME, HELP, "counter", Map.of("route", e.getKey().get(0), "result", e.getKey().get(1)),
                    e.getValue().sum()));
        }
        out.accept(Metric.gauge("lookout_control_event_streams", "Event streams (server-sent events) open now",
                streams.get()));
        out.accept(Metric.counter("lookout_control_connections_refused_total",
                "Connections closed at once because the listener had its maximum open", connectionsRefused.sum()));
    }
}
