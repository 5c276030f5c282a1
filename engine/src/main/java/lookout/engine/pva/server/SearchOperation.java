package lookout.engine.pva.server;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import lookout.engine.pva.wire.Guid;

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
    private final Claimant[] claims;
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
        this.claims = new Claimant[names.length];
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
        claimFor(index, Claimant.SELF);
    }

    /**
     * Claims {@code index} for another server: the reply carries that server's GUID and endpoint,
     * so the client connects there directly and sees the same identity as from the server itself.
     */
    public void claimFor(int index, byte[] guid, InetSocketAddress endpoint) {
        claimFor(index, new Claimant(guid, endpoint));
    }

    /**
     * Claims {@code index} for {@code claimant}. A source that claims many names for one server
     * hands the same claimant for each: grouping then compares references, not GUID bytes.
     */
    public void claimFor(int index, Claimant claimant) {
        if (claims[index] == null) {
            claims[index] = claimant;
            claimed++;
        }
    }

    /** The claims grouped by claiming server, in order of first claim: one reply per group. */
    public List<ReplyGroup> groups() {
        if (claimed == 0) {
            return List.of();
        }
        Claimant only = soleClaimant();
        if (only != null) {
            // the common case — a server's own names, or a name server's names all on one other
            // server: one reply, its CIDs without a grouping pass
            return List.of(group(only, claimed == cids.length ? cids : claimedCids()));
        }
        // A search names a handful of servers at most (one, as a rule): a linear scan over the
        // distinct claimants beats hashing a GUID and an address per name (the hottest path of
        // the responder, seed 002 §4).
        Claimant[] distinct = new Claimant[4];
        int[] sizes = new int[4];
        int[] groupOf = new int[claims.length];
        int groups = 0;
        for (int i = 0; i < claims.length; i++) {
            Claimant c = claims[i];
            if (c == null) {
                groupOf[i] = -1;
                continue;
            }
            int g = 0;
            while (g < groups && distinct[g] != c && !distinct[g].equals(c)) {
                g++;
            }
            if (g == groups) {
                if (groups == distinct.length) {
                    distinct = Arrays.copyOf(distinct, groups * 2);
                    sizes = Arrays.copyOf(sizes, groups * 2);
                }
                distinct[groups++] = c;
            }
            sizes[g]++;
            groupOf[i] = g;
        }
        int[][] ids = new int[groups][];
        for (int g = 0; g < groups; g++) {
            ids[g] = new int[sizes[g]];
            sizes[g] = 0;
        }
        for (int i = 0; i < claims.length; i++) {
            int g = groupOf[i];
            if (g >= 0) {
                ids[g][sizes[g]++] = cids[i];
            }
        }
        List<ReplyGroup> out = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            out.add(group(distinct[g], ids[g]));
        }
        return out;
    }

    /** The one server every claim here is for, or null when there are several. */
    private Claimant soleClaimant() {
        Claimant only = null;
        for (Claimant c : claims) {
            if (c == null || c == only) {
                continue;
            }
            if (only == null) {
                only = c;
            } else if (!only.equals(c)) {
                return null;
            }
        }
        return only;
    }

    /** The CIDs claimed, in request order. */
    private int[] claimedCids() {
        int[] ids = new int[claimed];
        for (int i = 0, k = 0; i < claims.length; i++) {
            if (claims[i] != null) {
                ids[k++] = cids[i];
            }
        }
        return ids;
    }

    private static ReplyGroup group(Claimant c, int[] ids) {
        return new ReplyGroup(c.self() ? null : c.guid, c.endpoint, ids, c.id);
    }

    /**
     * The CIDs one reply claims.
     *
     * @param guid     the claiming server's GUID, or null for this server
     * @param endpoint the claiming server's TCP endpoint, or null for this server
     * @param cids     claimed CIDs in request order (the operation's own array when it claimed
     *                 every name for one server: read it, never write it)
     * @param server   {@code guid} as a {@link Guid}, made once per claimant rather than per reply
     */
    public record ReplyGroup(byte[] guid, InetSocketAddress endpoint, int[] cids, Guid server) {
        public boolean self() {
            return endpoint == null;
        }
    }

    /**
     * The server a name is claimed for: this server itself ({@link #SELF}), or another server's
     * GUID and TCP endpoint. Immutable; equal when GUID and endpoint are.
     */
    public static final class Claimant {
        static final Claimant SELF = new Claimant(null, null);
        final byte[] guid;
        final InetSocketAddress endpoint;
        /** {@code guid} as the reply carries it (null for this server). */
        final Guid id;

        /**
         * @param guid     the server's 12-byte GUID (not copied: the caller hands it over)
         * @param endpoint the server's TCP endpoint
         */
        public Claimant(byte[] guid, InetSocketAddress endpoint) {
            this.guid = guid;
            this.endpoint = endpoint;
            this.id = guid == null ? null : Guid.of(guid);
        }

        boolean self() {
            return endpoint == null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Claimant c && Arrays.equals(c.guid, guid) && Objects.equals(c.endpoint, endpoint);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(guid) * 31 + Objects.hashCode(endpoint);
        }
    }
}
