package lookout.engine.control;

/**
 * Who a request is, once its token (or the lack of one) is known.
 *
 * @param role  what it may do
 * @param token the token's name ({@code operator} for {@code control.token}), or null for anonymous
 */
public record Principal(Role role, String token) {

    public enum Role {
        OPERATOR, VIEWER, ANONYMOUS;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    static final Principal ANONYMOUS = new Principal(Role.ANONYMOUS, null);

    boolean writable() {
        return role == Role.OPERATOR;
    }
}
