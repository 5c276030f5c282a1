package lookout.engine.pva.pvserve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import lookout.engine.pva.pvdata.PvDataException;
import lookout.engine.pva.pvdata.PvReader;
import lookout.engine.pva.pvdata.PvStatus;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.pvdata.ScalarKind;
import lookout.engine.pva.pvdata.TypeCodec;

/**
 * What a PVA client sends for channel operations, in either byte order, and a reader of what the
 * server sends back (the layouts of the pvAccess protocol, as PVXS's client writes them).
 */
final class PvClientBytes {

    private PvClientBytes() {
    }

    static byte[] message(int command, boolean bigEndian, Consumer<PvWriter> body) {
        return message(command, bigEndian, 0, body);
    }

    static byte[] message(int command, boolean bigEndian, int segment, Consumer<PvWriter> body) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte(0xCA).writeByte(2).writeByte((bigEndian ? 0x80 : 0) | segment).writeByte(command).writeInt(0);
        PvWriter w = new PvWriter(b, bigEndian);
        body.accept(w);
        w.setI32(4, b.writerIndex() - 8);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    static byte[] createChannel(boolean be, int cid, String name) {
        return message(ChannelMessages.CMD_CREATE_CHANNEL, be, w -> w.i16(1).i32(cid).string(name));
    }

    static byte[] destroyChannel(boolean be, int sid, int cid) {
        return message(ChannelMessages.CMD_DESTROY_CHANNEL, be, w -> w.i32(sid).i32(cid));
    }

    /** An empty pvRequest: structure {} with no value bytes. */
    static void emptyRequest(PvWriter w) {
        w.u8(0x80).string("").size(0);
    }

    /** A pvRequest {@code field(name,...)}. */
    static Consumer<PvWriter> fields(String... names) {
        return w -> {
            w.u8(0x80).string("").size(1).string("field").u8(0x80).string("").size(names.length);
            for (String n : names) {
                w.string(n).u8(0x80).string("").size(0);
            }
        };
    }

    /** record._options.pipeline=true, queueSize=n (as core-pva sends them). */
    static Consumer<PvWriter> pipelineRequest(int n) {
        return w -> {
            w.u8(0x80).string("").size(1).string("record").u8(0x80).string("").size(1).string("_options")
                    .u8(0x80).string("").size(2).string("pipeline").u8(ScalarKind.BOOLEAN.code())
                    .string("queueSize").u8(ScalarKind.INT.code());
            w.u8(1).i32(n);
        };
    }

    static byte[] getInit(boolean be, int sid, int ioid, Consumer<PvWriter> request) {
        return message(ChannelMessages.CMD_GET, be, w -> {
            w.i32(sid).i32(ioid).u8(ChannelMessages.SUB_INIT);
            request.accept(w);
        });
    }

    static byte[] getExec(boolean be, int sid, int ioid, int subcmd) {
        return message(ChannelMessages.CMD_GET, be, w -> w.i32(sid).i32(ioid).u8(subcmd));
    }

    static byte[] monitorInit(boolean be, int sid, int ioid, Consumer<PvWriter> request, int nfree) {
        return message(ChannelMessages.CMD_MONITOR, be, w -> {
            w.i32(sid).i32(ioid).u8(ChannelMessages.SUB_INIT | (nfree > 0 ? ChannelMessages.SUB_PIPELINE : 0));
            request.accept(w);
            if (nfree > 0) {
                w.i32(nfree);
            }
        });
    }

    static byte[] monitor(boolean be, int sid, int ioid, int subcmd) {
        return message(ChannelMessages.CMD_MONITOR, be, w -> w.i32(sid).i32(ioid).u8(subcmd));
    }

    static byte[] monitorAck(boolean be, int sid, int ioid, int n) {
        return message(ChannelMessages.CMD_MONITOR, be, w -> w.i32(sid).i32(ioid).u8(ChannelMessages.SUB_PIPELINE).i32(n));
    }

    static byte[] getField(boolean be, int sid, int ioid, String field) {
        return message(ChannelMessages.CMD_GET_FIELD, be, w -> w.i32(sid).i32(ioid).string(field));
    }

    static byte[] putInit(boolean be, int sid, int ioid) {
        return message(ChannelMessages.CMD_PUT, be, w -> {
            w.i32(sid).i32(ioid).u8(ChannelMessages.SUB_INIT);
            emptyRequest(w);
        });
    }

    /** One message the server sent: its command and body, read big-endian as Lookout sends. */
    record Reply(int command, int flags, byte[] body) {
        PvReader reader() {
            return new PvReader(Unpooled.wrappedBuffer(body), 0, body.length, true);
        }

        int i32(int offset) {
            return Unpooled.wrappedBuffer(body).getInt(offset);
        }

        /** For replies of ioid, subcommand, Status: the Status. */
        PvStatus status(int skip) throws PvDataException {
            PvReader r = reader();
            r.skip(skip, "head");
            return PvStatus.decode(r);
        }

        /** For INIT replies: the type after the Status. */
        PvType initType() throws PvDataException {
            PvReader r = reader();
            r.skip(5, "head");
            PvStatus.decode(r);
            return TypeCodec.decode(r, new TypeCodec.Registry());
        }
    }

    static List<Reply> split(byte[] bytes) {
        List<Reply> out = new ArrayList<>();
        ByteBuf b = Unpooled.wrappedBuffer(bytes);
        while (b.readableBytes() >= 8) {
            if (b.getUnsignedByte(b.readerIndex()) != 0xCA) {
                throw new IllegalStateException("not a PVA message at " + b.readerIndex());
            }
            int flags = b.getUnsignedByte(b.readerIndex() + 2);
            int cmd = b.getUnsignedByte(b.readerIndex() + 3);
            int len = b.getInt(b.readerIndex() + 4);
            b.skipBytes(8);
            byte[] body = new byte[len];
            b.readBytes(body);
            out.add(new Reply(cmd, flags, body));
        }
        if (b.isReadable()) {
            throw new IllegalStateException(b.readableBytes() + " bytes after the last message");
        }
        return out;
    }
}
