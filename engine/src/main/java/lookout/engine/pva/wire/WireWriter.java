package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * Writes the PVA encodings into a buffer. Lookout always sends big-endian (SPEC §PVA); the
 * little-endian form exists so that tests can produce what a little-endian peer sends.
 */
public final class WireWriter {

    /** The protocol of nearly every search and reply. */
    private static final byte[] TCP = "tcp".getBytes(StandardCharsets.US_ASCII);

    private final ByteBuf out;
    private final boolean bigEndian;

    public WireWriter(ByteBuf out) {
        this(out, true);
    }

    WireWriter(ByteBuf out, boolean bigEndian) {
        this.out = out;
        this.bigEndian = bigEndian;
    }

    public ByteBuf buffer() {
        return out;
    }

    /** Writes a header with a zero length and returns its index; {@link #patchLength} fills it in. */
    public int header(int flags, int command) {
        int start = out.writerIndex();
        out.writeByte(Pva.MAGIC);
        out.writeByte(Pva.VERSION);
        out.writeByte(bigEndian ? flags | Pva.FLAG_BIG_ENDIAN : flags & ~Pva.FLAG_BIG_ENDIAN);
        out.writeByte(command);
        out.writeInt(0);
        return start;
    }

    /** Sets the payload length of the header at {@code headerStart} to what was written after it. */
    public void patchLength(int headerStart) {
        setInt(headerStart + 4, out.writerIndex() - headerStart - Pva.HEADER_SIZE);
    }

    public void u8(int v) {
        out.writeByte(v);
    }

    public void u16(int v) {
        if (bigEndian) {
            out.writeShort(v);
        } else {
            out.writeShortLE(v);
        }
    }

    public void i32(int v) {
        if (bigEndian) {
            out.writeInt(v);
        } else {
            out.writeIntLE(v);
        }
    }

    public void setInt(int index, int v) {
        if (bigEndian) {
            out.setInt(index, v);
        } else {
            out.setIntLE(index, v);
        }
    }

    public void setShort(int index, int v) {
        if (bigEndian) {
            out.setShort(index, v);
        } else {
            out.setShortLE(index, v);
        }
    }

    public void address(InetAddress a) {
        WireAddress.write(out, a);
    }

    public void guid(Guid g) {
        g.write(out);
    }

    public void size(int n) {
        if (n < 254) {
            out.writeByte(n);
        } else {
            out.writeByte(254);
            i32(n);
        }
    }

    public void string(String s) {
        if ("tcp".equals(s)) {
            string(TCP); // every reply's protocol: its bytes made once
            return;
        }
        string(s.getBytes(StandardCharsets.UTF_8));
    }

    public void string(byte[] utf8) {
        size(utf8.length);
        out.writeBytes(utf8);
    }

    /** Bytes a string of {@code utf8Length} bytes takes on the wire. */
    public static int stringLength(int utf8Length) {
        return (utf8Length < 254 ? 1 : 5) + utf8Length;
    }
}
