package lookout.engine.pva.server;

import java.util.ArrayList;
import java.util.List;

/**
 * The ordered list of sources and the beacon change count (seed 002 §4: "incremented whenever
 * the set of registered Sources changes"). Confined to the engine loop.
 */
public final class SourceRegistry {

    private final List<Source> sources = new ArrayList<>();
    private int changeCount;

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
        SearchOperation op = new SearchOperation(names, cids);
        for (int i = 0, n = sources.size(); i < n && op.claimedCount() < op.size(); i++) {
            sources.get(i).onSearch(op);
        }
        return op;
    }
}
