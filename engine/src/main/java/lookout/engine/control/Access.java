package lookout.engine.control;

/** Who may call a route (docs/design/control.md §Authorisation). */
public enum Access {
    /** Anyone on loopback; beyond loopback a viewer or operator token. */
    READ,
    /** Anyone on loopback; beyond loopback an operator token (the audit log names people). */
    AUDIT,
    /** An operator token, everywhere; audited. */
    WRITE
}
