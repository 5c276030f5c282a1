package lookout.engine.pva.server;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the PVA server counts. Written by the responder threads (several at once), the name-server
 * connections and the engine loop; read by snapshots: every count is a {@link LongAdder}.
 */
final class ServerCounters {

    final LongAdder searchesReceived = new LongAdder();
    final LongAdder namesSearched = new LongAdder();
    final LongAdder namesClaimed = new LongAdder();
    final LongAdder repliesSent = new LongAdder();
    final LongAdder discoveryReplies = new LongAdder();
    final LongAdder forwarded = new LongAdder();
    /** Forwarded searches still asking to be forwarded: answered, not forwarded again (seed 002 §5 rule 3). */
    final LongAdder notReforwarded = new LongAdder();
    /** Searches of the engine's own client (never a reason to search on anyone's behalf). */
    final LongAdder ownSearches = new LongAdder();
    final LongAdder ignored = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder sendBacklog = new LongAdder();
    private final EnumMap<ForwardingRules.Drop, LongAdder> ruleDrops = new EnumMap<>(ForwardingRules.Drop.class);
    final LongAdder beaconsSent = new LongAdder();

    ServerCounters() {
        for (ForwardingRules.Drop d : ForwardingRules.Drop.values()) {
            ruleDrops.put(d, new LongAdder());
        }
    }

    void drop(ForwardingRules.Drop why) {
        ruleDrops.get(why).increment();
    }

    long drops(ForwardingRules.Drop why) {
        return ruleDrops.get(why).sum();
    }

    Map<String, Long> dropMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ignored", ignored.sum());
        m.put("malformed", malformed.sum());
        for (ForwardingRules.Drop d : ForwardingRules.Drop.values()) {
            m.put(d.label, drops(d));
        }
        m.put("send_backlog", sendBacklog.sum());
        return m;
    }
}
