package lookout.console.pva;

import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import lookout.engine.api.PvaDiscoveredServer;

/** One discovered PVA server, updated in place. */
public final class ServerRow {

    final StringProperty guid = new SimpleStringProperty();
    final StringProperty endpoint = new SimpleStringProperty();
    final StringProperty protocol = new SimpleStringProperty();
    // Raw values: formatting happens in the few visible cells, not for 20 000 rows per snapshot.
    final ObjectProperty<java.time.Instant> firstSeen = new SimpleObjectProperty<>();
    final ObjectProperty<java.time.Instant> lastSeen = new SimpleObjectProperty<>();
    final ObjectProperty<java.time.Duration> beaconPeriod = new SimpleObjectProperty<>();
    final LongProperty restarts = new SimpleLongProperty();
    final ObjectProperty<PvaDiscoveredServer.Status> status = new SimpleObjectProperty<>();
    /** The engine's own PVA server (its GUID), heard by its own client. */
    final javafx.beans.property.BooleanProperty own = new javafx.beans.property.SimpleBooleanProperty();

    ServerRow(String guid, String endpoint) {
        this.guid.set(guid);
        this.endpoint.set(endpoint);
    }

    public String guid() {
        return guid.get();
    }

    public String endpoint() {
        return endpoint.get();
    }

    public PvaDiscoveredServer.Status status() {
        return status.get();
    }

    public boolean own() {
        return own.get();
    }

    /** "ONLINE", "STALE", "OFFLINE", with " · this engine" for the engine's own server. */
    public String stateText() {
        String st = status.get() == null ? "" : status.get().name();
        return own.get() ? st + " · this engine" : st;
    }

    public long restarts() {
        return restarts.get();
    }

    public java.time.Instant lastSeen() {
        return lastSeen.get();
    }

    public java.time.Duration beaconPeriod() {
        return beaconPeriod.get();
    }
}
