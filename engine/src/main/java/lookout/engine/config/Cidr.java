package lookout.engine.config;

import java.net.InetAddress;

/** An address prefix such as {@code 127.0.0.0/8} or {@code ::1/128}. */
public record Cidr(InetAddress network, int prefixLength) {

    /** True when {@code a} is of the same family and inside this prefix. */
    public boolean contains(InetAddress a) {
        byte[] n = network.getAddress();
        byte[] x = a.getAddress();
        if (n.length != x.length) {
            return false;
        }
        int bits = prefixLength;
        for (int i = 0; i < n.length && bits > 0; i++, bits -= 8) {
            int mask = bits >= 8 ? 0xFF : (0xFF << (8 - bits)) & 0xFF;
            if ((n[i] & mask) != (x[i] & mask)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return network.getHostAddress() + "/" + prefixLength;
    }
}
