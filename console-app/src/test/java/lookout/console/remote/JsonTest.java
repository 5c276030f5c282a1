package lookout.console.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON text parser and writer: RFC 8259, strictly, including hostile input. */
class JsonTest {

    @Test
    void valuesOfEveryKind() {
        Object v = Json.parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}} ");
        assertThat(v).isEqualTo(Map.of("a", java.util.Arrays.asList(new Json.Num("1"), new Json.Num("-2.5e3"), true, false, null, "x"),
                "b", Map.of()));
        assertThat(((Json.Num) Json.parse("9223372036854775807")).longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(((Json.Num) Json.parse("1.0E3")).longValue()).isEqualTo(1000);
        assertThat(Json.parse("\"\\u00e9\\ud83d\\udef0\\/\\b\\f\\n\\r\\t\\\"\\\\\"")).isEqualTo("é\ud83d\udef0/\b\f\n\r\t\"\\");
    }

    @Test
    void notJsonSaysWhere() {
        assertThatThrownBy(() -> Json.parse("{\"a\":1,}")).hasMessage("not JSON at line 1, column 8: expected a member name in quotes");
        assertThatThrownBy(() -> Json.parse("[1]\n[2]")).hasMessage("not JSON at line 2, column 1: more after the end of the value");
        assertThatThrownBy(() -> Json.parse("01")).hasMessageContaining("more after the end");
        assertThatThrownBy(() -> Json.parse("1.")).hasMessageContaining("a fraction needs digits");
        assertThatThrownBy(() -> Json.parse("-")).hasMessageContaining("a number needs digits");
        assertThatThrownBy(() -> Json.parse("\"a\u0001\"")).hasMessageContaining("control character");
        assertThatThrownBy(() -> Json.parse("\"\\x\"")).hasMessageContaining("unknown escape '\\x'");
        assertThatThrownBy(() -> Json.parse("\"\\u12\"")).hasMessageContaining("four hex digits");
        assertThatThrownBy(() -> Json.parse("\"abc")).hasMessageContaining("ends inside a string");
        assertThatThrownBy(() -> Json.parse("<html>")).hasMessageContaining("unexpected character '<'");
        assertThatThrownBy(() -> Json.parse("")).hasMessageContaining("ends where a value was expected");
        assertThatThrownBy(() -> Json.parse("nul")).hasMessageContaining("expected null");
    }

    @Test
    void nestingIsBounded() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        assertThatThrownBy(() -> Json.parse(deep)).isInstanceOf(Json.JsonException.class)
                .hasMessageContaining("nested deeper than 256");
        String ok = "[".repeat(200) + "]".repeat(200);
        assertThat(Json.parse(ok)).isInstanceOf(List.class);
    }

    @Test
    void writtenRequestsParseBack() {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("text", "a => \"b\"\n\u2028\u0001");
        body.put("dryRun", true);
        body.put("ttl", 30L);
        body.put("states", Map.of("127.0.0.1/*", "DOWN"));
        body.put("none", null);
        String json = Json.write(body);
        assertThat(json).isEqualTo("{\"text\":\"a => \\\"b\\\"\\n\\u2028\\u0001\",\"dryRun\":true,\"ttl\":30,"
                + "\"states\":{\"127.0.0.1/*\":\"DOWN\"},\"none\":null}");
        assertThat(Json.parse(json)).isEqualTo(new java.util.HashMap<>(Map.of("text", "a => \"b\"\n\u2028\u0001", "dryRun", true,
                "ttl", new Json.Num("30"), "states", Map.of("127.0.0.1/*", "DOWN"))) {{ put("none", null); }});
    }
}
