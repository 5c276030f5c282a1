package lookout.engine.pva.wire;

/**
 * A well-formed message whose command Lookout does not use (echo, channel operations, other
 * control messages); receivers skip it.
 *
 * @param control true for a control message
 * @param command its command or control code
 */
public record Unhandled(boolean control, int command) implements PvaMessage {

    @Override
    public void encode(WireWriter w) {
        // Only for tests and echo-style replies: the command with an empty body.
        if (control) {
            w.buffer().writeByte(Pva.MAGIC).writeByte(Pva.VERSION)
                    .writeByte(Pva.FLAG_CONTROL | Pva.FLAG_BIG_ENDIAN).writeByte(command).writeInt(0);
        } else {
            w.patchLength(w.header(0, command));
        }
    }
}
