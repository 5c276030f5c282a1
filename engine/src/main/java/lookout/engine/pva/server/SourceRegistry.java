package lookout.engine.pva.server;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The ordered list of sources and the beacon change count (seed 002 §4: "incremented whenever
 * the set of registered Sources changes"). Sources are added and removed on the engine loop and
 * searched by every responder thread at once (copy on write, as PVXS holds a read lock on its
 * Source list during onSearch).
 */
public final class SourceRegistry {

    private final List<Source> sources = new CopyOnWriteArrayList<>();
    private volatile int changeCount;

    public void add(Source source) {
        sources.add(source);
        changeCount = (changeCount + 1) & 0xFFFF;
    }

    public boolean remove(Source source) {
        boolean removed = sources.remove(source);
        if (removed) {
            changeCount = (changeCount + 1) & 0xFFFF;
        }
        return removed;
    }

    public List<Source> sources() {
        return List.copyOf(sources);
    }

    /** The u16 carried in beacons. */
    public int changeCount() {
        return changeCount;
    }

    /** seed 002 §4 step 2: every name to every source, in source order, as one operation. */
    public SearchOperation search(String[] names, int[] cids) {
        return search(new SearchOperation(names, cids));
    }

    SearchOperation search(SearchOperation op) {
        for (Source s : sources) {
            if (op.claimedCount() == op.size()) {
                break;
            }
            s.onSearch(op);
        }
        return op;
    }
}
