package lookout.engine.pva.wire;

/**
 * The SET_BYTE_ORDER control message a server sends first on a TCP connection: the header's
 * byte-order flag announces the order of everything the server sends. It has no body.
 *
 * @param bigEndian the order announced
 */
public record SetByteOrder(boolean bigEndian) implements PvaMessage {

    @Override
    public void encode(WireWriter w) {
        // Written raw: a control message's length field is a value (0 here), not a body length.
        w.buffer().writeByte(Pva.MAGIC);
        w.buffer().writeByte(Pva.VERSION);
        w.buffer().writeByte(Pva.FLAG_CONTROL | Pva.FLAG_SERVER | (bigEndian ? Pva.FLAG_BIG_ENDIAN : 0));
        w.buffer().writeByte(Pva.CTRL_SET_BYTE_ORDER);
        w.buffer().writeInt(0);
    }
}
