package lookout.engine.pva.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import lookout.engine.pva.wire.Decoded;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;

/**
 * Splits a PVA TCP stream into messages and decodes each: emits {@link Decoded} values (a drop
 * is a value too). A stream that stops looking like PVA, or announces a message over
 * {@link #MAX_FRAME}, cannot be resynchronised: it emits one drop and closes the connection.
 * One instance per connection (it keeps the partial frame). The TCP sides of the client (name
 * servers) and of the server (the name server) both frame with it; the codec it calls stays pure.
 */
public final class PvaFrameDecoder extends ByteToMessageDecoder {

    /** Largest message accepted; search traffic is far smaller. */
    public static final int MAX_FRAME = 16 << 20;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            long len = PvaCodec.frameLength(in, in.readerIndex());
            if (len == -1) {
                if (in.readableBytes() >= Pva.HEADER_SIZE && PvaCodec.payloadLength(in, in.readerIndex()) > MAX_FRAME) {
                    fail(ctx, in, out, "message over " + MAX_FRAME + " bytes");
                }
                return;
            }
            if (len < 0) {
                fail(ctx, in, out, "not a PVA stream");
                return;
            }
            ByteBuf frame = in.readSlice((int) len);
            out.add(PvaCodec.decodeFrame(frame));
        }
    }

    private static void fail(ChannelHandlerContext ctx, ByteBuf in, List<Object> out, String why) {
        in.skipBytes(in.readableBytes());
        out.add(new Decoded.Dropped(why));
        ctx.close();
    }
}
