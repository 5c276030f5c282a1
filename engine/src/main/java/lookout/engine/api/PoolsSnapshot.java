package lookout.engine.api;

/** Weighted pools, monitors and odds. SKELETON: the weighted-pools work defines the fields. */
public record PoolsSnapshot(boolean running) {
}
