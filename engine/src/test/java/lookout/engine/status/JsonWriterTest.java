package lookout.engine.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.EngineState;
import lookout.engine.api.Metric;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    enum Colour { RED }

    record Inner(String s, double d) {
    }

    /** Not public, like a record an internal package might hand to the snapshot. */
    private record Outer(int i, long l, boolean b, Colour c, Instant at, Duration ttl, List<Inner> inner,
                         Map<String, Integer> map, Object nothing) {
    }

    @Test
    void recordsBecomeObjectsOfTheirComponentsInOrder() {
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put("z", 1);
        map.put("a", 2);
        Outer o = new Outer(-3, 1L << 40, true, Colour.RED, Instant.parse("2026-01-01T00:00:01.5Z"),
                Duration.ofMillis(2500), List.of(new Inner("x", 0.25), new Inner("y", 3.0)), map, null);
        assertThat(JsonWriter.write(o)).isEqualTo("{\"i\":-3,\"l\":1099511627776,\"b\":true,\"c\":\"RED\","
                + "\"at\":\"2026-01-01T00:00:01.500Z\",\"ttl\":\"PT2.5S\","
                + "\"inner\":[{\"s\":\"x\",\"d\":0.25},{\"s\":\"y\",\"d\":3}],"
                + "\"map\":{\"z\":1,\"a\":2},\"nothing\":null}");
    }

    @Test
    void stringsAreEscapedPerRfc8259() {
        String nasty = "q\"b\\n\nr\rt\tc\u0001e\u2028";
        assertThat(JsonWriter.write(nasty)).isEqualTo("\"q\\\"b\\\\n\\nr\\rt\\tc\\u0001e\\u2028\"");
    }

    @Test
    void numbersJsonCannotCarryBecomeNull() {
        assertThat(JsonWriter.write(List.of(Double.NaN, Double.POSITIVE_INFINITY, 1.5e-7)))
                .isEqualTo("[null,null,1.5E-7]");
    }

    @Test
    void sealedVariantsCarryTheirTypeName() {
        EngineEvent e = new EngineEvent.Notice(Instant.EPOCH, Subsystem.STATUS, Severity.WARNING, "hi");
        assertThat(JsonWriter.write(e)).isEqualTo("{\"type\":\"Notice\",\"at\":\"1970-01-01T00:00:00Z\","
                + "\"subsystem\":\"STATUS\",\"severity\":\"WARNING\",\"message\":\"hi\"}");
    }

    @Test
    void emptyContainersAndPrettyLayout() {
        assertThat(JsonWriter.write(Map.of())).isEqualTo("{}");
        assertThat(JsonWriter.write(List.of())).isEqualTo("[]");
        assertThat(JsonWriter.writePretty(new Inner("a", 1))).isEqualTo("{\n  \"s\": \"a\",\n  \"d\": 1\n}\n");
    }

    @Test
    void aWholeEngineSnapshotIsWritten() {
        EngineSnapshot s = new EngineSnapshot(EngineState.RUNNING, Instant.EPOCH, Instant.EPOCH, null, null, null,
                null, null, List.of(Metric.counter("lookout_x_total", "x", 2)),
                List.of(new EngineEvent.EngineStarted(Instant.EPOCH, 1)));
        assertThat(JsonWriter.write(s)).startsWith("{\"state\":\"RUNNING\",")
                .contains("\"metrics\":[{\"name\":\"lookout_x_total\",\"help\":\"x\",\"type\":\"counter\","
                        + "\"labels\":{},\"value\":2}]")
                .contains("{\"type\":\"EngineStarted\",\"at\":\"1970-01-01T00:00:00Z\",\"configVersion\":1}");
    }
}
