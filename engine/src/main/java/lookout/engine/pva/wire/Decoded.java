package lookout.engine.pva.wire;

/** The result of decoding one message: a frame, or a drop with its reason (never an exception). */
public sealed interface Decoded {

    record Ok(Frame frame) implements Decoded {
    }

    record Dropped(String reason) implements Decoded {
    }
}
