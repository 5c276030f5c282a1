package lookout.engine.pva.pvdata;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Writes pvData encodings at a buffer's writer index. Lookout sends big-endian (SPEC §PVA); the
 * little-endian form exists so that tests can check both byte orders against fixed bytes.
 */
public final class PvWriter {

    private final ByteBuf out;
    private final boolean bigEndian;

    public PvWriter(ByteBuf out, boolean bigEndian) {
        this.out = out;
        this.bigEndian = bigEndian;
    }

    /** Big-endian, as Lookout sends. */
    public PvWriter(ByteBuf out) {
        this(out, true);
    }

    public ByteBuf buffer() {
        return out;
    }

    public boolean bigEndian() {
        return bigEndian;
    }

    public PvWriter u8(int v) {
        out.writeByte(v);
        return this;
    }

    public PvWriter i16(int v) {
        if (bigEndian) {
            out.writeShort(v);
        } else {
            out.writeShortLE(v);
        }
        return this;
    }

    public PvWriter i32(int v) {
        if (bigEndian) {
            out.writeInt(v);
        } else {
            out.writeIntLE(v);
        }
        return this;
    }

    public PvWriter i64(long v) {
        if (bigEndian) {
            out.writeLong(v);
        } else {
            out.writeLongLE(v);
        }
        return this;
    }

    public PvWriter f32(float v) {
        return i32(Float.floatToRawIntBits(v));
    }

    public PvWriter f64(double v) {
        return i64(Double.doubleToRawLongBits(v));
    }

    /** Sets a 32-bit value already written (a message length) in this writer's byte order. */
    public void setI32(int index, int v) {
        if (bigEndian) {
            out.setInt(index, v);
        } else {
            out.setIntLE(index, v);
        }
    }

    /** A Size: one byte below 254, else 0xFE and a uint32. */
    public PvWriter size(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative size " + n);
        }
        if (n < 254) {
            out.writeByte(n);
        } else {
            out.writeByte(254);
            i32(n);
        }
        return this;
    }

    /** The null Size 0xFF (a null union selector, a null string). */
    public PvWriter nullSize() {
        out.writeByte(0xFF);
        return this;
    }

    public PvWriter string(String s) {
        return string(s.getBytes(StandardCharsets.UTF_8));
    }

    public PvWriter string(byte[] utf8) {
        size(utf8.length);
        out.writeBytes(utf8);
        return this;
    }
}
