package lookout.engine.pva.server;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Address helpers shared by the listener and the forwarding rules. */
final class Addresses {

    private Addresses() {
    }

    static final InetAddress FORWARD_GROUP_V4 = byBytes(new byte[] {(byte) 224, 0, 0, (byte) 128});
    static final InetAddress FORWARD_GROUP_V6 = byBytes(new byte[] {
        (byte) 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42, 0, 0x01});

    /** {@code ::ffff:a.b.c.d} as {@code a.b.c.d}; anything else unchanged. */
    static InetAddress unmap(InetAddress a) {
        if (a instanceof Inet6Address) {
            byte[] b = a.getAddress();
            for (int i = 0; i < 10; i++) {
                if (b[i] != 0) {
                    return a;
                }
            }
            if (b[10] == (byte) 0xFF && b[11] == (byte) 0xFF) {
                return byBytes(new byte[] {b[12], b[13], b[14], b[15]});
            }
        }
        return a;
    }

    /** seed 002 §2 / PVA-WIRE: 16 zero bytes and ::ffff:0.0.0.0 both mean "the datagram's source". */
    static boolean isAny(byte[] sixteen) {
        for (int i = 0; i < 10; i++) {
            if (sixteen[i] != 0) {
                return false;
            }
        }
        boolean mapped = sixteen[10] == (byte) 0xFF && sixteen[11] == (byte) 0xFF;
        boolean zero = sixteen[10] == 0 && sixteen[11] == 0;
        return (mapped || zero) && sixteen[12] == 0 && sixteen[13] == 0 && sixteen[14] == 0 && sixteen[15] == 0;
    }

    /** The 16-byte wire form: IPv4 as {@code ::ffff:a.b.c.d}. */
    static byte[] toWire(InetAddress a) {
        byte[] out = new byte[16];
        if (a == null) {
            return out;
        }
        byte[] b = a.getAddress();
        if (b.length == 4) {
            out[10] = (byte) 0xFF;
            out[11] = (byte) 0xFF;
            System.arraycopy(b, 0, out, 12, 4);
        } else {
            System.arraycopy(b, 0, out, 0, 16);
        }
        return out;
    }

    static InetAddress fromWire(byte[] sixteen) {
        return unmap(byBytes(sixteen));
    }

    static boolean isLoopback(InetAddress a) {
        return unmap(a).isLoopbackAddress();
    }

    static boolean isForwardGroup(InetAddress a) {
        InetAddress u = unmap(a);
        return u.equals(FORWARD_GROUP_V4) || u.equals(FORWARD_GROUP_V6);
    }

    static boolean isV4(InetAddress a) {
        return unmap(a) instanceof Inet4Address;
    }

    /** An IPv4 address as a big-endian int. */
    static int v4Int(InetAddress a) {
        byte[] b = a.getAddress();
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
    }

    static InetAddress byBytes(byte[] b) {
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
