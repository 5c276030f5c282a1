package lookout.engine.config;

import java.util.List;

/**
 * The {@code pva} section, with the matching {@code EPICS_PVA_*} environment variables already
 * applied where a key is absent (seed 002 §9).
 *
 * @param addrList            search destinations ({@code EPICS_PVA_ADDR_LIST})
 * @param autoAddrList        add each interface's broadcast address ({@code EPICS_PVA_AUTO_ADDR_LIST})
 * @param nameServers         TCP name servers ({@code EPICS_PVA_NAME_SERVERS})
 * @param broadcastPort       UDP search port, default 5076
 * @param serverPort          TCP server port, default 5075
 * @param beaconAddrList      beacon destinations ({@code EPICS_PVAS_BEACON_ADDR_LIST})
 * @param autoBeaconAddrList  beacons to each interface's broadcast address
 * @param ignoreAddrList      sources whose searches the server drops ({@code EPICS_PVAS_IGNORE_ADDR_LIST})
 * @param server              the engine's own PVA server
 * @param watch               PV names kept searching
 * @param discoveryAtStart    send one discovery ping at start (passive by default)
 * @param ignoreGuids         server GUIDs (24 hex digits) whose replies are discarded (seed 002 §3.5 step 1)
 */
public record PvaConfig(List<PvaAddress> addrList,
                        boolean autoAddrList,
                        List<PvaAddress> nameServers,
                        int broadcastPort,
                        int serverPort,
                        List<PvaAddress> beaconAddrList,
                        boolean autoBeaconAddrList,
                        List<PvaAddress> ignoreAddrList,
                        PvaServerConfig server,
                        List<String> watch,
                        boolean discoveryAtStart,
                        List<String> ignoreGuids) {

    public PvaConfig {
        addrList = List.copyOf(addrList);
        nameServers = List.copyOf(nameServers);
        beaconAddrList = List.copyOf(beaconAddrList);
        ignoreAddrList = List.copyOf(ignoreAddrList);
        watch = List.copyOf(watch);
        ignoreGuids = List.copyOf(ignoreGuids);
    }

    /** An address-list entry {@code host[:port]}; port 0 means "the default port for this list". */
    public record PvaAddress(String host, int port) {
        @Override
        public String toString() {
            return port == 0 ? host : host + ":" + port;
        }
    }

    /**
     * {@code server => { enable => ..., name_server => ..., ... }}.
     *
     * @param enable            search responder and beacon sender
     * @param nameServer        TCP name server on {@code server_port}
     * @param onDemandLimit     names asked by clients that the engine searches for them, unresolved at
     *                          once ({@code on_demand_limit}, default 5 000; resolved ones do not count)
     * @param onDemandRate      new such names admitted per second ({@code on_demand_rate}, default 100)
     * @param onDemandPerClient unresolved names one client (a UDP address, a TCP connection) may hold
     *                          ({@code on_demand_per_client}, default a quarter of the limit); the same
     *                          share of the rate
     * @param onDemandHold      seconds a name stays after the last client asked for it
     *                          ({@code on_demand_hold}, default 90: three of a client's 30-s intervals)
     * @param checkInterval     seconds between TCP checks (connect and the PVA handshake) of a claimed
     *                          server without recent beacons ({@code check_interval}, default 15)
     * @param checkAfter        seconds without a beacon after which a claimed server is checked
     *                          ({@code check_after}, default 30)
     * @param udpThreads        responder sockets per listen address, each read by a thread of its own
     *                          ({@code udp_threads}); 0, the default: one per core
     */
    public record PvaServerConfig(boolean enable, boolean nameServer, int onDemandLimit, int onDemandRate,
                                  int onDemandPerClient, int onDemandHold, int checkInterval, int checkAfter,
                                  int udpThreads) {

        public static final int DEFAULT_ON_DEMAND_LIMIT = 5_000;
        public static final int DEFAULT_ON_DEMAND_RATE = 100;
        public static final int DEFAULT_ON_DEMAND_HOLD = 90;
        public static final int DEFAULT_CHECK_INTERVAL = 15;
        public static final int DEFAULT_CHECK_AFTER = 30;

        public PvaServerConfig {
            if (onDemandLimit < 1 || onDemandRate < 1 || onDemandPerClient < 1 || onDemandPerClient > onDemandLimit
                    || onDemandHold < 1 || checkInterval < 1 || checkAfter < 1 || udpThreads < 0) {
                throw new IllegalArgumentException("pva.server limits out of range");
            }
        }

        /** The documented defaults for everything but the two switches. */
        public PvaServerConfig(boolean enable, boolean nameServer) {
            this(enable, nameServer, DEFAULT_ON_DEMAND_LIMIT, DEFAULT_ON_DEMAND_RATE, DEFAULT_ON_DEMAND_LIMIT / 4,
                    DEFAULT_ON_DEMAND_HOLD, DEFAULT_CHECK_INTERVAL, DEFAULT_CHECK_AFTER, 0);
        }

        /** The responder threads to run: {@code udpThreads}, or one per core when it is 0. */
        public int responderThreads() {
            return udpThreads > 0 ? udpThreads : Math.max(1, Runtime.getRuntime().availableProcessors());
        }
    }
}
