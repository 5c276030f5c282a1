package lookout.engine.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import lookout.engine.api.Metric;

/**
 * The Prometheus text exposition format (version 0.0.4) of the snapshot's metrics: samples of
 * one name are grouped under a single {@code # HELP} and {@code # TYPE} line (the first sample's
 * help and type win), names in order of first appearance, labels sorted by name.
 *
 * <p>A family whose every sample carries a {@code quantile} label is a summary's quantiles, and is
 * typed {@code summary}: the format reserves that label for summaries ("quantile" on any other
 * type is rejected by {@code promtool check metrics}). Such a family is written without
 * {@code _sum} and {@code _count}, which the format allows (they are optional), when its samples
 * are percentiles over a recent window, as the resolver's upstream latencies are.
 */
public final class PrometheusWriter {

    /** The {@code Content-Type} a Prometheus scraper expects for this format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusWriter() {
    }

    public static String write(List<Metric> metrics) {
        Map<String, List<Metric>> byName = new LinkedHashMap<>();
        for (Metric m : metrics) {
            byName.computeIfAbsent(metricName(m.name()), k -> new ArrayList<>()).add(m);
        }
        StringBuilder out = new StringBuilder(64 * metrics.size() + 16);
        for (Map.Entry<String, List<Metric>> e : byName.entrySet()) {
            String name = e.getKey();
            Metric first = e.getValue().get(0);
            if (first.help() != null && !first.help().isEmpty()) {
                out.append("# HELP ").append(name).append(' ').append(escapeHelp(first.help())).append('\n');
            }
            boolean quantiles = e.getValue().stream().allMatch(m -> m.labels().containsKey("quantile"));
            out.append("# TYPE ").append(name).append(' ').append(quantiles ? "summary" : type(first.type()))
                    .append('\n');
            for (Metric m : e.getValue()) {
                out.append(name);
                if (!m.labels().isEmpty()) {
                    out.append('{');
                    boolean firstLabel = true;
                    for (Map.Entry<String, String> l : new TreeMap<>(m.labels()).entrySet()) {
                        if (!firstLabel) {
                            out.append(',');
                        }
                        firstLabel = false;
                        out.append(labelName(l.getKey())).append("=\"")
                                .append(escapeLabelValue(l.getValue())).append('"');
                    }
                    out.append('}');
                }
                out.append(' ').append(value(m.value())).append('\n');
            }
        }
        return out.toString();
    }

    /** Only {@code counter}, {@code gauge} and {@code untyped} are meaningful for plain samples. */
    private static String type(String t) {
        return "counter".equals(t) || "gauge".equals(t) ? t : "untyped";
    }


    static String value(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    /** Metric names match {@code [a-zA-Z_:][a-zA-Z0-9_:]*}; anything else becomes {@code _}. */
    static String metricName(String name) {
        return sanitize(name, true);
    }

    /** Label names match {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
    static String labelName(String name) {
        return sanitize(name, false);
    }

    private static String sanitize(String name, boolean colonAllowed) {
        if (name == null || name.isEmpty()) {
            return "_";
        }
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
                    || (colonAllowed && c == ':') || (i > 0 && c >= '0' && c <= '9');
            b.append(ok ? c : '_');
        }
        return b.toString();
    }

    /** Label values: backslash, double quote and line feed are escaped. */
    static String escapeLabelValue(String v) {
        if (v == null) {
            return "";
        }
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Help text: backslash and line feed are escaped (quotes are literal there). */
    static String escapeHelp(String v) {
        return v.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
