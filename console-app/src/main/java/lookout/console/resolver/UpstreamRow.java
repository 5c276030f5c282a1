package lookout.console.resolver;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** One server of one scope, updated in place. */
public final class UpstreamRow {

    final StringProperty scope = new SimpleStringProperty();
    final StringProperty address = new SimpleStringProperty();
    final BooleanProperty demoted = new SimpleBooleanProperty();
    /** Seconds left on the demotion mark (0 when none). */
    final DoubleProperty markLeft = new SimpleDoubleProperty();
    final StringProperty reason = new SimpleStringProperty("");
    final LongProperty failures = new SimpleLongProperty();
    final LongProperty sent = new SimpleLongProperty();
    final DoubleProperty perSecond = new SimpleDoubleProperty();
    final StringProperty latency = new SimpleStringProperty("");
    /** When an attempt to it last ended with a usable reply / last failed, as "N s ago" (engine time), or "—". */
    final StringProperty lastSuccess = new SimpleStringProperty("—");
    final StringProperty lastFailure = new SimpleStringProperty("—");
    /** It has answered at least once since the engine started. */
    final BooleanProperty answered = new SimpleBooleanProperty();

    UpstreamRow(String scope, String address) {
        this.scope.set(scope);
        this.address.set(address);
    }

    public String scope() {
        return scope.get();
    }

    public String address() {
        return address.get();
    }

    public String lastSuccess() {
        return lastSuccess.get();
    }

    public String lastFailure() {
        return lastFailure.get();
    }

    public boolean demoted() {
        return demoted.get();
    }

    public double markLeft() {
        return markLeft.get();
    }

    public String reason() {
        return reason.get();
    }

    public long failures() {
        return failures.get();
    }

    public boolean answered() {
        return answered.get();
    }

    /**
     * "OK", "no answer yet" (it has never answered: not known to be OK), or "DEMOTED 12.3 s
     * (timeout)" — the state as text, so it reads without colour.
     */
    public String stateText() {
        if (!demoted.get()) {
            return answered.get() ? "OK" : "no answer yet";
        }
        String r = reason.get();
        // a few plain words ("refused", "no answer in time"); the whole reason is in the tooltip and Events
        String cause = lookout.console.widgets.PlainWords.cause(r);
        int colon = r.indexOf(':');
        String shortReason = cause != null ? cause.split(":")[0] : colon > 0 ? r.substring(0, colon) : r;
        return String.format(java.util.Locale.ROOT, "DEMOTED %.1f s", markLeft.get())
                + (shortReason.isEmpty() ? "" : " (" + shortReason + ")");
    }
}
