package lookout.console.events;

import java.time.Instant;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;

/**
 * One row of the Events pane: an event, or the summary line a burst was folded into (its message
 * and count change in place as the burst goes on).
 */
public final class EventRow {

    private final Instant at;
    private final Subsystem subsystem;
    private final Severity severity;
    private final boolean summary;
    private final ReadOnlyStringWrapper message;
    private final ReadOnlyIntegerWrapper count;

    EventRow(Instant at, Subsystem subsystem, Severity severity, String message, boolean summary, int count) {
        this.at = at;
        this.subsystem = subsystem;
        this.severity = severity;
        this.summary = summary;
        this.message = new ReadOnlyStringWrapper(message);
        this.count = new ReadOnlyIntegerWrapper(count);
    }

    public Instant at() {
        return at;
    }

    public Subsystem subsystem() {
        return subsystem;
    }

    public Severity severity() {
        return severity;
    }

    /** True for a flood-guard summary line. */
    public boolean summary() {
        return summary;
    }

    public String message() {
        return message.get();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Events this row stands for (1, or the burst size for a summary). */
    public int count() {
        return count.get();
    }

    public ReadOnlyIntegerProperty countProperty() {
        return count.getReadOnlyProperty();
    }

    void fold(int total, String text) {
        count.set(total);
        message.set(text);
    }
}
