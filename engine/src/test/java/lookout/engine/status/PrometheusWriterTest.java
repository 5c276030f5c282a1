package lookout.engine.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import lookout.engine.api.Metric;
import org.junit.jupiter.api.Test;

class PrometheusWriterTest {

    @Test
    void helpAndTypeOncePerNameLabelsSortedAndEscaped() {
        List<Metric> ms = List.of(
                new Metric("lookout_dns_queries_total", "Queries", "counter", Map.of("scope", "corp"), 5),
                Metric.gauge("lookout_config_version", "Running configuration version", 3),
                new Metric("lookout_dns_queries_total", "ignored", "counter",
                        Map.of("scope", "a\"b\\c\nd", "af", "inet"), 0.5));
        assertThat(PrometheusWriter.write(ms)).isEqualTo("""
                # HELP lookout_dns_queries_total Queries
                # TYPE lookout_dns_queries_total counter
                lookout_dns_queries_total{scope="corp"} 5
                lookout_dns_queries_total{af="inet",scope="a\\"b\\\\c\\nd"} 0.5
                # HELP lookout_config_version Running configuration version
                # TYPE lookout_config_version gauge
                lookout_config_version 3
                """);
    }

    @Test
    void specialValuesNamesAndHelp() {
        assertThat(PrometheusWriter.value(Double.NaN)).isEqualTo("NaN");
        assertThat(PrometheusWriter.value(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(PrometheusWriter.value(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(PrometheusWriter.value(-2)).isEqualTo("-2");
        assertThat(PrometheusWriter.metricName("1a-b:c")).isEqualTo("_a_b:c");
        assertThat(PrometheusWriter.labelName("a:b")).isEqualTo("a_b");
        assertThat(PrometheusWriter.escapeHelp("a\\b\nc\"")).isEqualTo("a\\\\b\\nc\"");
        assertThat(PrometheusWriter.write(List.of(new Metric("m", "", "summary", Map.of(), 1))))
                .isEqualTo("# TYPE m untyped\nm 1\n");
    }

    @Test
    void aFamilyOfQuantilesIsASummary() {
        List<Metric> ms = List.of(
                new Metric("lookout_x_seconds", "Latency", "gauge", Map.of("upstream", "a", "quantile", "0.5"), 0.01),
                new Metric("lookout_x_seconds", "Latency", "gauge", Map.of("upstream", "a", "quantile", "0.99"), 0.2),
                new Metric("lookout_y", "Mixed", "gauge", Map.of("quantile", "0.5"), 1),
                new Metric("lookout_y", "Mixed", "gauge", Map.of(), 2));
        assertThat(PrometheusWriter.write(ms)).isEqualTo("""
                # HELP lookout_x_seconds Latency
                # TYPE lookout_x_seconds summary
                lookout_x_seconds{quantile="0.5",upstream="a"} 0.01
                lookout_x_seconds{quantile="0.99",upstream="a"} 0.2
                # HELP lookout_y Mixed
                # TYPE lookout_y gauge
                lookout_y{quantile="0.5"} 1
                lookout_y 2
                """);
    }
}
