package lookout.engine.dns.upstream;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * seed 000 §4.6.3: demotion marks, one per server address, shared by every scope that lists the
 * address. A pure structure: every method takes {@code now} (scheduler nanoseconds) and nothing
 * here reads a clock.
 */
public final class DemotionMarks {

    /* Concurrency: one instance, the resolver's, confined to the engine loop (attempts, replies,
     * the expiry timer and snapshots all run there). */

    /** seed 000 §4.6.3: "until 30 seconds from now". */
    public static final long MARK_NANOS = 30_000_000_000L;

    private final Map<InetSocketAddress, Long> until = new HashMap<>();

    /**
     * Demotes {@code server} until 30 s from {@code now}; a further failure moves the mark forward.
     * Returns true when the server was already marked (the mark was renewed).
     */
    public boolean demote(InetSocketAddress server, long now) {
        Long prev = until.put(server, now + MARK_NANOS);
        return prev != null && prev - now > 0;
    }

    /** seed 000 §4.6.3: a used NOERROR/NXDOMAIN reply removes the mark. True if one was live. */
    public boolean clear(InetSocketAddress server, long now) {
        Long prev = until.remove(server);
        return prev != null && prev - now > 0;
    }

    /** True while {@code server} has a mark, live or expired but not yet swept by {@link #expire}. */
    public boolean hasMark(InetSocketAddress server) {
        return until.containsKey(server);
    }

    public boolean isDemoted(InetSocketAddress server, long now) {
        Long u = until.get(server);
        return u != null && u - now > 0;
    }

    /** Nanoseconds left on the mark, or 0 when not demoted. */
    public long remaining(InetSocketAddress server, long now) {
        Long u = until.get(server);
        return u == null ? 0 : Math.max(0, u - now);
    }

    /**
     * seed 000 §4.6.1: the servers not demoted in configured order, then the demoted ones in
     * configured order.
     */
    public List<InetSocketAddress> order(List<InetSocketAddress> servers, long now) {
        List<InetSocketAddress> out = new ArrayList<>(servers.size());
        for (InetSocketAddress s : servers) {
            if (!isDemoted(s, now)) {
                out.add(s);
            }
        }
        if (out.size() != servers.size()) {
            for (InetSocketAddress s : servers) {
                if (isDemoted(s, now)) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** Live reload: marks stay only with addresses still configured. */
    public void retainOnly(Set<InetSocketAddress> configured) {
        until.keySet().retainAll(configured);
    }

    /** When the first of the marks ends (scheduler nanoseconds), or null without marks. */
    public Long firstEnd() {
        Long first = null;
        for (Long u : until.values()) {
            if (first == null || u - first < 0) {
                first = u;
            }
        }
        return first;
    }

    /** Drops marks that ran out; returns the addresses whose mark expired. */
    public List<InetSocketAddress> expire(long now) {
        List<InetSocketAddress> gone = new ArrayList<>();
        until.entrySet().removeIf(e -> {
            if (e.getValue() - now <= 0) {
                gone.add(e.getKey());
                return true;
            }
            return false;
        });
        return gone;
    }
}
