package lookout.engine.pva.server;

import java.util.function.BooleanSupplier;
import lookout.engine.seams.HostedPvs;

/**
 * Claims, for this server itself (its GUID and TCP port), the names of the PVs the engine serves
 * ({@link HostedPvs}: the status PVs of {@code status.pv_prefix}). First in the source order, so
 * that the name-server source never asks the client to resolve the engine's own names. Claims
 * only while the TCP listener that serves them is open (seed 002 §4: claim only what can be
 * created at once). Any responder thread: the lookup and the listener check are thread-safe.
 */
final class HostedSource implements Source {

    private final HostedPvs hosted;
    private final BooleanSupplier serving;

    HostedSource(HostedPvs hosted, BooleanSupplier serving) {
        this.hosted = hosted;
        this.serving = serving;
    }

    @Override
    public String name() {
        return "status-pvs";
    }

    @Override
    public void onSearch(SearchOperation op) {
        if (!serving.getAsBoolean()) {
            return;
        }
        for (int i = 0, n = op.size(); i < n; i++) {
            if (!op.isClaimed(i) && hosted.hosts(op.name(i))) {
                op.claim(i);
            }
        }
    }
}
