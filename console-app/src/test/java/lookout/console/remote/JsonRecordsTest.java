package lookout.console.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import lookout.engine.api.ConfigStatus;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineSnapshot;
import lookout.engine.api.Metric;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.ReloadResult;
import lookout.engine.api.ResolveTrace;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.status.JsonWriter;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The reader against the engine's own writer: whatever {@code JsonWriter} writes reads back as an
 * equal record tree, compact or pretty, for every snapshot section and every event type.
 */
class JsonRecordsTest {

    @Property(tries = 300)
    void everySnapshotReadsBackEqual(@ForAll long seed) {
        EngineSnapshot s = (EngineSnapshot) new RandomRecords(seed).of(EngineSnapshot.class);
        assertThat(JsonRecords.read(JsonWriter.write(s), EngineSnapshot.class)).isEqualTo(s);
        assertThat(JsonRecords.read(JsonWriter.writePretty(s), EngineSnapshot.class)).isEqualTo(s);
    }

    @Property(tries = 500)
    void everyEventTypeReadsBackEqual(@ForAll long seed) {
        EngineEvent e = (EngineEvent) new RandomRecords(seed).of(EngineEvent.class);
        assertThat(JsonRecords.read(JsonWriter.write(e), EngineEvent.class)).isEqualTo(e);
    }

    @Test
    void eachEventTypeAtLeastOnce() {
        int seen = 0;
        for (Class<?> type : EngineEvent.class.getPermittedSubclasses()) {
            for (long seed = 0; seed < 20; seed++) {
                Object e = new RandomRecords(seed).of(type);
                String json = JsonWriter.write(e);
                assertThat(json).startsWith("{\"type\":\"" + type.getSimpleName() + "\"");
                assertThat(JsonRecords.read(json, EngineEvent.class)).isEqualTo(e);
            }
            seen++;
        }
        assertThat(seen).isGreaterThanOrEqualTo(14);
    }

    @Property(tries = 200)
    void commandAnswersReadBackEqual(@ForAll long seed) throws Exception {
        RandomRecords random = new RandomRecords(seed);
        ResolveTrace t = (ResolveTrace) random.of(ResolveTrace.class);
        assertThat(JsonRecords.read(JsonWriter.write(t), ResolveTrace.class)).isEqualTo(t);
        ReloadResult r = (ReloadResult) random.of(ReloadResult.class);
        assertThat(JsonRecords.read(JsonWriter.write(r), ReloadResult.class)).isEqualTo(r);
        Object resources = random.of(PoolsSnapshot.class.getRecordComponents()[1].getGenericType());
        assertThat(RemoteEngine.resources(Json.parse(JsonWriter.write(resources)))).isEqualTo(resources);
    }

    @Test
    void nanAndTheInfinitiesAreNullAndReadAsNaN() {
        Metric m = new Metric("x", "h", "gauge", Map.of(), Double.POSITIVE_INFINITY);
        String json = JsonWriter.write(m);
        assertThat(json).contains("\"value\":null");
        assertThat(JsonRecords.read(json, Metric.class).value()).isNaN();
    }

    @Test
    void membersANewerEngineAddsAreIgnoredAndOnesAnOlderLeftOutAreEmpty() {
        Metric m = JsonRecords.read("{\"name\":\"n\",\"type\":\"gauge\",\"value\":2,\"unit\":\"s\"}", Metric.class);
        assertThat(m).isEqualTo(new Metric("n", null, "gauge", Map.of(), 2));
        ConfigStatus c = JsonRecords.read("{\"version\":3}", ConfigStatus.class);
        assertThat(c.version()).isEqualTo(3);
        assertThat(c.lastReload()).isNull();
    }

    @Test
    void anUnknownVariantGoesToTheFallback() {
        // an event type of an engine newer than this console
        String json = "[{\"type\":\"SomethingNewer\",\"at\":\"2026-01-01T00:00:00Z\",\"action\":\"force\",\"token\":\"operator\"}]";
        Type events = EngineSnapshot.class.getRecordComponents()[9].getGenericType();
        assertThatThrownBy(() -> JsonRecords.read(Json.parse(json), events, JsonRecords.Fallback.STRICT))
                .isInstanceOf(JsonRecords.UnknownVariant.class).hasMessageContaining("SomethingNewer");
        @SuppressWarnings("unchecked")
        List<EngineEvent> read = (List<EngineEvent>) JsonRecords.read(Json.parse(json), events, RemoteEngine::unknownVariant);
        assertThat(read).singleElement().satisfies(e -> {
            assertThat(e).isInstanceOf(EngineEvent.Notice.class);
            assertThat(e.at()).hasToString("2026-01-01T00:00:00Z");
            assertThat(e.message()).isEqualTo("SomethingNewer action=force token=operator");
            assertThat(e.severity()).isEqualTo(Severity.INFO);
            assertThat(e.subsystem()).isEqualTo(Subsystem.ENGINE);
        });
    }

    @Test
    void aTreeOfTheWrongShapeSaysWhere() {
        assertThatThrownBy(() -> JsonRecords.read("{\"name\":\"n\",\"labels\":{\"a\":1},\"value\":1}", Metric.class))
                .isInstanceOf(JsonRecords.ShapeException.class).hasMessage("/labels/a: expected a string, found 1");
        assertThatThrownBy(() -> JsonRecords.read("{\"version\":\"three\"}", ConfigStatus.class))
                .hasMessage("/version: expected a number, found \"three\"");
        assertThatThrownBy(() -> JsonRecords.read("{\"version\":1.5}", ConfigStatus.class))
                .hasMessage("/version: 1.5 does not fit a Long");
        assertThatThrownBy(() -> JsonRecords.read("{\"at\":\"yesterday\",\"type\":\"EngineStopped\"}", EngineEvent.class))
                .hasMessage("/at: not an ISO-8601 instant: yesterday");
        assertThatThrownBy(() -> JsonRecords.read("{\"at\":\"2026-01-01T00:00:00Z\"}", EngineEvent.class))
                .hasMessage("the document: a EngineEvent needs a \"type\"");
        assertThatThrownBy(() -> JsonRecords.read("{\"type\":\"Notice\",\"severity\":\"LOUD\"}", EngineEvent.class))
                .hasMessageStartingWith("/severity: 'LOUD' is not one of [INFO, NOTICE, WARNING, ERROR]");
    }
}
