package lookout.engine.api;

/** The resolver as the console shows it. SKELETON: the resolver work defines the fields. */
public record ResolverSnapshot(boolean running) {
}
