package lookout.engine.pva.pvserve;

/**
 * Totals of the engine's PV server since it started. Engine loop only.
 */
public final class PvServeCounters {

    public long connections;
    public long connectionsRefused;
    public long channelsCreated;
    public long channelsRefused;
    public long gets;
    public long monitorsCreated;
    public long updatesSent;
    public long writesRefused;
    public long operationsRefused;
    public long unknownCommands;
    /** Connections closed for malformed or hostile input. */
    public long malformed;
    /** Connections closed for not reading what they were sent. */
    public long slowClients;
}
