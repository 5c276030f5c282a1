package lookout.engine.pva.pvserve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import lookout.engine.pva.pvdata.BitSets;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.pva.pvdata.PvWriter;
import lookout.engine.pva.pvdata.ValueCodec;

/**
 * One PV the engine serves: its structure, its newest value, and the subscriptions watching it.
 * A post replaces the value and tells every subscriber which top-level fields changed; the bytes
 * of an update (bit set, changed fields, overrun bit set) are encoded once per post for every
 * subscriber that takes the same fields, whatever the number of clients.
 *
 * <p>Confined to the engine loop.
 */
public final class HostedPv {

    /** A subscription to this PV (a MONITOR of some connection). */
    interface Subscriber {
        /** The value changed in {@code members} (top-level member indices). */
        void posted(HostedPv pv, BitSet members);
    }

    private final String name;
    private final PvType.Struct type;
    private final int[] memberBits;
    private final BitSet allMembers = new BitSet();
    private Object[] value;
    private final List<Subscriber> subscribers = new ArrayList<>();
    /** Encodings of the current value, by wire bit set; cleared by each post (a handful at most). */
    private final List<BitSet> cachedBits = new ArrayList<>(2);
    private final List<byte[]> cachedBytes = new ArrayList<>(2);
    private long posts;

    HostedPv(String name, PvType.Struct type, Object[] initial) {
        this.name = name;
        this.type = type;
        int n = type.members().size();
        this.memberBits = new int[n];
        for (int i = 0; i < n; i++) {
            memberBits[i] = type.bitOf(i);
        }
        allMembers.set(0, n);
        this.value = check(initial);
    }

    private Object[] check(Object[] v) {
        if (v == null || v.length != type.members().size()) {
            throw new IllegalArgumentException(name + ": a value needs " + type.members().size() + " members");
        }
        return v;
    }

    public String name() {
        return name;
    }

    public PvType.Struct type() {
        return type;
    }

    /** The newest value (owned by this PV: do not change it). */
    public Object[] value() {
        return value;
    }

    public int subscribers() {
        return subscribers.size();
    }

    public long posts() {
        return posts;
    }

    /** Every top-level member (a copy). */
    BitSet allMembers() {
        return (BitSet) allMembers.clone();
    }

    int memberCount() {
        return memberBits.length;
    }

    /**
     * Publishes {@code next} (a fresh array, not changed afterwards) in which the top-level members
     * {@code changed} differ from the previous value; every subscriber hears of it.
     */
    public void post(Object[] next, BitSet changed) {
        value = check(next);
        posts++;
        cachedBits.clear();
        cachedBytes.clear();
        if (changed.isEmpty()) {
            return;
        }
        for (int i = 0, n = subscribers.size(); i < n; i++) {
            subscribers.get(i).posted(this, changed);
        }
    }

    void subscribe(Subscriber s) {
        subscribers.add(s);
    }

    void unsubscribe(Subscriber s) {
        subscribers.remove(s);
    }

    /**
     * The wire bit set for {@code members} restricted to {@code mask} (null: every member): bit 0
     * when that is every member of the structure, else each member's own bit.
     */
    BitSet wireBits(BitSet members, BitSet mask) {
        BitSet m = (BitSet) members.clone();
        if (mask != null) {
            m.and(mask);
        }
        BitSet bits = new BitSet();
        if (m.equals(allMembers)) {
            bits.set(0);
            return bits;
        }
        for (int i = m.nextSetBit(0); i >= 0; i = m.nextSetBit(i + 1)) {
            bits.set(memberBits[i]);
        }
        return bits;
    }

    /** The wire bits of {@code members} restricted to {@code mask}, one per member: the overrun set. */
    BitSet overrunBits(BitSet members, BitSet mask) {
        BitSet m = (BitSet) members.clone();
        if (mask != null) {
            m.and(mask);
        }
        BitSet bits = new BitSet();
        for (int i = m.nextSetBit(0); i >= 0; i = m.nextSetBit(i + 1)) {
            bits.set(memberBits[i]);
        }
        return bits;
    }

    /**
     * The body of an update of the current value (after the ioid and subcommand): the bit set,
     * the fields it selects, then {@code overrun} (wire bits). Encoded once per distinct bit set
     * per post when there is no overrun.
     */
    byte[] updateBody(BitSet wireBits, BitSet overrun) {
        if (overrun.isEmpty()) {
            for (int i = 0; i < cachedBits.size(); i++) {
                if (cachedBits.get(i).equals(wireBits)) {
                    return cachedBytes.get(i);
                }
            }
        }
        ByteBuf b = Unpooled.buffer(64);
        try {
            PvWriter w = new PvWriter(b);
            ValueCodec.encodeSelected(type, value, wireBits, w);
            BitSets.encode(overrun, w);
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            if (overrun.isEmpty() && cachedBits.size() < 4) {
                cachedBits.add((BitSet) wireBits.clone());
                cachedBytes.add(bytes);
            }
            return bytes;
        } finally {
            b.release();
        }
    }

    /** The body of a GET reply: the bit set and the fields it selects. */
    void getBody(BitSet mask, PvWriter w) {
        ValueCodec.encodeSelected(type, value, wireBits(allMembers, mask), w);
    }
}
