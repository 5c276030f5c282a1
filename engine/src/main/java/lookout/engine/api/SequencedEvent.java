package lookout.engine.api;

/**
 * An event with its place in the engine's journal: sequence numbers rise by one per event and
 * continue across restarts (they are kept in {@code STATE_DIR}), so a client that saw {@code seq}
 * asks for what came after it ({@link Engine#eventsSince}, the API's {@code Last-Event-ID}).
 */
public record SequencedEvent(long seq, EngineEvent event) {
}
