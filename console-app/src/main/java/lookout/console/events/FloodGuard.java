package lookout.console.events;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;

/**
 * Folds bursts into one line. Within a window of {@link #WINDOW} (event time), the first
 * {@link #PASS} events of a subsystem are shown as they are; the rest of that window becomes one
 * summary row, updated in place ("412 more RESOURCE events in this burst: 400 WARNING, …"). A
 * quiet window starts afresh. Pure: time is each event's own stamp.
 */
public final class FloodGuard {

    /** Burst window. */
    public static final Duration WINDOW = Duration.ofSeconds(1);
    /** Events per subsystem and window shown one by one before folding. */
    public static final int PASS = 10;

    private final Map<Subsystem, Burst> bursts = new EnumMap<>(Subsystem.class);

    /** What to do with an event: a new row to append, or null when it was folded into an existing row. */
    public EventRow accept(EngineEvent e) {
        Burst b = bursts.get(e.subsystem());
        if (b == null || !e.at().isBefore(b.start.plus(WINDOW))) {
            b = new Burst(e.at());
            bursts.put(e.subsystem(), b);
        }
        b.seen++;
        if (b.seen <= PASS) {
            return new EventRow(e.at(), e.subsystem(), e.severity(), e.message(), false, 1);
        }
        b.folded++;
        b.bySeverity.merge(e.severity(), 1, Integer::sum);
        if (e.severity().compareTo(b.worst) > 0) {
            b.worst = e.severity();
        }
        b.lastMessage = e.message();
        String text = b.folded + " more " + e.subsystem() + " events folded in this burst ("
                + b.describeSeverities() + "); last: " + b.lastMessage;
        if (b.row == null) {
            b.row = new EventRow(e.at(), e.subsystem(), b.worst, text, true, b.folded);
            return b.row;
        }
        b.row.fold(b.folded, text);
        return null;
    }

    private static final class Burst {
        final Instant start;
        final Map<Severity, Integer> bySeverity = new EnumMap<>(Severity.class);
        int seen;
        int folded;
        Severity worst = Severity.INFO;
        String lastMessage = "";
        EventRow row;

        Burst(Instant start) {
            this.start = start;
        }

        String describeSeverities() {
            StringBuilder sb = new StringBuilder();
            for (int i = Severity.values().length - 1; i >= 0; i--) {
                Severity s = Severity.values()[i];
                Integer n = bySeverity.get(s);
                if (n != null) {
                    if (sb.length() > 0) {
                        sb.append(", ");
                    }
                    sb.append(n).append(' ').append(s);
                }
            }
            return sb.toString();
        }
    }
}
