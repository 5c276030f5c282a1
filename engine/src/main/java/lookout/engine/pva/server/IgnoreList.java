package lookout.engine.pva.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import lookout.engine.config.PvaConfig.PvaAddress;
import lookout.engine.net.HostPort;
import lookout.engine.pva.wire.WireAddress;

/**
 * {@code pva.ignore_addr_list} ({@code EPICS_PVAS_IGNORE_ADDR_LIST}): sources whose searches are
 * dropped (seed 002 §4 step 1); an entry with port 0 matches any port from that address.
 * IPv4-mapped IPv6 sources compare equal to their IPv4 form. Immutable.
 */
public final class IgnoreList {

    private record Entry(InetAddress address, int port) {
    }

    private final List<Entry> entries;

    private IgnoreList(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static final IgnoreList EMPTY = new IgnoreList(List.of());

    /** Entries whose host is not a literal address are skipped (config validation reports them). */
    public static IgnoreList of(List<PvaAddress> list) {
        List<Entry> out = new ArrayList<>();
        for (PvaAddress a : list) {
            InetAddress ip = WireAddress.unmap(HostPort.literal(a.host()));
            if (ip != null) {
                out.add(new Entry(ip, a.port()));
            }
        }
        return new IgnoreList(out);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public boolean matches(InetSocketAddress source) {
        if (entries.isEmpty() || source == null) {
            return false;
        }
        InetAddress ip = WireAddress.unmap(source.getAddress());
        for (Entry e : entries) {
            if (e.address.equals(ip) && (e.port == 0 || e.port == source.getPort())) {
                return true;
            }
        }
        return false;
    }
}
