package lookout.engine.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Address literals of the configuration: IPv4 and IPv6 literals (never a host name for a DNS
 * server: the resolver cannot resolve its own upstreams), {@code ip:port}, {@code [v6]:port},
 * prefixes and domain names. Each parser throws {@link IllegalArgumentException} whose message
 * says what was wrong; no parser here ever does a DNS lookup.
 */
final class Addresses {

    /** For {@link #socket}: the text must name a port. */
    static final int PORT_REQUIRED = -1;

    private Addresses() {
    }

    /** An IPv4 or IPv6 literal, or null. */
    static InetAddress ipLiteral(String s) {
        if (s.isEmpty()) {
            return null;
        }
        if (s.indexOf(':') >= 0) {
            // Only hex digits, colons and an embedded dotted quad, starting with a hex digit or a
            // colon: InetAddress then parses it as a literal and never looks anything up.
            if (!(s.charAt(0) == ':' || Character.digit(s.charAt(0), 16) >= 0)) {
                return null;
            }
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                    return null;
                }
            }
            try {
                return InetAddress.getByName(s);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            String x = parts[i];
            if (x.isEmpty() || x.length() > 3 || !x.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(x);
            if (v > 255) {
                return null;
            }
            b[i] = (byte) v;
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * {@code ip}, {@code ip:port}, {@code [v6]}, {@code [v6]:port} or a bare IPv6 literal; the port
     * is {@code defaultPort} when absent.
     */
    static InetSocketAddress socket(String s, int defaultPort, boolean allowPortZero) {
        String host = s;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("missing ']' after the IPv6 address");
            }
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("expected ':port' after ']'");
                }
                port = rest.substring(1);
            }
        } else {
            int colon = s.indexOf(':');
            if (colon >= 0 && colon == s.lastIndexOf(':')) {
                host = s.substring(0, colon);
                port = s.substring(colon + 1);
            }
        }
        InetAddress a = ipLiteral(host);
        if (a == null) {
            throw new IllegalArgumentException("'" + host + "' is not an IPv4 or IPv6 address");
        }
        int p = defaultPort;
        if (port != null) {
            p = port(port, allowPortZero);
        } else if (defaultPort == PORT_REQUIRED) {
            throw new IllegalArgumentException("a port is required");
        }
        return new InetSocketAddress(a, p);
    }

    static int port(String s, boolean allowZero) {
        int min = allowZero ? 0 : 1;
        try {
            int p = Integer.parseInt(s);
            if (p >= min && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("port '" + s + "' is not a number from " + min + " to 65535");
    }

    /** {@code addr/len} or a bare address (a host prefix). Host bits must be zero. */
    static Cidr cidr(String s) {
        int slash = s.indexOf('/');
        String addr = slash < 0 ? s : s.substring(0, slash);
        InetAddress a = ipLiteral(addr);
        if (a == null) {
            throw new IllegalArgumentException("'" + addr + "' is not an IPv4 or IPv6 address");
        }
        int max = a.getAddress().length * 8;
        int len = max;
        if (slash >= 0) {
            String l = s.substring(slash + 1);
            try {
                len = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                len = -1;
            }
            if (len < 0 || len > max) {
                throw new IllegalArgumentException("prefix length '" + l + "' is not a number from 0 to " + max);
            }
        }
        byte[] b = a.getAddress();
        byte[] masked = b.clone();
        for (int i = 0; i < masked.length; i++) {
            int bits = Math.max(0, Math.min(8, len - i * 8));
            masked[i] &= (byte) (0xFF << (8 - bits));
        }
        if (!java.util.Arrays.equals(b, masked)) {
            try {
                String net = InetAddress.getByAddress(masked).getHostAddress();
                throw new IllegalArgumentException("host bits are set; did you mean " + net + "/" + len + "?");
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("host bits are set");
            }
        }
        return new Cidr(a, len);
    }

    /** A domain name, lower case, with the trailing dot added. */
    static String domain(String s) {
        String d = s.toLowerCase(Locale.ROOT);
        if (d.equals(".")) {
            return d;
        }
        if (!d.endsWith(".")) {
            d = d + ".";
        }
        if (d.length() > 254) {
            throw new IllegalArgumentException("name is longer than 253 characters");
        }
        for (String label : d.substring(0, d.length() - 1).split("\\.", -1)) {
            if (label.isEmpty()) {
                throw new IllegalArgumentException("empty label");
            }
            if (label.length() > 63) {
                throw new IllegalArgumentException("label '" + label + "' is longer than 63 characters");
            }
            for (int i = 0; i < label.length(); i++) {
                char c = label.charAt(i);
                if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                    throw new IllegalArgumentException("character '" + c + "' is not allowed in a domain name");
                }
            }
        }
        return d;
    }
}
