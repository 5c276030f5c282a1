package lookout.console.remote;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Where an engine's control API is: {@code http://HOST:PORT} or {@code https://HOST:PORT}, with an
 * optional base path (an engine behind a reverse proxy). Written as an operator types it: a bare
 * {@code HOST[:PORT]} means {@code http://}, and without a port the engine's default status port
 * {@value #DEFAULT_PORT}.
 *
 * @param base     the normalised base, without a trailing slash ({@code http://127.0.0.1:9153})
 * @param https    TLS
 * @param host     the host as written (an IPv6 literal without brackets)
 * @param port     the port
 * @param loopback the host is a loopback address, or a name that resolves to loopback addresses only
 */
public record EngineUrl(String base, boolean https, String host, int port, boolean loopback) {

    /** The engine's status port in the embedded default and the service configuration. */
    public static final int DEFAULT_PORT = 9153;

    /** The contract's default: the local engine of the default configuration. */
    public static final String DEFAULT = "http://127.0.0.1:" + DEFAULT_PORT;

    /** An engine URL that makes no sense, with the reason in plain words. */
    public static final class BadUrl extends Exception {
        private static final long serialVersionUID = 1L;

        BadUrl(String message) {
            super(message);
        }
    }

    public static EngineUrl parse(String text) throws BadUrl {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw new BadUrl("an engine URL is empty");
        }
        boolean schemeGiven = t.contains("://");
        URI u;
        try {
            u = new URI(schemeGiven ? t : "http://" + t);
        } catch (URISyntaxException e) {
            throw new BadUrl("not a URL: " + t);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new BadUrl("an engine URL starts with http:// or https://, not " + scheme + "://");
        }
        String host = u.getHost();
        if (host == null || host.isEmpty()) {
            throw new BadUrl("no host in " + t);
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null) {
            throw new BadUrl("an engine URL has no query, fragment or user name: " + t);
        }
        boolean https = scheme.equals("https");
        int port = u.getPort() >= 0 ? u.getPort() : schemeGiven ? (https ? 443 : 80) : DEFAULT_PORT;
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String bareHost = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        String shownHost = bareHost.indexOf(':') >= 0 ? "[" + bareHost + "]" : bareHost;
        String base = scheme + "://" + shownHost + ":" + port + path;
        return new EngineUrl(base, https, bareHost, port, isLoopback(bareHost));
    }

    /** The default engine, {@value #DEFAULT}. */
    public static EngineUrl defaultEngine() {
        try {
            return parse(DEFAULT);
        } catch (BadUrl e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code base + path}: {@code path} starts with a slash. */
    public URI resolve(String path) {
        return URI.create(base + path);
    }

    /** True for 127.0.0.0/8, ::1 and names whose every address is one of those. */
    static boolean isLoopback(String host) {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            if (all.length == 0) {
                return false;
            }
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return base;
    }
}
