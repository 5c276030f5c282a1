package lookout.console.widgets;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Times as the console writes them: UTC, and saying so, everywhere (tables, exports, the "why?"
 * panels), the same as the headless log and {@code lookout ctl}. A control room spans sites and
 * shifts; a time without its zone is a time that will be misread.
 *
 * <p>Pure; any thread.
 */
public final class Times {

    /** {@code 2026-11-29 15:04:05.123Z}: tables and panels. */
    private static final DateTimeFormatter FULL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** {@code 15:04:05Z}: short columns (first seen, last seen). */
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    /** {@code 2026-11-29 15:04:05Z}: history. */
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Times() {
    }

    public static String full(Instant t) {
        return t == null ? "" : FULL.format(t);
    }

    public static String clock(Instant t) {
        return t == null ? "" : CLOCK.format(t);
    }

    public static String seconds(Instant t) {
        return t == null ? "" : SECONDS.format(t);
    }

    /** ISO 8601 in UTC with milliseconds ({@code 2026-11-29T15:04:05.123Z}): CSV and files. */
    public static String iso(Instant t) {
        return t == null ? "" : DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }
}
