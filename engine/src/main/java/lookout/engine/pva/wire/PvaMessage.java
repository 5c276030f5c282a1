package lookout.engine.pva.wire;

/**
 * A decoded PVA message. Each record has a static {@code decode} (used by {@link PvaCodec}) and
 * {@link #encode}, shared by the client and the server.
 */
public sealed interface PvaMessage permits SearchRequest, SearchResponse, Beacon, OriginTag,
        ServerValidation, ClientValidation, ConnectionValidated, SetByteOrder, Unhandled {

    /** Appends header and body, big-endian. */
    default void encode(io.netty.buffer.ByteBuf out) {
        encode(new WireWriter(out));
    }

    void encode(WireWriter w);
}
