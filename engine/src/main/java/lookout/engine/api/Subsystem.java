package lookout.engine.api;

/** Where an event or a counter comes from; also the logger suffix ({@code lookout.<name>}). */
public enum Subsystem {
    ENGINE, CONFIG, RESOLVER, POOLS, MONITOR, PVA_CLIENT, PVA_SERVER, STATUS
}
