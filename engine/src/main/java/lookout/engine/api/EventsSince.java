package lookout.engine.api;

import java.util.List;

/**
 * The journal's events after {@code since} ({@link Engine#eventsSince}).
 *
 * @param since     what the caller asked for (events with a greater sequence number)
 * @param firstKept the oldest sequence number the journal still holds (0 when it is empty)
 * @param last      the newest sequence number handed out so far (0 before the first event)
 * @param events    every kept event after {@code since}, oldest first
 */
public record EventsSince(long since, long firstKept, long last, List<SequencedEvent> events) {

    public EventsSince {
        events = List.copyOf(events);
    }

    /**
     * True when events the caller has not seen are no longer kept (it asked for a point older than
     * the journal holds), or when it asked for a point the journal never reached (the state was
     * reset): either way it cannot take up exactly where it left off.
     */
    public boolean gap() {
        return (firstKept > 0 && since + 1 < firstKept) || since > last;
    }
}
