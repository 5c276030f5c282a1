package lookout.engine.api;

/** PVA server side: responder, beacons, forwarding, name server. SKELETON: the PVA server work defines the fields. */
public record PvaServerSnapshot(boolean running) {
}
