package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.util.HexFormat;

/**
 * A server instance's 12-byte GUID (seed 002 §2). Shown as 24 lower-case hex digits.
 *
 * @param high the first 8 bytes, big-endian
 * @param low  the last 4 bytes, big-endian
 */
public record Guid(long high, int low) {

    public static Guid read(ByteBuf in, int index) {
        // The GUID is an opaque byte string: its bytes are never swapped for byte order.
        return new Guid(in.getLong(index), in.getInt(index + 8));
    }

    public void write(ByteBuf out) {
        out.writeLong(high);
        out.writeInt(low);
    }

    public byte[] bytes() {
        byte[] b = new byte[12];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (high >>> (56 - 8 * i));
        }
        for (int i = 0; i < 4; i++) {
            b[8 + i] = (byte) (low >>> (24 - 8 * i));
        }
        return b;
    }

    public static Guid of(byte[] b) {
        if (b.length != 12) {
            throw new IllegalArgumentException("a GUID has 12 bytes");
        }
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (b[i] & 0xFF);
        }
        int l = 0;
        for (int i = 8; i < 12; i++) {
            l = (l << 8) | (b[i] & 0xFF);
        }
        return new Guid(h, l);
    }

    /** Parses 24 hex digits; throws IllegalArgumentException otherwise. */
    public static Guid parse(String hex) {
        String h = hex.strip();
        if (h.length() != 24) {
            throw new IllegalArgumentException("a GUID is 24 hex digits: " + hex);
        }
        return of(HexFormat.of().parseHex(h));
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes());
    }
}
