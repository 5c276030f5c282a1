package lookout.console.fleet;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import lookout.console.widgets.Indicator;

/**
 * One engine of the fleet as the table shows it; its properties are updated in place on every
 * sample (the row itself is never replaced). UI thread only.
 */
public final class FleetRow {

    final ReadOnlyStringWrapper url = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper name = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper state = new ReadOnlyStringWrapper("connecting…");
    final ReadOnlyStringWrapper resolver = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper inFlight = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper failover = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper pvaServers = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper configVersion = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper lastReload = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    final ObjectProperty<Indicator.Level> level = new SimpleObjectProperty<>(Indicator.Level.INACTIVE);
    final ObjectProperty<Indicator.Level> stateLevel = new SimpleObjectProperty<>(Indicator.Level.INACTIVE);
    final ObjectProperty<Indicator.Level> resolverLevel = new SimpleObjectProperty<>(Indicator.Level.NORMAL);
    final ObjectProperty<Indicator.Level> failoverLevel = new SimpleObjectProperty<>(Indicator.Level.NORMAL);
    final ObjectProperty<Indicator.Level> reloadLevel = new SimpleObjectProperty<>(Indicator.Level.NORMAL);

    FleetRow(String url) {
        this.url.set(url);
        this.name.set(url);
    }

    public ReadOnlyStringProperty urlProperty() {
        return url.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty nameProperty() {
        return name.getReadOnlyProperty();
    }

    /** RUNNING, STOPPED, UNREACHABLE, NOT LOOKOUT … */
    public ReadOnlyStringProperty stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** Upstreams healthy of total, or "not running". */
    public ReadOnlyStringProperty resolverProperty() {
        return resolver.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty inFlightProperty() {
        return inFlight.getReadOnlyProperty();
    }

    /** Pools in failover: a count and their names. */
    public ReadOnlyStringProperty failoverProperty() {
        return failover.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty pvaServersProperty() {
        return pvaServers.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty configVersionProperty() {
        return configVersion.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty lastReloadProperty() {
        return lastReload.getReadOnlyProperty();
    }

    /** Why this engine is not answering, or empty. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** The row as a whole: NORMAL, ADVISORY (something degraded), ALARM (down, unreachable). */
    public ObjectProperty<Indicator.Level> levelProperty() {
        return level;
    }

    /** The state alone: RUNNING is normal, an engine down or unreachable an alarm, anything else inactive. */
    public ObjectProperty<Indicator.Level> stateLevelProperty() {
        return stateLevel;
    }

    public ObjectProperty<Indicator.Level> resolverLevelProperty() {
        return resolverLevel;
    }

    public ObjectProperty<Indicator.Level> failoverLevelProperty() {
        return failoverLevel;
    }

    public ObjectProperty<Indicator.Level> reloadLevelProperty() {
        return reloadLevel;
    }

    public String url() {
        return url.get();
    }

    public String name() {
        return name.get();
    }

    public String state() {
        return state.get();
    }

    public String resolver() {
        return resolver.get();
    }

    public String inFlight() {
        return inFlight.get();
    }

    public String failover() {
        return failover.get();
    }

    public String pvaServers() {
        return pvaServers.get();
    }

    public String configVersion() {
        return configVersion.get();
    }

    public String lastReload() {
        return lastReload.get();
    }

    public String problem() {
        return problem.get();
    }

    public Indicator.Level level() {
        return level.get();
    }
}
