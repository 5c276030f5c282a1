package lookout.engine.control;

/** Who may call a route (docs/design/control.md §Authorisation). */
public enum Access {
    /** Anyone on loopback; beyond loopback a viewer or operator token. */
    READ,
    /** Anyone on loopback; beyond loopback an operator token (the audit log names people). */
    AUDIT,
    /** An operator token, everywhere; audited. */
    WRITE,
    /**
     * {@code POST /api/v1/config}: a write ({@link #WRITE}), except a dry run ({@code "dryRun":true}
     * in the body), which changes nothing and is a read ({@link #READ}): a viewer may diff.
     */
    APPLY;

    /** What {@code body} asks of a route of this access: {@link #APPLY} resolves to a read or a write. */
    Access of(byte[] body) {
        if (this != APPLY) {
            return this;
        }
        return JsonBody.asksDryRun(body) ? READ : WRITE;
    }
}
