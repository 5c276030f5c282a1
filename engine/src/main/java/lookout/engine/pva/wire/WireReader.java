package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked reads of one message body, {@code [position, end)} of a buffer, in the byte order
 * of the message's header. A read past {@code end} or an impossible Size raises {@link Malformed},
 * which the codec turns into a counted drop before anything leaves it.
 */
final class WireReader {

    /** Internal signal for "truncated or inconsistent"; never escapes the codec. */
    static final class Malformed extends Exception {
        Malformed(String reason) {
            super(reason, null, false, false);
        }
    }

    private final ByteBuf buf;
    private final boolean bigEndian;
    private final int end;
    private int pos;

    WireReader(ByteBuf buf, int start, int end, boolean bigEndian) {
        this.buf = buf;
        this.pos = start;
        this.end = end;
        this.bigEndian = bigEndian;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    private void need(int n, String what) throws Malformed {
        if (n < 0 || end - pos < n) {
            throw new Malformed("truncated " + what);
        }
    }

    int u8(String what) throws Malformed {
        need(1, what);
        return buf.getUnsignedByte(pos++);
    }

    int u16(String what) throws Malformed {
        need(2, what);
        int v = bigEndian ? buf.getUnsignedShort(pos) : buf.getUnsignedShortLE(pos);
        pos += 2;
        return v;
    }

    int i32(String what) throws Malformed {
        need(4, what);
        int v = bigEndian ? buf.getInt(pos) : buf.getIntLE(pos);
        pos += 4;
        return v;
    }

    void skip(int n, String what) throws Malformed {
        need(n, what);
        pos += n;
    }

    Guid guid() throws Malformed {
        need(12, "GUID");
        Guid g = Guid.read(buf, pos);
        pos += 12;
        return g;
    }

    InetAddress address(String what) throws Malformed {
        need(16, what);
        InetAddress a = WireAddress.read(buf, pos);
        pos += 16;
        return a;
    }

    /** A Size: one byte below 254, else 0xFE and a uint32; {@code -1} for the null 0xFF when allowed. */
    int size(String what, boolean allowNull) throws Malformed {
        int s = u8(what);
        if (s < 254) {
            return s;
        }
        if (s == 254) {
            long v = i32(what) & 0xFFFF_FFFFL;
            // No PVA message body can be longer than what is left in this one.
            if (v > remaining()) {
                throw new Malformed(what + " size " + v + " exceeds the message");
            }
            return (int) v;
        }
        if (allowNull) {
            return -1;
        }
        throw new Malformed(what + " size is null");
    }

    /** True when a string of exactly {@code ascii} (a one-byte Size, then its bytes) comes next. */
    boolean nextIsAscii(String ascii) {
        int n = ascii.length();
        if (end - pos < 1 + n || buf.getUnsignedByte(pos) != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (buf.getByte(pos + 1 + i) != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A string: Size then UTF-8 bytes; the null Size reads as empty (pvDataJava sends it). */
    String string(String what) throws Malformed {
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
