package lookout.engine.pva.wire;

/**
 * The 8-byte PVA header (PVA-WIRE.md "Header").
 *
 * @param version       protocol version (never 0)
 * @param flags         control, segmentation, server and byte-order bits
 * @param command       command code (or control code when {@link #control()})
 * @param payloadLength length of the body; for a control message, its 32-bit value
 */
public record PvaHeader(int version, int flags, int command, long payloadLength) {

    public boolean bigEndian() {
        return (flags & Pva.FLAG_BIG_ENDIAN) != 0;
    }

    public boolean control() {
        return (flags & Pva.FLAG_CONTROL) != 0;
    }

    public boolean segmented() {
        return (flags & Pva.FLAG_SEGMENT_MASK) != 0;
    }

    public boolean fromServer() {
        return (flags & Pva.FLAG_SERVER) != 0;
    }
}
