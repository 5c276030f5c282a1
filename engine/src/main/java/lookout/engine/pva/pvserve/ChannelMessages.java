package lookout.engine.pva.pvserve;

import io.netty.buffer.ByteBuf;
import lookout.engine.pva.pvdata.PvStatus;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.pvdata.TypeCodec;

/**
 * The server's channel and operation replies (pvAccess protocol; the layouts PVXS
 * {@code serverchan.cpp}, {@code serverget.cpp}, {@code servermon.cpp} and
 * {@code serverintrospect.cpp} write), big-endian with the server flag. Pure: bytes at a buffer's
 * writer index, nothing else.
 *
 * <pre>
 * CREATE_CHANNEL  0x07  cid u32, sid u32, Status
 * DESTROY_CHANNEL 0x08  sid u32, cid u32
 * GET             0x0A  ioid u32, subcmd u8, Status, [INIT: type | EXEC: bit set, fields]
 * MONITOR         0x0D  ioid u32, subcmd u8, [INIT: Status, type | update (subcmd 0): bit set, fields, overrun bit set]
 * GET_FIELD       0x11  ioid u32, Status, [type]
 * PUT, PUT_GET, RPC, PROCESS, ARRAY: ioid u32, subcmd u8, Status (Lookout refuses them)
 * </pre>
 */
public final class ChannelMessages {

    public static final int CMD_CREATE_CHANNEL = 0x07;
    public static final int CMD_DESTROY_CHANNEL = 0x08;
    public static final int CMD_GET = 0x0A;
    public static final int CMD_PUT = 0x0B;
    public static final int CMD_PUT_GET = 0x0C;
    public static final int CMD_MONITOR = 0x0D;
    public static final int CMD_ARRAY = 0x0E;
    public static final int CMD_DESTROY_REQUEST = 0x0F;
    public static final int CMD_PROCESS = 0x10;
    public static final int CMD_GET_FIELD = 0x11;
    public static final int CMD_MESSAGE = 0x12;
    public static final int CMD_RPC = 0x14;
    public static final int CMD_CANCEL_REQUEST = 0x15;

    // subcommand bits (PVXS pva_subcmd; MONITOR's start/stop and pipeline ack)
    public static final int SUB_INIT = 0x08;
    public static final int SUB_DESTROY = 0x10;
    public static final int SUB_GET = 0x40;
    public static final int SUB_START_STOP = 0x04;
    public static final int SUB_PIPELINE = 0x80;

    static final int MAGIC = 0xCA;
    static final int VERSION = 2;
    /** Server, big-endian. */
    static final int FLAGS = 0x40 | 0x80;
    static final int HEADER = 8;

    private ChannelMessages() {
    }

    /** Starts a message: the header with a zero length; returns its index for {@link #end}. */
    public static int begin(ByteBuf out, int command) {
        int at = out.writerIndex();
        out.writeByte(MAGIC).writeByte(VERSION).writeByte(FLAGS).writeByte(command).writeInt(0);
        return at;
    }

    /** Sets the length of the message begun at {@code at} to what follows its header. */
    public static void end(ByteBuf out, int at) {
        out.setInt(at + 4, out.writerIndex() - at - HEADER);
    }

    public static void createChannel(ByteBuf out, int cid, int sid, PvStatus status) {
        int at = begin(out, CMD_CREATE_CHANNEL);
        PvWriter w = new PvWriter(out);
        w.i32(cid).i32(sid);
        status.encode(w);
        end(out, at);
    }

    public static void destroyChannel(ByteBuf out, int sid, int cid) {
        int at = begin(out, CMD_DESTROY_CHANNEL);
        out.writeInt(sid).writeInt(cid);
        end(out, at);
    }

    /** An INIT reply of GET or MONITOR: Status then, when OK, the type. */
    public static void init(ByteBuf out, int command, int ioid, PvStatus status, PvType type) {
        int at = begin(out, command);
        PvWriter w = new PvWriter(out);
        w.i32(ioid).u8(SUB_INIT);
        status.encode(w);
        if (status.ok()) {
            TypeCodec.encode(type, w);
        }
        end(out, at);
    }

    /** A reply of ioid, subcommand and Status alone: a refused or failed operation. */
    public static void status(ByteBuf out, int command, int ioid, int subcmd, PvStatus status) {
        int at = begin(out, command);
        PvWriter w = new PvWriter(out);
        w.i32(ioid).u8(subcmd);
        status.encode(w);
        end(out, at);
    }

    /** A MONITOR update: ioid, subcommand 0, then {@code body} (bit set, fields, overrun bit set). */
    public static void monitorUpdate(ByteBuf out, int ioid, byte[] body) {
        out.writeByte(MAGIC).writeByte(VERSION).writeByte(FLAGS).writeByte(CMD_MONITOR)
                .writeInt(4 + 1 + body.length).writeInt(ioid).writeByte(0).writeBytes(body);
    }

    /** A GET_FIELD reply: Status then, when OK, the type. */
    public static void getField(ByteBuf out, int ioid, PvStatus status, PvType type) {
        int at = begin(out, CMD_GET_FIELD);
        PvWriter w = new PvWriter(out);
        w.i32(ioid);
        status.encode(w);
        if (status.ok() && type != null) {
            TypeCodec.encode(type, w);
        }
        end(out, at);
    }
}
