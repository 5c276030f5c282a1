package lookout.engine.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import lookout.engine.config.vscf.VNode;

/**
 * Binds the {@code status} section (docs/design/control.md):
 *
 * <pre>
 * status => {
 *   listen => 127.0.0.1:9153                    # a bare port listens on 127.0.0.1
 *   name => dns-1                               # what consoles call this engine (default: host name)
 *   tls => { certificate => cert.pem, key => key.pem }
 *   tokens => { alice => { role => operator, file => /etc/lookout/alice.token } }
 * }
 * </pre>
 *
 * A listener beyond loopback without {@code tls} is a problem at its {@code listen} value: the
 * control API carries bearer tokens, which must never cross a network in clear (RFC 6750 §5.3).
 * Token files are read here, like zone files, so that {@code --check-config} and a reload report
 * an unreadable or malformed one at its position.
 */
final class StatusBinder {

    static final List<String> KEYS = List.of("listen", "name", "tls", "tokens");
    static final List<String> TLS_KEYS = List.of("certificate", "key");
    static final List<String> TOKEN_KEYS = List.of("role", "file");
    static final List<String> ROLES = List.of("operator", "viewer");

    /** The name of {@code STATE_DIR/control.token}'s token; a configured one may not take it. */
    static final String OWN_TOKEN = "operator";

    /** Shorter tokens are guessable; {@code control.token} itself has 43 characters (32 bytes). */
    static final int MIN_TOKEN_LENGTH = 16;

    /** RFC 6750 §2.1 b64token: what a bearer token may contain. */
    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private StatusBinder() {
    }

    /**
     * @param paths resolves a path value against the directory of the file that holds it
     */
    static StatusConfig bind(VNode node, Function<VNode.Scalar, Path> paths, ConfigProblems p) {
        if (node == null) {
            return new StatusConfig(null);
        }
        VNode.Hash h = Bind.hash(node, "status", p);
        if (h == null) {
            return new StatusConfig(null);
        }
        Bind.knownKeys(h, "status", KEYS, p);
        VNode.Scalar listenValue = null;
        InetSocketAddress listen = null;
        if (h.get("listen") != null) {
            listenValue = Bind.scalar(h.get("listen"), "status.listen", "host:port or a port", p);
            if (listenValue != null) {
                listen = listen(listenValue, p);
            }
        }
        String name = null;
        if (h.get("name") != null) {
            VNode.Scalar s = Bind.scalar(h.get("name"), "status.name", "a name", p);
            if (s != null) {
                if (NAME.matcher(s.value()).matches()) {
                    name = s.value();
                } else {
                    p.add(s, "status.name", "status.name: expected a name of letters, digits, '.', '_' or '-' "
                            + "(at most 64), found '" + s.value() + "'");
                }
            }
        }
        StatusConfig.Tls tls = h.get("tls") == null ? null : tls(h.get("tls"), paths, p);
        Map<String, StatusConfig.Token> tokens = h.get("tokens") == null ? Map.of() : tokens(h.get("tokens"), paths, p);
        StatusConfig c = new StatusConfig(listen, name, tls, tokens);
        if (c.beyondLoopback() && tls == null && h.get("tls") == null) {
            p.add(listenValue, "status.listen", "status.listen: " + listenValue.value() + " is beyond loopback, where "
                    + "the control API needs TLS: add tls => { certificate => FILE, key => FILE } to status, "
                    + "or listen on 127.0.0.1");
        }
        return c;
    }

