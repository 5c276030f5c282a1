package lookout.engine.pva.wire;

import java.net.InetAddress;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * CMD_SEARCH (seed 002 §2): client to server over UDP or TCP. An empty protocol list with no names
 * and MustReply set is a discovery ping (§7).
 *
 * @param sequenceId   echoed by the server; PVXS sends "find"
 * @param flags        {@link Pva#SEARCH_MUST_REPLY}, {@link Pva#SEARCH_UNICAST}
 * @param replyAddress where to reply; "any" means the datagram's source
 * @param replyPort    UDP reply port (0 over TCP)
 * @param protocols    e.g. ["tcp"]
 * @param names        the CIDs and names searched
 */
public record SearchRequest(int sequenceId, int flags, InetAddress replyAddress, int replyPort,
                            List<String> protocols, List<Name> names) implements PvaMessage {

    public SearchRequest {
        protocols = frozen(protocols);
        names = frozen(names);
    }

    /**
     * An unmodifiable copy of one class whatever its size ({@link Frozen}). {@code List.copyOf}
     * gives one class for one or two elements and another for more; the responder's loops over a
     * search's names were compiled for the first after a run of one-name searches, and every
     * larger search then took a class-check trap until the JIT gave up inlining there: 30-name
     * searches 18 % slower for the rest of the run (bench/RESULTS.md, issue 13 A/B). A list the
     * decoder made is one already and is kept as it is.
     */
    private static <T> List<T> frozen(List<T> list) {
        if (list instanceof Frozen) {
            return list;
        }
        Object[] copy = list.toArray();
        for (Object t : copy) {
            java.util.Objects.requireNonNull(t);
        }
        return new Frozen<>(copy);
    }

    /** An immutable list over an array nobody else holds. */
    private static final class Frozen<T> extends AbstractList<T> implements RandomAccess {
        private final Object[] items;

        Frozen(Object[] items) {
            this.items = items;
        }

        @SuppressWarnings("unchecked")
        @Override
        public T get(int index) {
            return (T) items[index];
        }

        @Override
        public int size() {
            return items.length;
        }
    }

    /** The protocol list of nearly every search, decoded without a string made for it. */
    private static final List<String> TCP_ONLY = new Frozen<>(new Object[] {"tcp"});

    /** One searched name. */
    public record Name(int cid, String name) {
    }

    public boolean mustReply() {
        return (flags & Pva.SEARCH_MUST_REPLY) != 0;
    }

    public boolean unicast() {
        return (flags & Pva.SEARCH_UNICAST) != 0;
    }

    /** seed 002 §7: empty protocol list, zero names, MustReply. */
    public boolean discoveryPing() {
        return protocols.isEmpty() && names.isEmpty() && mustReply();
    }

    /** A PVXS-style discovery ping (PVA-WIRE.md vector 4). */
    public static SearchRequest discoveryPing(int replyPort) {
        return new SearchRequest(Pva.SEARCH_SEQUENCE_FIND, Pva.SEARCH_MUST_REPLY, WireAddress.ANY_ZERO,
                replyPort, List.of(), List.of());
    }

    public SearchRequest withFlags(int newFlags) {
        return new SearchRequest(sequenceId, newFlags, replyAddress, replyPort, protocols, names);
    }

    public SearchRequest withReply(InetAddress address, int port) {
        return new SearchRequest(sequenceId, flags, address, port, protocols, names);
    }

    static SearchRequest decode(WireReader r) throws WireReader.Malformed {
        int seq = r.i32("search sequence ID");
        int flags = r.u8("search flags");
        r.skip(3, "search reserved bytes");
        InetAddress reply = r.address("reply address");
        int port = r.u16("reply port");
        int np = r.size("protocol count", false);
        // each protocol takes at least one byte: a count beyond that is inconsistent
        if (np > r.remaining()) {
            throw new WireReader.Malformed("protocol count " + np + " exceeds the message");
        }
        List<String> protocols;
        if (np == 1 && r.nextIsAscii("tcp")) {
            r.skip(4, "protocol");
            protocols = TCP_ONLY;
        } else {
            Object[] ps = new Object[np];
            for (int i = 0; i < np; i++) {
                ps[i] = r.string("protocol");
            }
            protocols = new Frozen<>(ps);
        }
        int n = r.u16("name count");
        if ((long) n * 5 > r.remaining()) {
            throw new WireReader.Malformed("name count " + n + " exceeds the message");
        }
        Object[] names = new Object[n];
        for (int i = 0; i < n; i++) {
            int cid = r.i32("CID");
            names[i] = new Name(cid, r.string("PV name"));
        }
        return new SearchRequest(seq, flags, reply, port, protocols, new Frozen<>(names));
    }

    @Override
    public void encode(WireWriter w) {
        // the packer's encoder, so that a record and a packed datagram are the same bytes
        SearchDatagramBuilder b = new SearchDatagramBuilder(sequenceId, flags, replyAddress, replyPort, protocols,
                Integer.MAX_VALUE);
        b.start(w);
        for (Name nm : names) {
            b.add(nm.cid(), nm.name());
        }
        b.finish();
    }
}
