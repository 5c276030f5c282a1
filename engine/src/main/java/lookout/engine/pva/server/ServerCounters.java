package lookout.engine.pva.server;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the PVA server counts. Fields written on the engine loop only; the TCP connection gauge
 * and the refused count are also written there (handlers hop in before counting).
 */
final class ServerCounters {

    long searchesReceived;
    long namesSearched;
    long namesClaimed;
    long repliesSent;
    long discoveryReplies;
    long forwarded;
    long ignored;
    long malformed;
    long sendBacklog;
    final EnumMap<ForwardingRules.Drop, Long> ruleDrops = new EnumMap<>(ForwardingRules.Drop.class);
    long beaconsSent;
    int connections;
    long accepted;
    long refused;

    void drop(ForwardingRules.Drop why) {
        ruleDrops.merge(why, 1L, Long::sum);
    }

    long drops(ForwardingRules.Drop why) {
        return ruleDrops.getOrDefault(why, 0L);
    }

    Map<String, Long> dropMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ignored", ignored);
        m.put("malformed", malformed);
        for (ForwardingRules.Drop d : ForwardingRules.Drop.values()) {
            m.put(d.label, drops(d));
        }
        m.put("send_backlog", sendBacklog);
        return m;
    }
}
