package lookout.console.pva;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import lookout.console.widgets.Indicator;
import lookout.engine.api.EngineSnapshot;

/**
 * The PVA pane without a toolkit. It reads only its section of the snapshot; a null section
 * means the service is not running, and the pane says so instead of showing anything invented.
 *
 * <p>Concurrency: UI thread only.
 */
public final class PvaViewModel {

    private final Indicator status = new Indicator();
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");

    public PvaViewModel() {
        status.set("Waiting for the first snapshot…", Indicator.Level.INACTIVE);
    }

    public Indicator status() {
        return status;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public void onSnapshot(EngineSnapshot s) {
        boolean server = s.pvaServer() != null && s.pvaServer().running();
        if (s.pva() == null && !server) {
            status.set("Not running: the engine has no PVA client or server running.", Indicator.Level.INACTIVE);
            detail.set("Nothing to show. No data is invented here: this pane fills in when the engine reports the PVA client.");
        } else {
            status.set("Running.", Indicator.Level.NORMAL);
            detail.set("The engine reports " + (s.pva() != null ? "the PVA client" : "") + (s.pva() != null && server ? " and " : "") + (server ? "the PVA server" : "") + " as running but publishes no further details in this build.");
        }
    }
}