    private static InetSocketAddress listen(VNode.Scalar s, ConfigProblems p) {
        String x = s.value();
        try {
            if (!x.isEmpty() && x.chars().allMatch(Character::isDigit)) {
                // Loopback unless the operator names an interface: status is never public by accident.
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), Addresses.port(x, true));
            }
            return Addresses.socket(x, Addresses.PORT_REQUIRED, true);
        } catch (IllegalArgumentException e) {
            p.add(s, "status.listen", "status.listen: expected host:port or a port, found '" + x + "': " + e.getMessage());
            return null;
        }
    }

    private static StatusConfig.Tls tls(VNode node, Function<VNode.Scalar, Path> paths, ConfigProblems p) {
        VNode.Hash h = Bind.hash(node, "status.tls", p);
        if (h == null) {
            return null;
        }
        Bind.knownKeys(h, "status.tls", TLS_KEYS, p);
        if (h.get("certificate") == null || h.get("key") == null) {
            p.add(h, "status.tls", "status.tls: expected both certificate => FILE and key => FILE (PEM)");
            return null;
        }
        Path cert = pem(h.get("certificate"), "status.tls.certificate", paths, p, true);
        Path key = pem(h.get("key"), "status.tls.key", paths, p, false);
        return cert == null || key == null ? null : new StatusConfig.Tls(cert, key);
    }

    /** A readable PEM file of the expected kind; keys must be unencrypted PKCS#8 (what Netty's JDK provider reads). */
    private static Path pem(VNode v, String path, Function<VNode.Scalar, Path> paths, ConfigProblems p,
                            boolean certificate) {
        VNode.Scalar s = Bind.scalar(v, path, "a PEM file path", p);
        if (s == null) {
            return null;
        }
        Path f = file(s, path, paths, p);
        if (f == null) {
            return null;
        }
        String text;
        try {
            text = ConfigFiles.readUtf8(f);
        } catch (IOException | RuntimeException e) {
            p.add(s, path, path + ": expected a readable PEM file, cannot read '" + f + "': " + reason(e));
            return null;
        }
        if (certificate) {
            if (!text.contains("-----BEGIN CERTIFICATE-----")) {
                p.add(s, path, path + ": expected a PEM certificate (-----BEGIN CERTIFICATE-----) in '" + f + "'");
                return null;
            }
            return f;
        }
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            p.add(s, path, path + ": '" + f + "' is encrypted; a service cannot type its passphrase: expected an "
                    + "unencrypted PKCS#8 key (openssl pkcs8 -topk8 -nocrypt)");
            return null;
        }
        if (text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE KEY-----")) {
            p.add(s, path, path + ": '" + f + "' is a PKCS#1/SEC1 key; expected PKCS#8 (-----BEGIN PRIVATE KEY-----): "
                    + "convert it with openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
            return null;
        }
        if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
            p.add(s, path, path + ": expected a PEM private key (-----BEGIN PRIVATE KEY-----) in '" + f + "'");
            return null;
        }
        return f;
    }

    private static Map<String, StatusConfig.Token> tokens(VNode node, Function<VNode.Scalar, Path> paths,
                                                          ConfigProblems p) {
        Map<String, StatusConfig.Token> out = new LinkedHashMap<>();
        VNode.Hash h = Bind.hash(node, "status.tokens", p);
        if (h == null) {
            return out;
        }
        for (VNode.Entry e : h.entries()) {
            String path = "status.tokens." + e.key();
            if (!NAME.matcher(e.key()).matches()) {
                p.add(e.keyPos(), path, path + ": expected a token name of letters, digits, '.', '_' or '-', found '"
                        + e.key() + "'");
                continue;
            }
            if (e.key().equals(OWN_TOKEN)) {
                p.add(e.keyPos(), path, path + ": the name '" + OWN_TOKEN + "' is the engine's own token "
                        + "(STATE_DIR/control.token); expected another name");
                continue;
            }
            VNode.Hash t = Bind.hash(e.value(), path, p);
            if (t == null) {
                continue;
            }
            Bind.knownKeys(t, path, TOKEN_KEYS, p);
            StatusConfig.Role role = null;
            if (t.get("role") == null) {
                p.add(t, path, path + ": expected role => operator or role => viewer");
            } else {
                VNode.Scalar r = Bind.scalar(t.get("role"), path + ".role", "operator or viewer", p);
                if (r != null) {
                    if (ROLES.contains(r.value())) {
                        role = StatusConfig.Role.valueOf(r.value().toUpperCase(java.util.Locale.ROOT));
                    } else {
                        String guess = ConfigProblems.closest(r.value(), ROLES);
                        p.add(r, path + ".role", path + ".role: expected operator or viewer, found '" + r.value() + "'"
                                + (guess == null ? "" : "; did you mean '" + guess + "'?"));
                    }
                }
            }
            if (t.get("file") == null) {
                p.add(t, path, path + ": expected file => PATH (the token itself never goes in the configuration)");
                continue;
            }
            VNode.Scalar fs = Bind.scalar(t.get("file"), path + ".file", "a file path", p);
            Path f = fs == null ? null : file(fs, path + ".file", paths, p);
            String secret = f == null ? null : secret(fs, f, path + ".file", p);
            if (role != null && secret != null) {
                out.put(e.key(), new StatusConfig.Token(e.key(), role, f, secret));
            }
        }
        return out;
    }

    private static String secret(VNode.Scalar at, Path f, String path, ConfigProblems p) {
        String text;
        try {
            text = ConfigFiles.readUtf8(f).strip();
        } catch (IOException | RuntimeException e) {
            p.add(at, path, path + ": expected a readable token file, cannot read '" + f + "': " + reason(e));
            return null;
        }
        if (text.length() < MIN_TOKEN_LENGTH || !B64TOKEN.matcher(text).matches()) {
            // The message never quotes the file's content: it may be a real token, mistyped.
            p.add(at, path, path + ": expected a token of at least " + MIN_TOKEN_LENGTH + " characters (letters, digits, "
                    + "- . _ ~ + /) on one line in '" + f + "' (for example: head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')");
            return null;
        }
        return text;
    }

    private static Path file(VNode.Scalar s, String path, Function<VNode.Scalar, Path> paths, ConfigProblems p) {
        if (s.value().isEmpty()) {
            p.add(s, path, path + ": expected a file path, found ''");
            return null;
        }
        try {
            return paths.apply(s);
        } catch (InvalidPathException e) {
            p.add(s, path, path + ": expected a file path, found '" + s.value() + "'");
            return null;
        }
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
