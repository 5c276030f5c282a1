package lookout.engine.status;

/**
 * The snapshot's JSON, as {@code /status} serves it: {@link lookout.engine.json.JsonWriter} under
 * the name the status endpoint's users and tests know.
 */
public final class JsonWriter {

    private JsonWriter() {
    }

    /** Compact JSON of {@code value}. */
    public static String write(Object value) {
        return lookout.engine.json.JsonWriter.write(value);
    }

    /** Indented JSON of {@code value} (two spaces), for humans ({@code /status?pretty}). */
    public static String writePretty(Object value) {
        return lookout.engine.json.JsonWriter.writePretty(value);
    }
}
