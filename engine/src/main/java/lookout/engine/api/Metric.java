package lookout.engine.api;

import java.util.Map;

/**
 * One sample for {@code GET /metrics} (Prometheus text format).
 *
 * @param name   metric name, {@code lookout_} prefixed, snake case
 * @param help   one line of help text
 * @param type   {@code counter} or {@code gauge}
 * @param labels label names to values (may be empty)
 * @param value  the sample
 */
public record Metric(String name, String help, String type, Map<String, String> labels, double value) {

    public Metric {
        labels = Map.copyOf(labels);
    }

    public static Metric counter(String name, String help, double value) {
        return new Metric(name, help, "counter", Map.of(), value);
    }

    public static Metric gauge(String name, String help, double value) {
        return new Metric(name, help, "gauge", Map.of(), value);
    }
}
