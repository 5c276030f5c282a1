package lookout.console.cli;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Aligned columns for people (the last column is not padded), and UTC times. */
final class Table {

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter UTC_MS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final List<String[]> rows = new ArrayList<>();
    private final String indent;

    Table() {
        this("");
    }

    Table(String indent) {
        this.indent = indent;
    }

    Table row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            r[i] = cells[i] == null ? "-" : cells[i].toString();
        }
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintStream out) {
        int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < r.length - 1; i++) {
                width[i] = Math.max(width[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        for (String[] r : rows) {
            StringBuilder b = new StringBuilder(indent);
            for (int i = 0; i < r.length; i++) {
                b.append(r[i]);
                if (i < r.length - 1) {
                    b.append(" ".repeat(width[i] - r[i].codePointCount(0, r[i].length()) + 2));
                }
            }
            out.println(b.toString().stripTrailing());
        }
    }

    /** {@code 2026-01-01 00:00:00Z}, or "-" for null. */
    static String utc(Instant t) {
        return t == null ? "-" : UTC.format(t);
    }

    /** With milliseconds, for event lists. */
    static String utcMillis(Instant t) {
        return t == null ? "-" : UTC_MS.format(t);
    }

    /** A duration for people: 850 ms, 2.3 s, 4 min, 3 h 12 min, 2 d 3 h. */
    static String duration(java.time.Duration d) {
        if (d == null) {
            return "-";
        }
        long ms = d.toMillis();
        if (Math.abs(ms) < 1000) {
            return ms + " ms";
        }
        if (Math.abs(ms) < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long min = d.toMinutes();
        if (Math.abs(min) < 60) {
            return min + " min";
        }
        if (Math.abs(min) < 48 * 60) {
            return (min / 60) + " h" + (min % 60 == 0 ? "" : " " + (min % 60) + " min");
        }
        return (min / 1440) + " d" + ((min / 60) % 24 == 0 ? "" : " " + ((min / 60) % 24) + " h");
    }
}
