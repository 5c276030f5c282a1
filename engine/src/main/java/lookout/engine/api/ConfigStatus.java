package lookout.engine.api;

import java.time.Instant;

/**
 * The running configuration as the snapshot shows it.
 *
 * @param version    1 for the configuration the engine started on, +1 per applied reload
 * @param sha256     hash of its text
 * @param sourceName file path or {@code <embedded default>}
 * @param appliedAt  when it was applied
 * @param text       the running text (the console's editor starts from it)
 * @param lastReload the last reload attempt, or null if none yet
 */
public record ConfigStatus(long version, String sha256, String sourceName, Instant appliedAt, String text,
                           ReloadResult lastReload) {
}
