package lookout.console.configpane;

import java.time.Instant;

/** One applied configuration version as the console saw it (this session). */
public record HistoryEntry(long version, Instant appliedAt, String sha256, String sourceName, String text) {

    public String shortHash() {
        return sha256 == null ? "" : sha256.substring(0, Math.min(12, sha256.length()));
    }
}
