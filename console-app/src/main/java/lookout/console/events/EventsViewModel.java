package lookout.console.events;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EventFold;
import lookout.engine.api.Severity;

/**
 * The Events pane without a toolkit: every event, newest last, a text and minimum-severity filter,
 * CSV export. Failures that repeat are folded per subject as the headless engine's log folds them
 * ({@link EventFold}: an upstream, a monitored item, a pool, a PVA server — one WARNING row with
 * its cause, at most one "still failing" row a minute, one recovery row), so a dead upstream under
 * load is a few rows, not one per demotion; the snapshot and {@code /metrics} keep the exact
 * counts. Other bursts are folded by {@link FloodGuard}. Rows are only appended (and summary rows
 * updated in place); at most {@link #MAX_ROWS} are kept, oldest dropped first.
 *
 * <p>Concurrency: UI thread only.
 */
public final class EventsViewModel {

    public static final int MAX_ROWS = 10_000;

    private final ObservableList<EventRow> rows = FXCollections.observableArrayList();
    private final FilteredList<EventRow> visible = new FilteredList<>(rows, r -> true);
    private final StringProperty filterText = new SimpleStringProperty("");
    private final ObjectProperty<Severity> minimumSeverity = new SimpleObjectProperty<>(Severity.INFO);
    private final FloodGuard guard = new FloodGuard();
    private final EventFold fold = new EventFold(this::foldedLine);
    /** While {@link #fold} takes an event: that event, and the rows its lines became (UI thread). */
    private EngineEvent folding;
    private final List<EventRow> foldedRows = new java.util.ArrayList<>();
    private final lookout.console.widgets.Note exportNote = new lookout.console.widgets.Note();

    public EventsViewModel() {
        filterText.addListener((o, a, b) -> refilter());
        minimumSeverity.addListener((o, a, b) -> refilter());
    }

    private void refilter() {
        String f = filterText.get() == null ? "" : filterText.get().strip().toLowerCase(Locale.ROOT);
        Severity min = minimumSeverity.get() == null ? Severity.INFO : minimumSeverity.get();
        visible.setPredicate(r -> r.severity().compareTo(min) >= 0
                && (f.isEmpty() || r.message().toLowerCase(Locale.ROOT).contains(f)
                    || lookout.console.widgets.PlainWords.of(r.message()).toLowerCase(Locale.ROOT).contains(f)
                    || r.subsystem().name().toLowerCase(Locale.ROOT).contains(f)));
    }

    /** What the last CSV export did (it clears itself). */
    public lookout.console.widgets.Note exportNote() {
        return exportNote;
    }

    /** Every row, oldest first. */
    public ObservableList<EventRow> rows() {
        return rows;
    }

    /** The rows passing the filter. */
    public FilteredList<EventRow> visibleRows() {
        return visible;
    }

    public StringProperty filterTextProperty() {
        return filterText;
    }

    public ObjectProperty<Severity> minimumSeverityProperty() {
        return minimumSeverity;
    }

    /** A batch of events from the gateway, in arrival order. */
    public void onEvents(List<EngineEvent> batch) {
        List<EventRow> added = new java.util.ArrayList<>();
        for (EngineEvent e : batch) {
            folding = e;
            foldedRows.clear();
            boolean folded;
            try {
                folded = fold.offer(e);
            } finally {
                folding = null;
            }
            if (folded) {
                added.addAll(foldedRows); // none when it was only counted into a failure already shown
                continue;
            }
            EventRow r = guard.accept(e);
            if (r != null) {
                added.add(r);
            }
        }
        rows.addAll(added);
        int excess = rows.size() - MAX_ROWS;
        if (excess > 0) {
            rows.remove(0, excess);
        }
        if (!filterText.get().isEmpty() || minimumSeverity.get() != Severity.INFO) {
            // FilteredList re-tests rows on add; summary rows whose text changed need a re-test too.
            refilter();
        }
    }

    /** A line of the fold: a row, at the event's time and subsystem; DEBUG lines (a repeat counted) are none. */
    private void foldedLine(System.Logger.Level level, String message) {
        Severity severity = switch (level) {
            case ERROR -> Severity.ERROR;
            case WARNING -> Severity.WARNING;
            case INFO -> Severity.INFO;
            default -> null;
        };
        if (severity == null || folding == null) {
            return;
        }
        foldedRows.add(new EventRow(folding.at(), folding.subsystem(), severity, message,
                message.contains(" still failing: "), 1));
    }


    /**
     * Events of earlier runs (the console's event log), shown before this run's, oldest first,
     * under a line that says where they end.
     */
    public void restore(List<EngineEvent> earlier, String from) {
        if (earlier.isEmpty()) {
            return;
        }
        FloodGuard g = new FloodGuard();
        List<EventRow> old = new java.util.ArrayList<>();
        for (EngineEvent e : earlier) {
            EventRow r = g.accept(e);
            if (r != null) {
                old.add(r);
            }
        }
        Instant last = earlier.get(earlier.size() - 1).at();
        old.add(new EventRow(last, lookout.engine.api.Subsystem.ENGINE, Severity.INFO,
                "— the events above are from before this console started (kept in " + from + ") —", true, 0));
        int room = Math.max(0, MAX_ROWS - rows.size());
        rows.addAll(0, old.subList(Math.max(0, old.size() - room), old.size()));
        if (!filterText.get().isEmpty() || minimumSeverity.get() != Severity.INFO) {
            refilter();
        }
    }

    /**
     * The visible rows as CSV (RFC 4180: quoted fields, CRLF), with a header: times in UTC as
     * ISO 8601 ({@code 2026-11-29T15:04:05.123Z}, the zone said), the message in plain words and
     * the engine's own text beside it when they differ.
     */
    public String toCsv() {
        return toCsv(visible);
    }

    static String toCsv(List<EventRow> list) {
        StringBuilder sb = new StringBuilder("time_utc,subsystem,severity,count,message,engine_text\r\n");
        for (EventRow r : list) {
            String plain = lookout.console.widgets.PlainWords.of(r.message());
            sb.append(csv(lookout.console.widgets.Times.iso(r.at()))).append(',')
              .append(csv(r.subsystem().name())).append(',')
              .append(csv(r.severity().name())).append(',')
              .append(r.count()).append(',')
              .append(csv(plain)).append(',')
              .append(csv(plain.equals(r.message().strip()) ? "" : r.message())).append("\r\n");
        }
        return sb.toString();
    }

    static String formatTime(Instant at) {
        return lookout.console.widgets.Times.full(at);
    }

    static String csv(String field) {
        if (field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")) {
            return '"' + field.replace("\"", "\"\"") + '"';
        }
        return field;
    }
}
