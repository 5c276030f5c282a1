package lookout.engine.api;

/** The trace of one question. SKELETON: the resolver work defines the fields. */
public record ResolveTrace(String name, String type, String summary) {
}
