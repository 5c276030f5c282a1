package lookout.console.pva;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** One watched or searched PV, updated in place from each snapshot. */
public final class ChannelRow {

    final StringProperty name = new SimpleStringProperty();
    final StringProperty origin = new SimpleStringProperty();
    final StringProperty state = new SimpleStringProperty();
    final IntegerProperty attempts = new SimpleIntegerProperty();
    /** Milliseconds to the next search at the snapshot's time, -1 when not searching. */
    final javafx.beans.property.LongProperty nextSearchMillis = new javafx.beans.property.SimpleLongProperty(-1);
    /** Ring bucket, -1 not in the ring, -2 in the initial list. */
    final IntegerProperty bucket = new SimpleIntegerProperty(-1);
    final StringProperty server = new SimpleStringProperty();
    final StringProperty guid = new SimpleStringProperty();
    /** Listed in pva.watch: "Stop searching" cannot stop it. */
    final javafx.beans.property.BooleanProperty watched = new javafx.beans.property.SimpleBooleanProperty();

    ChannelRow(String name) {
        this.name.set(name);
    }

    public String name() {
        return name.get();
    }

    public String state() {
        return state.get();
    }

    public int attempts() {
        return attempts.get();
    }

    public String bucket() {
        return bucketText(bucket.get());
    }

    public String nextSearch() {
        return nextSearchText(nextSearchMillis.get());
    }

    static String bucketText(int b) {
        return b == -2 ? "initial" : b < 0 ? "" : Integer.toString(b);
    }

    static String nextSearchText(long ms) {
        return ms < 0 ? "" : String.format(java.util.Locale.ROOT, "in %.1f s", ms / 1000.0);
    }

    public String server() {
        return server.get();
    }

    public String guid() {
        return guid.get();
    }

    public String origin() {
        return origin.get();
    }
}
