package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The 16-byte address field (always network order, whatever the header's byte order). IPv4 goes
 * as {@code ::ffff:a.b.c.d}. "Any" arrives as 16 zero bytes (decoded as {@code ::}) or as
 * {@code ::ffff:0.0.0.0} (decoded as {@code 0.0.0.0}); both mean "the datagram's source"
 * (PVA-WIRE.md), and re-encode in the form they came in.
 */
public final class WireAddress {

    /** 16 zero bytes: PVXS client searches. */
    public static final InetAddress ANY_ZERO = address(new byte[16]);
    /** {@code ::ffff:0.0.0.0}: PVXS server replies and beacons. */
    public static final InetAddress ANY_MAPPED = address(new byte[4]);

    private WireAddress() {
    }

    /** True for both "any" forms: the address is the source of the datagram. */
    public static boolean isAny(InetAddress a) {
        return a == null || a.isAnyLocalAddress();
    }

    /** {@code ::ffff:a.b.c.d} as {@code a.b.c.d}; any other address unchanged (null stays null). */
    public static InetAddress unmap(InetAddress a) {
        if (a instanceof Inet6Address) {
            byte[] b = a.getAddress();
            for (int i = 0; i < 10; i++) {
                if (b[i] != 0) {
                    return a;
                }
            }
            if (b[10] == (byte) 0xFF && b[11] == (byte) 0xFF) {
                return address(new byte[] {b[12], b[13], b[14], b[15]});
            }
        }
        return a;
    }

    /** Resolves an "any" address to {@code source}; other addresses are returned as they are. */
    public static InetAddress orSource(InetAddress a, InetAddress source) {
        return isAny(a) ? source : a;
    }

    static InetAddress read(ByteBuf in, int index) {
        // nearly every search and reply names "any" (PVXS, core-pva): the two forms come back as
        // the constants, with nothing allocated on the responder's hottest path
        long high = in.getLong(index);
        long low = in.getLong(index + 8);
        if (high == 0 && (low == 0 || low == 0x0000_FFFF_0000_0000L)) {
            return low == 0 ? ANY_ZERO : ANY_MAPPED;
        }
        byte[] b = new byte[16];
        in.getBytes(index, b);
        return address(b);
    }

    public static void write(ByteBuf out, InetAddress a) {
        if (a == null || a == ANY_ZERO) {
            out.writeZero(16);
        } else if (a == ANY_MAPPED) {
            out.writeLong(0);
            out.writeLong(0x0000_FFFF_0000_0000L);
        } else if (a instanceof Inet4Address) {
            out.writeZero(10);
            out.writeShort(0xFFFF);
            out.writeBytes(a.getAddress());
        } else {
            out.writeBytes(((Inet6Address) a).getAddress());
        }
    }

    private static InetAddress address(byte[] b) {
        try {
            // getByAddress turns ::ffff:a.b.c.d into an Inet4Address.
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
