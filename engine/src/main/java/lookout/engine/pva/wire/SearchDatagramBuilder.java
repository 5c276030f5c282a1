package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.util.List;

/**
 * The one CMD_SEARCH encoder (seed 002 §2), for the client's packer and for every
 * {@link SearchRequest} (discovery pings, the server's forwarded copies). It packs names without
 * building message records (§3.3): the ring drains up to a million names a revolution, so names go
 * straight from the channel into the buffer. One datagram at a time: {@link #start}, {@link #tryAdd}
 * until it refuses (or {@link #add} without a limit), {@link #finish}; {@link #setUnicast} and
 * {@link #setReplyPort} adapt a finished datagram to where it goes.
 *
 * <p>A datagram holds at most {@link Pva#MAX_SEARCH_DATAGRAM} bytes, except that a name too long
 * for an empty datagram is sent alone (and may fragment); a name that cannot fit the 64 KiB buffer
 * at all is refused by {@link #fitsBuffer} and must be dropped by the caller.
 */
public final class SearchDatagramBuilder {

    /** Offset of the search flags byte in a SEARCH datagram (header included). */
    public static final int FLAGS_OFFSET = 12;
    /** Offset of the reply port (header included). */
    public static final int REPLY_PORT_OFFSET = 32;

    private final int sequenceId;
    private final int flags;
    private final InetAddress replyAddress;
    private final int replyPort;
    private final List<String> protocols;
    private final int limit;

    private ByteBuf buf;
    private WireWriter w;
    private int headerStart;
    private int countIndex;
    private int count;

    /** A builder for PVXS-style searches: sequence "find", reply address zero, ["tcp"]. */
    public SearchDatagramBuilder(int replyPort) {
        this(Pva.SEARCH_SEQUENCE_FIND, 0, WireAddress.ANY_ZERO, replyPort, List.of("tcp"), Pva.MAX_SEARCH_DATAGRAM);
    }

    public SearchDatagramBuilder(int sequenceId, int flags, InetAddress replyAddress, int replyPort,
                                 List<String> protocols, int limit) {
        this.sequenceId = sequenceId;
        this.flags = flags;
        this.replyAddress = replyAddress;
        this.replyPort = replyPort;
        this.protocols = List.copyOf(protocols);
        this.limit = limit;
    }

    /** True when a name of {@code utf8Length} bytes can be sent at all (§3.3: 64 KiB buffer). */
    public boolean fitsBuffer(int utf8Length) {
        return fixedLength() + 4 + WireWriter.stringLength(utf8Length) <= Pva.MAX_BUFFER;
    }

    /** Bytes of the datagram without names. */
    public int fixedLength() {
        int p = 1;
        for (String s : protocols) {
            p += WireWriter.stringLength(s.length());
        }
        return Pva.HEADER_SIZE + 4 + 4 + 16 + 2 + p + 2;
    }

    /** Starts a new datagram, big-endian, at the writer index of {@code out}. */
    public void start(ByteBuf out) {
        start(new WireWriter(out));
    }

    /** Starts a new datagram at the writer index of {@code writer}'s buffer, in its byte order. */
    public void start(WireWriter writer) {
        this.buf = writer.buffer();
        this.w = writer;
        this.count = 0;
        headerStart = w.header(0, Pva.CMD_SEARCH);
        w.i32(sequenceId);
        w.u8(flags);
        w.u8(0);
        w.u8(0);
        w.u8(0);
        w.address(replyAddress);
        w.u16(replyPort);
        w.size(protocols.size());
        for (String p : protocols) {
            w.string(p);
        }
        countIndex = buf.writerIndex();
        w.u16(0);
    }

    /**
     * Adds one name if it fits the datagram (an empty datagram takes any name that fits the
     * buffer). Returns false when the datagram is full: finish it and start another.
     */
    public boolean tryAdd(int cid, byte[] utf8) {
        int need = 4 + WireWriter.stringLength(utf8.length);
        int used = buf.writerIndex() - headerStart;
        if (count > 0 && used + need > limit) {
            return false;
        }
        if (count == 0xFFFF || used + need > Pva.MAX_BUFFER) {
            return false;
        }
        w.i32(cid);
        w.string(utf8);
        count++;
        return true;
    }

    /** Adds one name whatever the limit: a message that is not a packed datagram (a record being encoded). */
    public void add(int cid, String name) {
        w.i32(cid);
        w.string(name);
        count++;
    }

    /**
     * {@link #tryAdd(int, byte[])} without a byte array: the name is written as UTF-8 straight from
     * the string ({@code utf8Length} is its encoded length, {@code ByteBufUtil.utf8Bytes}).
     */
    public boolean tryAdd(int cid, CharSequence name, int utf8Length) {
        int need = 4 + WireWriter.stringLength(utf8Length);
        int used = buf.writerIndex() - headerStart;
        if (count > 0 && used + need > limit) {
            return false;
        }
        if (count == 0xFFFF || used + need > Pva.MAX_BUFFER) {
            return false;
        }
        w.i32(cid);
        w.size(utf8Length);
        buf.writeCharSequence(name, java.nio.charset.StandardCharsets.UTF_8);
        count++;
        return true;
    }

    public int count() {
        return count;
    }

    /** Bytes of the datagram so far. */
    public int length() {
        return buf.writerIndex() - headerStart;
    }

    /** Patches the header length and name count; the datagram is {@code [start, writerIndex)}. */
    public void finish() {
        w.setShort(countIndex, count);
        w.patchLength(headerStart);
    }

    /**
     * Sets or clears the Unicast flag of a finished datagram starting at {@code index} (seed 002 §5:
     * set when, and only when, its destination is a genuine unicast address).
     */
    public static void setUnicast(ByteBuf datagram, int index, boolean unicast) {
        int f = datagram.getUnsignedByte(index + FLAGS_OFFSET);
        datagram.setByte(index + FLAGS_OFFSET, unicast ? f | Pva.SEARCH_UNICAST : f & ~Pva.SEARCH_UNICAST);
    }

    /** Sets the reply port of a finished big-endian datagram starting at {@code index} (0 over TCP, §2). */
    public static void setReplyPort(ByteBuf datagram, int index, int port) {
        datagram.setShort(index + REPLY_PORT_OFFSET, port);
    }
}
