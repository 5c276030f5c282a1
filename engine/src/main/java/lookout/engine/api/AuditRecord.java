package lookout.engine.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One line of {@code STATE_DIR/audit.log}: a write asked of the engine, accepted or refused.
 *
 * @param at      when
 * @param token   the name of the token that authorised it, or null (the console, a signal, no token)
 * @param peer    {@code ip:port} of the API client, {@code console} or {@code signal}
 * @param action  {@code apply}, {@code force}, {@code release}, {@code search}, {@code stop},
 *                {@code hurry-up}, {@code discovery-ping}
 * @param args    what was asked (a text is recorded by its SHA-256 and size, never in full)
 * @param result  {@code ok}, or {@code refused: why}, or {@code failed: why}
 * @param diff    for an apply, the changes it made (or would have made), else null
 * @param version for an apply, the running version afterwards, else null
 */
public record AuditRecord(Instant at, String token, String peer, String action, Map<String, Object> args,
                          String result, List<String> diff, Long version) {

    public AuditRecord {
        args = args == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(args));
        diff = diff == null ? null : List.copyOf(diff);
    }

    /** True for a write that was done ({@code ok}); false when refused or failed. */
    public boolean ok() {
        return result.equals("ok") || result.startsWith("ok:");
    }
}
