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
     * {@code server => { enable => ..., name_server => ... }}.
     *
     * @param enable     search responder and beacon sender
     * @param nameServer TCP name server on {@code server_port}
     */
    public record PvaServerConfig(boolean enable, boolean nameServer) {
    }
}
