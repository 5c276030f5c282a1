package lookout.engine.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    @Test
    void readsEveryKindOfValue() throws Exception {
        Object v = JsonReader.parse(" {\"a\":[1,-2.5e3,true,false,null],\"s\":\"q\\\"\\u00e9\\ud83d\\ude00\\n\",\"big\":12345678901234567890} ");
        assertThat(v).isEqualTo(Map.of("a", java.util.Arrays.asList(1L, -2500.0, true, false, null), "s", "q\"é😀\n",
                "big", 1.2345678901234567E19));
        assertThat(JsonReader.parse("[]")).isEqualTo(List.of());
        assertThat(JsonReader.parseObject("{}")).isEmpty();
    }

    @Test
    void refusesWhatIsNotStrictJsonSayingWhere() {
        for (String bad : List.of("", "{", "{\"a\":1,}", "[1 2]", "{\"a\":1}x", "01", "1.", "-", "\"\\x\"", "\"a\nb\"",
                "{\"a\":1,\"a\":2}", "\"\\ud800\"", "\"\\udc00\"", "tru", "{a:1}", "[" .repeat(40) + "]".repeat(40))) {
            assertThatThrownBy(() -> JsonReader.parse(bad)).as(bad).isInstanceOf(JsonReader.JsonException.class)
                    .hasMessageStartingWith("at character ");
        }
        assertThatThrownBy(() -> JsonReader.parseObject("[1]")).hasMessageContaining("expected a JSON object");
    }

    @Test
    void whatTheWriterWritesTheReaderReadsBackIntoRecords() throws Exception {
        EngineEvent[] events = {
            new EngineEvent.ConfigApplied(Instant.parse("2026-01-01T00:00:01.5Z"), 3, "ab", List.of("~ x: 1 -> 2")),
            new EngineEvent.UpstreamDemoted(Instant.EPOCH, "127.0.0.1:53", "timeout", Instant.EPOCH.plusSeconds(30), true),
            new EngineEvent.Notice(Instant.EPOCH, Subsystem.PVA_CLIENT, Severity.WARNING, "tab\there \u2028"),
            new EngineEvent.AuditRecorded(Instant.EPOCH, null, "console", "force", "force a DOWN", "ok"),
        };
        for (EngineEvent e : events) {
            String json = JsonWriter.write(e);
            assertThat(RecordReader.variant(EngineEvent.class, JsonReader.parseObject(json))).isEqualTo(e);
        }
        record Times(Duration d, int i, double x, boolean b) {
        }
        Times t = new Times(Duration.ofMillis(1500), 7, 0.25, true);
        assertThat(RecordReader.record(Times.class, JsonReader.parseObject(JsonWriter.write(t)))).isEqualTo(t);
        assertThatThrownBy(() -> RecordReader.variant(EngineEvent.class, JsonReader.parseObject("{\"type\":\"Nope\"}")))
                .hasMessageContaining("unknown EngineEvent type");
        assertThatThrownBy(() -> RecordReader.record(Times.class, JsonReader.parseObject("{\"i\":\"7\"}")))
                .hasMessageContaining("i: expected a number");
    }
}
