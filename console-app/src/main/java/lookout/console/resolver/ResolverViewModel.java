package lookout.console.resolver;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import lookout.console.widgets.Indicator;
import lookout.engine.api.EngineSnapshot;

/**
 * The resolver pane without a toolkit. It reads only its section of the snapshot; a null section
 * means the service is not running, and the pane says so instead of showing anything invented.
 *
 * <p>Concurrency: UI thread only.
 */
public final class ResolverViewModel {

    private final Indicator status = new Indicator();
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");

    public ResolverViewModel() {
        status.set("Waiting for the first snapshot…", Indicator.Level.INACTIVE);
    }

    public Indicator status() {
        return status;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public void onSnapshot(EngineSnapshot s) {
        if (s.resolver() == null) {
            status.set("Not running: the engine has no resolver running.", Indicator.Level.INACTIVE);
            detail.set("Nothing to show. No data is invented here: this pane fills in when the engine reports the resolver.");
        } else {
            status.set("Running.", Indicator.Level.NORMAL);
            detail.set("The engine reports the resolver as running but publishes no further details in this build.");
        }
    }
}
