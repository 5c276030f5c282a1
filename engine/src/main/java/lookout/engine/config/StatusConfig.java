package lookout.engine.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code status} section: the HTTP listener that serves {@code /status}, {@code /metrics} and
 * the control API ({@code docs/design/control.md}).
 *
 * @param listen the address, or null when the endpoint is off
 * @param name   what consoles and {@code lookout ctl} call this engine; null: the host's name
 * @param tls    the certificate and key the listener serves TLS with, or null for plain HTTP
 *               (allowed on loopback only)
 * @param tokens the named bearer tokens besides {@code control.token}, by name
 */
public record StatusConfig(InetSocketAddress listen, String name, Tls tls, Map<String, Token> tokens) {

    public StatusConfig {
        tokens = tokens == null ? Map.of() : Map.copyOf(tokens);
    }

    /** Only a listener: no name, plain HTTP, no named tokens. */
    public StatusConfig(InetSocketAddress listen) {
        this(listen, null, null, Map.of());
    }

    /** True when the listener is bound to an address other than loopback (a wildcard included). */
    public boolean beyondLoopback() {
        return listen != null && (listen.getAddress() == null || !listen.getAddress().isLoopbackAddress());
    }

    /** PEM files: an X.509 certificate (chain) and its PKCS#8 private key. */
    public record Tls(Path certificate, Path key) {
    }

    /** What a token may do: {@code viewer} reads, {@code operator} reads and writes. */
    public enum Role {
        OPERATOR, VIEWER;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A named bearer token.
     *
     * @param name   its name in the audit log
     * @param role   what it may do
     * @param file   the file it was read from (the token never sits in the configuration itself)
     * @param secret the token text
     */
    public record Token(String name, Role role, Path file, String secret) {

        public Token {
            Objects.requireNonNull(secret, "secret");
        }

        /** Never the secret: records print their components, and configurations get logged. */
        @Override
        public String toString() {
            return "Token[name=" + name + ", role=" + role.word() + ", file=" + file + "]";
        }
    }
}
