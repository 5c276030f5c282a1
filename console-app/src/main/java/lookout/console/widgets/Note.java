package lookout.console.widgets;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * A pane's one-line message about the operator's last action ("Forced 192.0.2.1/* DOWN.",
 * "Searching ring:demo:1."): it says what happened, then goes, so that a message from an hour ago
 * is not read as news. The view clears it after a while ({@link NoteLabel}); a newer message is
 * never cleared by an older one's timer ({@link #clearIf}).
 *
 * <p>Concurrency: UI thread only. No toolkit class: view models hold these.
 */
public final class Note {

    private final ReadOnlyStringWrapper text = new ReadOnlyStringWrapper("");
    private long serial;

    /** Says {@code message} (empty: nothing). */
    public void say(String message) {
        serial++;
        text.set(message == null ? "" : message);
    }

    public void clear() {
        say("");
    }

    /** Clears the message if it is still the one numbered {@code said} ({@link #serial()}). */
    public void clearIf(long said) {
        if (serial == said && !text.get().isEmpty()) {
            clear();
        }
    }

    /** Counts the messages said, so that a timer can tell whether its message is still shown. */
    public long serial() {
        return serial;
    }

    public String text() {
        return text.get();
    }

    public ReadOnlyStringProperty textProperty() {
        return text.getReadOnlyProperty();
    }
}
