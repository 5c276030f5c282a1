package lookout.engine.dns.listen;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import lookout.engine.config.Cidr;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;

/** Fixed client messages for the DNS tests (the listeners' and, through DnsTestClient, the black-box ones). */
public final class Wire {

    private Wire() {
    }

    /** A query: RD, one question in class IN, an OPT record with {@code payload} when {@code edns}. */
    public static byte[] query(int id, String name, int type, boolean edns, int payload) {
        byte[] n = Names.toWire(name);
        byte[] q = new byte[12 + n.length + 4 + (edns ? 11 : 0)];
        q[0] = (byte) (id >>> 8);
        q[1] = (byte) id;
        q[2] = 0x01; // RD
        q[5] = 1;
        System.arraycopy(n, 0, q, 12, n.length);
        int p = 12 + n.length;
        q[p] = (byte) (type >>> 8);
        q[p + 1] = (byte) type;
        q[p + 3] = 1;
        if (edns) {
            q[11] = 1;
            p += 4;
            q[p + 2] = RrType.OPT;
            q[p + 3] = (byte) (payload >>> 8);
            q[p + 4] = (byte) payload;
        }
        return q;
    }

    static Message decode(byte[] m) {
        try {
            Message msg = Message.decodeHeaderAndQuestion(m, m.length);
            Message.decodeRecords(m, m.length, msg);
            return msg;
        } catch (WireException e) {
            throw new AssertionError("not a DNS message: " + e.getMessage(), e);
        }
    }

    static int id(byte[] m) {
        return ((m[0] & 0xFF) << 8) | (m[1] & 0xFF);
    }

    static int rcode(byte[] m) {
        return m[3] & 0x0F;
    }

    static List<Cidr> loopbackOnly() {
        try {
            return List.of(new Cidr(InetAddress.getByName("127.0.0.0"), 8), new Cidr(InetAddress.getByName("::1"), 128));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
