package lookout.engine.pva.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lookout.engine.net.HostPort;
import lookout.engine.pva.wire.Guid;

/**
 * What came back for each channel, for the console's "why?": the positive replies (the first,
 * which resolved it, and later claims by other servers), how many negative ones and from where.
 * Bounded twice: a few facts per channel, and the {@value #CHANNELS} channels replied to most
 * recently (a million searching channels mostly get no reply at all, and cost nothing here).
 *
 * <p>Concurrency: engine loop only (the reply processor's).
 */
final class ReplyFacts {

    static final int CHANNELS = 4096;
    static final int PER_CHANNEL = 8;

    /** One claim: when (scheduler nanos), by whom, from where. */
    record Claim(long at, Guid guid, InetSocketAddress endpoint, InetSocketAddress from, boolean tcp, boolean resolved) {
    }

    static final class Facts {
        final List<Claim> claims = new ArrayList<>(2);
        long negatives;
        final List<String> negativeFrom = new ArrayList<>(2);
    }

    private final Map<Integer, Facts> byCid = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Facts> eldest) {
            return size() > CHANNELS;
        }
    };

    void positive(int cid, long at, Guid guid, InetSocketAddress endpoint, InetSocketAddress from, boolean tcp,
                  boolean resolved) {
        Facts f = byCid.computeIfAbsent(cid, k -> new Facts());
        for (Claim c : f.claims) {
            if (c.guid().equals(guid) && c.endpoint().equals(endpoint)) {
                return; // the same server again: its first claim says it
            }
        }
        if (f.claims.size() < PER_CHANNEL) {
            f.claims.add(new Claim(at, guid, endpoint, from, tcp, resolved));
        }
    }

    void negative(int cid, InetSocketAddress from, boolean tcp) {
        Facts f = byCid.computeIfAbsent(cid, k -> new Facts());
        f.negatives++;
        String where = HostPort.format(from) + (tcp ? " (name server)" : "");
        if (f.negativeFrom.size() < PER_CHANNEL && !f.negativeFrom.contains(where)) {
            f.negativeFrom.add(where);
        }
    }

    /** The facts of {@code cid}, or null when nothing came back for it. */
    Facts of(int cid) {
        return byCid.get(cid);
    }
}
