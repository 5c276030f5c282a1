package lookout.engine.control;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lookout.engine.config.StatusConfig;

/**
 * Decides who a request is and whether it may call a route (docs/design/control.md
 * §Authorisation), from its {@code Authorization} header alone:
 *
 * <ul>
 * <li>{@code Authorization: Bearer TOKEN} (RFC 6750 §2.1) names a token: {@code control.token}
 *     (name {@code operator}, role operator) or one of {@code status.tokens}. An unknown token is
 *     401 {@code invalid_token} even where no token is needed: a client that sends one means it.
 * <li>No header: anonymous, which may read on a loopback listener and nothing else. Beyond
 *     loopback every request needs a token.
 * <li>A write needs an operator token; a viewer's gets 403 {@code insufficient_scope}. Reading
 *     the audit log beyond loopback needs an operator token too.
 * </ul>
 *
 * Tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual} and every known token
 * is compared, so neither the time taken nor an early exit says how much of a guess was right.
 * Immutable; rebuilt when the configuration's tokens change.
 */
public final class Authorizer {

    /** RFC 6750 §3: the challenge every 401 and 403 carries. */
    static final String REALM = "Bearer realm=\"lookout\"";

    /** What the header decided. */
    sealed interface Decision {
    }

    record Allowed(Principal principal) implements Decision {
    }

    /**
     * @param status    401 or 403
     * @param challenge the {@code WWW-Authenticate} value
     * @param message   what the client is told
     * @param token     the name of the token that was refused for its role, else null
     */
    record Refused(int status, String challenge, String message, String token) implements Decision {
        Refused(int status, String challenge, String message) {
            this(status, challenge, message, null);
        }
    }

    private record Known(String name, Principal.Role role, byte[] digest) {
    }

    private final List<Known> known;
    private final boolean beyondLoopback;

    /**
     * @param ownToken       the text of {@code STATE_DIR/control.token} (null: none yet)
     * @param tokens         {@code status.tokens}
     * @param beyondLoopback whether the listener is bound beyond loopback
     */
    public Authorizer(String ownToken, Map<String, StatusConfig.Token> tokens, boolean beyondLoopback) {
        List<Known> k = new ArrayList<>();
        if (ownToken != null) {
            k.add(new Known("operator", Principal.Role.OPERATOR, digest(ownToken)));
        }
        for (StatusConfig.Token t : tokens.values()) {
            k.add(new Known(t.name(), t.role() == StatusConfig.Role.OPERATOR ? Principal.Role.OPERATOR
                    : Principal.Role.VIEWER, digest(t.secret())));
        }
        this.known = List.copyOf(k);
        this.beyondLoopback = beyondLoopback;
    }

    boolean beyondLoopback() {
        return beyondLoopback;
    }

    /** Who {@code authorization} (the header's value, or null) is, and whether it may call {@code access}. */
    Decision decide(Access access, String authorization) {
        Principal p;
        if (authorization == null || authorization.isBlank()) {
            if (beyondLoopback) {
                return new Refused(401, REALM, "a bearer token is needed on this listener (Authorization: Bearer TOKEN)");
            }
            if (access == Access.WRITE) {
                return new Refused(401, REALM, "writes need an operator token (Authorization: Bearer TOKEN; "
                        + "the engine's own is in STATE_DIR/control.token)");
            }
            p = Principal.ANONYMOUS;
        } else {
            String token = bearer(authorization);
            if (token == null) {
                return new Refused(401, REALM + ", error=\"invalid_request\"",
                        "the Authorization header is not 'Bearer TOKEN' (RFC 6750)");
            }
            p = lookup(token);
            if (p == null) {
                return new Refused(401, REALM + ", error=\"invalid_token\"", "the token is not one this engine knows");
            }
        }
        boolean operatorNeeded = access == Access.WRITE || (access == Access.AUDIT && beyondLoopback);
        if (operatorNeeded && p.role() != Principal.Role.OPERATOR) {
            return new Refused(403, REALM + ", error=\"insufficient_scope\"", (access == Access.WRITE ? "writes"
                    : "the audit log") + " need an operator token; '" + p.token() + "' is a " + p.role().word() + " token", p.token());
        }
        return new Allowed(p);
    }

    /** The token of a {@code Bearer} credential (scheme case-insensitive, RFC 9110 §11.1), or null. */
    static String bearer(String authorization) {
        String a = authorization.strip();
        int sp = a.indexOf(' ');
        if (sp <= 0 || !a.substring(0, sp).equalsIgnoreCase("Bearer")) {
            return null;
        }
        String t = a.substring(sp + 1).strip();
        return t.isEmpty() || t.indexOf(' ') >= 0 ? null : t;
    }

    private Principal lookup(String token) {
        byte[] d = digest(token);
        Known match = null;
        for (Known k : known) {
            // every one compared: no early exit
            if (MessageDigest.isEqual(k.digest, d) && match == null) {
                match = k;
            }
        }
        return match == null ? null : new Principal(match.role, match.name);
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
