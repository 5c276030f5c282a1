package lookout.engine.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import lookout.engine.config.StatusConfig;
import org.junit.jupiter.api.Test;

/** The authorisation table of docs/design/control.md, without sockets. */
class AuthorizerTest {

    private static final String OWN = "own-token-0123456789abcdefghijklmnopqrstu";
    private static final Map<String, StatusConfig.Token> TOKENS = Map.of(
            "alice", new StatusConfig.Token("alice", StatusConfig.Role.OPERATOR, Path.of("a"), "alice-token-0123456789"),
            "wall", new StatusConfig.Token("wall", StatusConfig.Role.VIEWER, Path.of("w"), "wall-token-0123456789ab"));

    private final Authorizer loopback = new Authorizer(OWN, TOKENS, false);
    private final Authorizer remote = new Authorizer(OWN, TOKENS, true);

    private static Principal allowed(Authorizer.Decision d) {
        assertThat(d).isInstanceOf(Authorizer.Allowed.class);
        return ((Authorizer.Allowed) d).principal();
    }

    private static Authorizer.Refused refused(Authorizer.Decision d, int status) {
        assertThat(d).isInstanceOfSatisfying(Authorizer.Refused.class, r -> assertThat(r.status()).isEqualTo(status));
        return (Authorizer.Refused) d;
    }

    @Test
    void onLoopbackReadsNeedNothingAndWritesAnOperatorToken() {
        assertThat(allowed(loopback.decide(Access.READ, null))).isEqualTo(Principal.ANONYMOUS);
        assertThat(allowed(loopback.decide(Access.AUDIT, null)).role()).isEqualTo(Principal.Role.ANONYMOUS);
        Authorizer.Refused r = refused(loopback.decide(Access.WRITE, null), 401);
        assertThat(r.challenge()).isEqualTo("Bearer realm=\"lookout\"");
        assertThat(r.message()).contains("control.token");
        assertThat(allowed(loopback.decide(Access.WRITE, "Bearer " + OWN))).isEqualTo(
                new Principal(Principal.Role.OPERATOR, "operator"));
        assertThat(allowed(loopback.decide(Access.WRITE, "bearer alice-token-0123456789")).token()).isEqualTo("alice");
    }

    @Test
    void aViewerReadsButDoesNotWrite() {
        assertThat(allowed(loopback.decide(Access.READ, "Bearer wall-token-0123456789ab")).role())
                .isEqualTo(Principal.Role.VIEWER);
        Authorizer.Refused r = refused(loopback.decide(Access.WRITE, "Bearer wall-token-0123456789ab"), 403);
        assertThat(r.challenge()).contains("error=\"insufficient_scope\"");
        assertThat(r.token()).isEqualTo("wall");
    }

    @Test
    void anUnknownOrMalformedTokenIs401EvenForAReadOnLoopback() {
        assertThat(refused(loopback.decide(Access.READ, "Bearer guess"), 401).challenge()).contains("invalid_token");
        assertThat(refused(loopback.decide(Access.READ, "Bearer " + OWN + "x"), 401).challenge()).contains("invalid_token");
        assertThat(refused(loopback.decide(Access.READ, "Basic dXNlcjpwdw=="), 401).challenge()).contains("invalid_request");
        assertThat(refused(loopback.decide(Access.READ, "Bearer a b"), 401).challenge()).contains("invalid_request");
    }

    @Test
    void beyondLoopbackEveryRequestNeedsATokenAndTheAuditLogAnOperator() {
        refused(remote.decide(Access.READ, null), 401);
        refused(remote.decide(Access.AUDIT, null), 401);
        assertThat(allowed(remote.decide(Access.READ, "Bearer wall-token-0123456789ab")).token()).isEqualTo("wall");
        refused(remote.decide(Access.AUDIT, "Bearer wall-token-0123456789ab"), 403);
        assertThat(allowed(remote.decide(Access.AUDIT, "Bearer " + OWN)).token()).isEqualTo("operator");
    }

    @Test
    void withoutAnOwnTokenOnlyConfiguredOnesWork() {
        Authorizer none = new Authorizer(null, Map.of(), false);
        refused(none.decide(Access.WRITE, "Bearer " + OWN), 401);
        assertThat(Authorizer.bearer("Bearer   x  ")).isEqualTo("x");
        assertThat(Authorizer.bearer("Bearer")).isNull();
    }
}
