package lookout.engine.dns.listen;

import java.net.InetSocketAddress;
import lookout.engine.net.HostPort;

/** A client as traces show it, {@code 192.0.2.7:5353/udp}; the text is only built when a trace is. */
public record ClientId(InetSocketAddress address, boolean tcp) {
    @Override
    public String toString() {
        return HostPort.format(address) + (tcp ? "/tcp" : "/udp");
    }
}
