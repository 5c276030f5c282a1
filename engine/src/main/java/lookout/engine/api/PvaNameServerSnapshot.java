package lookout.engine.api;

import java.time.Instant;

/**
 * A TCP name-server connection (seed 002 §6).
 *
 * @param address      as configured, {@code host:port}
 * @param state        DISCONNECTED, CONNECTING, VALIDATING or READY
 * @param since        when it entered that state
 * @param searchesSent search messages appended to it
 * @param skipped      search messages not appended because more than 64 KiB was already queued
 * @param replies      search replies received on it
 * @param lastError    last connection error, or empty
 */
public record PvaNameServerSnapshot(String address, String state, Instant since, long searchesSent, long skipped,
                                    long replies, String lastError) {
}
