package lookout.engine.dns.upstream;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/** seed 000 §4.6.1: which server the next attempt for a candidate goes to. Pure. */
public final class ServerChoice {

    private ServerChoice() {
    }

    /**
     * @param order    the servers in the order computed for this attempt
     * @param asked    the servers already asked for this candidate
     * @param attempts attempts already made for this candidate
     */
    public static InetSocketAddress next(List<InetSocketAddress> order, Set<InetSocketAddress> asked, int attempts) {
        for (InetSocketAddress s : order) {
            if (!asked.contains(s)) {
                return s;
            }
        }
        return order.get(attempts % order.size());
    }
}
