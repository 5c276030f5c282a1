package lookout.engine.api;

/** PVA client side: ring, channels, server table. SKELETON: the PVA client work defines the fields. */
public record PvaSnapshot(boolean running) {
}
