package lookout.engine.pva.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All names of one CMD_SEARCH, offered to every source in order as a single operation
 * (seed 002 §4 step 2). A name may be claimed for this server or, by a name server, for another
 * server's endpoint (§6: "the endpoint it names in a reply need not be itself").
 *
 * <p>It says who asked ({@link #asker}), whether it is the engine's own client ({@link #own}), and
 * when ({@link #now}), for sources that act on what is asked (the name server's on-demand names).
 *
 * <p>Confined to the thread answering the search, for its duration.
 */
public final class SearchOperation {

    private final String[] names;
    private final int[] cids;
    private final Claim[] claims;
    private final Asker asker;
    private final boolean own;
    private final long now;
    private int claimed;

    public SearchOperation(String[] names, int[] cids) {
        this(names, cids, null, false, 0);
    }

    /**
     * @param asker who asked (a UDP client address, a TCP connection); null when unknown
     * @param own   the engine's own client asked
     * @param now   scheduler nanoseconds
     */
    SearchOperation(String[] names, int[] cids, Asker asker, boolean own, long now) {
        if (names.length != cids.length) {
            throw new IllegalArgumentException("names and cids differ in length");
        }
        this.names = names;
        this.cids = cids;
        this.claims = new Claim[names.length];
        this.asker = asker;
        this.own = own;
        this.now = now;
    }

    /** Who asked; null when unknown. */
    Asker asker() {
        return asker;
    }

    /** True when the engine's own PVA client asked. */
    public boolean own() {
        return own;
    }

    /** When it was asked, in scheduler nanoseconds. */
    public long now() {
        return now;
    }

    public int size() {
        return names.length;
    }

    public String name(int index) {
        return names[index];
    }

    public int cid(int index) {
        return cids[index];
    }

    public boolean isClaimed(int index) {
        return claims[index] != null;
    }

    public int claimedCount() {
        return claimed;
    }

    /** Claims {@code index} for this server (own GUID, own TCP port). First claim wins. */
    public void claim(int index) {
        claimFor(index, Claim.SELF);
    }

    /**
     * Claims {@code index} for another server: the reply carries that server's GUID and endpoint,
     * so the client connects there directly and sees the same identity as from the server itself.
     */
    public void claimFor(int index, byte[] guid, InetSocketAddress endpoint) {
        claimFor(index, new Claim(guid, endpoint));
    }

    private void claimFor(int index, Claim claim) {
        if (claims[index] == null) {
            claims[index] = claim;
            claimed++;
        }
    }

    /** The claims grouped by claiming server, in order of first claim: one reply per group. */
    public List<ReplyGroup> groups() {
        if (claimed == 0) {
            return List.of();
        }
        Map<Claim, List<Integer>> byServer = new LinkedHashMap<>();
        for (int i = 0; i < claims.length; i++) {
            if (claims[i] != null) {
                byServer.computeIfAbsent(claims[i], k -> new ArrayList<>()).add(cids[i]);
            }
        }
        List<ReplyGroup> out = new ArrayList<>(byServer.size());
        byServer.forEach((claim, list) -> {
            int[] ids = new int[list.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = list.get(i);
            }
            out.add(new ReplyGroup(claim.self() ? null : claim.guid, claim.endpoint, ids));
        });
        return out;
    }

    /**
     * The CIDs one reply claims.
     *
     * @param guid     the claiming server's GUID, or null for this server
     * @param endpoint the claiming server's TCP endpoint, or null for this server
     * @param cids     claimed CIDs in request order
     */
    public record ReplyGroup(byte[] guid, InetSocketAddress endpoint, int[] cids) {
        public boolean self() {
            return endpoint == null;
        }
    }

    private static final class Claim {
        static final Claim SELF = new Claim(null, null);
        final byte[] guid;
        final InetSocketAddress endpoint;

        Claim(byte[] guid, InetSocketAddress endpoint) {
            this.guid = guid;
            this.endpoint = endpoint;
        }

        boolean self() {
            return endpoint == null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Claim c && java.util.Arrays.equals(c.guid, guid)
                    && java.util.Objects.equals(c.endpoint, endpoint);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(guid) * 31 + java.util.Objects.hashCode(endpoint);
        }
    }
}
