package lookout.engine.pva.pvdata;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked reads of one message body, {@code [position, end)} of a buffer, in the byte order
 * of its header (the 0x80 flag). Never moves the buffer's own indices. A read past the end, or a
 * Size larger than what is left, raises {@link PvDataException}: nothing is allocated toward a
 * length the message cannot hold.
 */
public final class PvReader {

    private final ByteBuf buf;
    private final boolean bigEndian;
    private final int end;
    private int pos;

    public PvReader(ByteBuf buf, int start, int end, boolean bigEndian) {
        if (start < 0 || end < start || end > buf.writerIndex()) {
            throw new IllegalArgumentException("range " + start + ".." + end + " outside the buffer");
        }
        this.buf = buf;
        this.pos = start;
        this.end = end;
        this.bigEndian = bigEndian;
    }

    public boolean bigEndian() {
        return bigEndian;
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return end - pos;
    }

    private void need(long n, String what) throws PvDataException {
        if (n < 0 || end - pos < n) {
            throw new PvDataException("truncated " + what);
        }
    }

    public int u8(String what) throws PvDataException {
        need(1, what);
        return buf.getUnsignedByte(pos++);
    }

    public int i16(String what) throws PvDataException {
        need(2, what);
        int v = bigEndian ? buf.getShort(pos) : buf.getShortLE(pos);
        pos += 2;
        return v;
    }

    public int u16(String what) throws PvDataException {
        return i16(what) & 0xFFFF;
    }

    public int i32(String what) throws PvDataException {
        need(4, what);
        int v = bigEndian ? buf.getInt(pos) : buf.getIntLE(pos);
        pos += 4;
        return v;
    }

    public long i64(String what) throws PvDataException {
        need(8, what);
        long v = bigEndian ? buf.getLong(pos) : buf.getLongLE(pos);
        pos += 8;
        return v;
    }

    public float f32(String what) throws PvDataException {
        return Float.intBitsToFloat(i32(what));
    }

    public double f64(String what) throws PvDataException {
        return Double.longBitsToDouble(i64(what));
    }

    public void skip(int n, String what) throws PvDataException {
        need(n, what);
        pos += n;
    }

    /**
     * A Size: one byte below 254, else 0xFE and a uint32 (the wire's 0xFF is the null Size, -1,
     * allowed only where {@code allowNull}). A size can never exceed the bytes left.
     */
    public int size(String what, boolean allowNull) throws PvDataException {
        int s = u8(what);
        if (s < 254) {
            return s;
        }
        if (s == 254) {
            long v = i32(what) & 0xFFFF_FFFFL;
            if (v > remaining()) {
                throw new PvDataException(what + ": size " + v + " exceeds the " + remaining() + " bytes left");
            }
            return (int) v;
        }
        if (allowNull) {
            return -1;
        }
        throw new PvDataException(what + ": null size");
    }

    /** An element count: a Size that, at {@code minBytesEach} bytes per element, fits what is left. */
    public int count(String what, int minBytesEach) throws PvDataException {
        int n = size(what, false);
        if ((long) n * Math.max(1, minBytesEach) > remaining()) {
            throw new PvDataException(what + ": " + n + " elements cannot fit the " + remaining() + " bytes left");
        }
        return n;
    }

    /** A string: Size then UTF-8 bytes; a null Size reads as empty (pvDataJava sends it). */
    public String string(String what) throws PvDataException {
        int n = size(what, true);
        if (n < 0) {
            return "";
        }
        need(n, what);
        String s = buf.toString(pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }
}
