package lookout.engine.net;

import io.netty.util.NetUtil;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Addresses as text, one way for the whole engine: {@code 192.0.2.1:53}, {@code [2001:db8::1]:53}
 * (RFC 5952 canonical IPv6, RFC 3986 brackets), and IP literals read without ever asking DNS.
 */
public final class HostPort {

    private HostPort() {
    }

    /** {@code a} as RFC 5952 text ({@code 2001:db8::1}, {@code 192.0.2.1}); an IPv4-mapped address as IPv4. */
    public static String address(InetAddress a) {
        if (a instanceof Inet6Address six && six.getScopeId() != 0) {
            return NetUtil.toAddressString(a, true) + "%" + six.getScopeId();
        }
        return NetUtil.toAddressString(a, true);
    }

    /** {@code host:port}, brackets around an IPv6 host; an unresolved address keeps its host name; null for null. */
    public static String format(InetSocketAddress s) {
        if (s == null) {
            return null;
        }
        if (s.getAddress() == null) {
            String h = s.getHostString();
            return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + s.getPort();
        }
        return format(s.getAddress(), s.getPort());
    }

    /** {@code host:port} for an address and a port. */
    public static String format(InetAddress a, int port) {
        String h = address(a);
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
    }

    /**
     * An IPv4 or IPv6 literal ({@code 10.0.0.1}, {@code 2001:db8::1}, {@code [::1]}), or null when
     * {@code text} is none: never a DNS lookup. An IPv4-mapped IPv6 literal reads as IPv4.
     */
    public static InetAddress literal(String text) {
        if (text == null) {
            return null;
        }
        String t = text.strip();
        if (t.length() > 2 && t.charAt(0) == '[' && t.charAt(t.length() - 1) == ']') {
            t = t.substring(1, t.length() - 1);
        }
        if (t.isEmpty()) {
            return null;
        }
        return NetUtil.createInetAddressFromIpAddressString(t);
    }
}
