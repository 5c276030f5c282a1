package lookout.console.pva;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** One of the engine's own status PVs (status.pv_prefix), updated in place. */
public final class StatusPvRow {

    final StringProperty name = new SimpleStringProperty();
    final StringProperty type = new SimpleStringProperty();
    final StringProperty value = new SimpleStringProperty();
    final StringProperty alarm = new SimpleStringProperty();
    final StringProperty rule = new SimpleStringProperty();
    final IntegerProperty monitors = new SimpleIntegerProperty();

    StatusPvRow(String name) {
        this.name.set(name);
    }

    public String name() {
        return name.get();
    }

    public String value() {
        return value.get();
    }

    /** {@code NO_ALARM}, or the severity and the alarm's message ({@code MAJOR: every server ...}). */
    public String alarm() {
        return alarm.get();
    }
}
