package lookout.engine.pva.client;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import lookout.engine.config.PvaConfig;
import lookout.engine.net.HostPort;

/**
 * A UDP search destination. seed 002 §5: the Unicast flag is set when, and only when, the
 * destination is a genuine unicast address — not multicast, not a local interface's broadcast
 * address (and not the limited broadcast 255.255.255.255).
 *
 * @param address where datagrams go
 * @param unicast send with the Unicast flag
 */
record Destination(InetSocketAddress address, boolean unicast) {

    @Override
    public String toString() {
        return HostPort.format(address) + (unicast ? " (unicast)" : " (broadcast)");
    }

    /** The interfaces' broadcast addresses (what {@code auto_addr_list} adds), in a stable order. */
    static List<InetAddress> interfaceBroadcasts() {
        Set<InetAddress> out = new LinkedHashSet<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp()) {
                    continue;
                }
                for (InterfaceAddress ia : ni.getInterfaceAddresses()) {
                    if (ia.getBroadcast() != null) {
                        out.add(ia.getBroadcast());
                    }
                }
            }
        } catch (SocketException e) {
            // no interfaces readable: no automatic destinations
        }
        return List.copyOf(out);
    }

    /** True when {@code a} is a genuine unicast address given the local broadcast addresses. */
    static boolean isUnicast(InetAddress a, Set<InetAddress> localBroadcasts) {
        if (a.isMulticastAddress() || localBroadcasts.contains(a)) {
            return false;
        }
        byte[] b = a.getAddress();
        return !(b.length == 4 && (b[0] & b[1] & b[2] & b[3]) == (byte) 0xFF);
    }

    /**
     * The destinations of {@code cfg}: each {@code addr_list} entry (port 0 means
     * {@code broadcast_port}), then with {@code auto_addr_list} each interface broadcast address;
     * duplicates once. {@code resolve} turns host strings into addresses (null when unknown);
     * names it could not resolve are added to {@code problems}.
     */
    static List<Destination> of(PvaConfig cfg, List<InetAddress> broadcasts,
                                java.util.function.Function<String, InetAddress> resolve, List<String> problems) {
        Set<InetAddress> local = Set.copyOf(broadcasts);
        Set<InetSocketAddress> seen = new LinkedHashSet<>();
        List<Destination> out = new ArrayList<>();
        for (PvaConfig.PvaAddress pa : cfg.addrList()) {
            InetAddress a = resolve.apply(pa.host());
            if (a == null) {
                problems.add("cannot resolve PVA search destination " + pa);
                continue;
            }
            InetSocketAddress sa = new InetSocketAddress(a, pa.port() == 0 ? cfg.broadcastPort() : pa.port());
            if (seen.add(sa)) {
                out.add(new Destination(sa, isUnicast(a, local)));
            }
        }
        if (cfg.autoAddrList()) {
            for (InetAddress b : broadcasts) {
                InetSocketAddress sa = new InetSocketAddress(b, cfg.broadcastPort());
                if (seen.add(sa)) {
                    out.add(new Destination(sa, false));
                }
            }
        }
        return List.copyOf(out);
    }
}
