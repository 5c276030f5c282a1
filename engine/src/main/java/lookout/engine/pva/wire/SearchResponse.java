package lookout.engine.pva.wire;

import java.net.InetAddress;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * CMD_SEARCH_RESPONSE (seed 002 §2): server to client over UDP or TCP.
 *
 * @param guid          the responding server instance
 * @param sequenceId    echo of the request's (a discovery reply may carry any value)
 * @param serverAddress "any" means the reply's source address
 * @param serverPort    TCP port; over TCP, 0 means the connection's port
 * @param protocol      "tcp" or "tls"
 * @param found         true when names are claimed
 * @param cids          the claimed CIDs
 */
public record SearchResponse(Guid guid, int sequenceId, InetAddress serverAddress, int serverPort,
                             String protocol, boolean found, List<Integer> cids) implements PvaMessage {

    public SearchResponse {
        cids = cids instanceof CidList ? cids : List.copyOf(cids);
    }

    /**
     * The CIDs as an immutable list backed by a copy of {@code cids}: the responder's replies are
     * built from int arrays, and boxing every CID of every reply is measurable there.
     */
    public static List<Integer> cids(int... cids) {
        return new CidList(cids.clone());
    }

    /** {@link #cids(int...)} over {@code cids} itself, which the caller no longer writes. */
    public static List<Integer> cidsOf(int[] cids) {
        return new CidList(cids);
    }

    /** An immutable list of CIDs over an int array. */
    private static final class CidList extends AbstractList<Integer> implements RandomAccess {
        private final int[] cids;

        CidList(int[] cids) {
            this.cids = cids;
        }

        @Override
        public Integer get(int index) {
            return cids[index];
        }

        int cid(int index) {
            return cids[index];
        }

        @Override
        public int size() {
            return cids.length;
        }
    }

    /** seed 002 §3.5 step 2: found false and no names is a discovery answer. */
    public boolean discoveryReply() {
        return !found && cids.isEmpty();
    }

    static SearchResponse decode(WireReader r) throws WireReader.Malformed {
        Guid guid = r.guid();
        int seq = r.i32("search sequence ID");
        InetAddress addr = r.address("server address");
        int port = r.u16("server port");
        String protocol = r.string("protocol");
        boolean found = r.u8("found") != 0;
        // PVXS omits nothing here, but be lenient: a reply cut right after "found" claims nothing
        int n = r.remaining() == 0 ? 0 : r.u16("CID count");
        if ((long) n * 4 > r.remaining()) {
            throw new WireReader.Malformed("CID count " + n + " exceeds the message");
        }
        List<Integer> cids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cids.add(r.i32("CID"));
        }
        return new SearchResponse(guid, seq, addr, port, protocol, found, cids);
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(Pva.FLAG_SERVER, Pva.CMD_SEARCH_RESPONSE);
        w.guid(guid);
        w.i32(sequenceId);
        w.address(serverAddress);
        w.u16(serverPort);
        w.string(protocol);
        w.u8(found ? 1 : 0);
        w.u16(cids.size());
        if (cids instanceof CidList l) {
            for (int i = 0, n = l.size(); i < n; i++) {
                w.i32(l.cid(i));
            }
        } else {
            for (int cid : cids) {
                w.i32(cid);
            }
        }
        w.patchLength(h);
    }
}
