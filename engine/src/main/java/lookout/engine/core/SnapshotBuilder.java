package lookout.engine.core;

import java.util.ArrayList;
import java.util.List;
import lookout.engine.api.Metric;
import lookout.engine.api.PoolsSnapshot;
import lookout.engine.api.PvaServerSnapshot;
import lookout.engine.api.PvaSnapshot;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.api.StatusPvsSnapshot;

/** Collects each service's section on the engine loop; confined to one snapshot() call. */
public final class SnapshotBuilder {

    ResolverSnapshot resolver;
    PoolsSnapshot pools;
    PvaSnapshot pva;
    PvaServerSnapshot pvaServer;
    StatusPvsSnapshot statusPvs;
    final List<Metric> metrics = new ArrayList<>();

    public SnapshotBuilder resolver(ResolverSnapshot s) {
        this.resolver = s;
        return this;
    }

    public SnapshotBuilder pools(PoolsSnapshot s) {
        this.pools = s;
        return this;
    }

    public SnapshotBuilder pva(PvaSnapshot s) {
        this.pva = s;
        return this;
    }

    public SnapshotBuilder pvaServer(PvaServerSnapshot s) {
        this.pvaServer = s;
        return this;
    }

    public SnapshotBuilder statusPvs(StatusPvsSnapshot s) {
        this.statusPvs = s;
        return this;
    }

    public SnapshotBuilder metric(Metric m) {
        metrics.add(m);
        return this;
    }

    public SnapshotBuilder metrics(List<Metric> ms) {
        metrics.addAll(ms);
        return this;
    }
}
