package lookout.engine.dns.listen;

import java.util.Arrays;
import lookout.engine.dns.wire.PlainQuery;

/**
 * What a listener socket worked out for a question (lower-cased wire name and type), found again
 * from the query's bytes without decoding the name to a string: an open-addressing table of
 * {@value #CAPACITY} slots, cleared when half full so random names (NXDOMAIN floods) cannot grow
 * it. One instance per socket, used on its loop only.
 */
final class QuestionMemo<V> {

    /* Concurrency: one instance per UdpListener, touched only by its reader thread. */

    static final int CAPACITY = 8192;
    private static final int LIMIT = CAPACITY / 2;

    private final byte[][] names = new byte[CAPACITY][];
    private final int[] types = new int[CAPACITY];
    private final int[] hashes = new int[CAPACITY];
    private final Object[] values = new Object[CAPACITY];
    private int size;

    private static int slot(int hash) {
        int h = hash ^ (hash >>> 16);
        return (h * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(CAPACITY));
    }

    /** The value kept for {@code q}'s question, or null. */
    @SuppressWarnings("unchecked")
    V get(PlainQuery q) {
        int mask = CAPACITY - 1;
        for (int i = slot(q.hash); ; i = (i + 1) & mask) {
            byte[] n = names[i];
            if (n == null) {
                return null;
            }
            if (hashes[i] == q.hash && types[i] == q.qtype
                    && Arrays.equals(n, 0, n.length, q.name, 0, q.nameLength)) {
                return (V) values[i];
            }
        }
    }

    /** Keeps {@code value} for {@code q}'s question (replacing what was kept). */
    void put(PlainQuery q, V value) {
        if (size >= LIMIT) {
            clear();
        }
        int mask = CAPACITY - 1;
        for (int i = slot(q.hash); ; i = (i + 1) & mask) {
            byte[] n = names[i];
            if (n == null) {
                names[i] = Arrays.copyOf(q.name, q.nameLength);
                types[i] = q.qtype;
                hashes[i] = q.hash;
                values[i] = value;
                size++;
                return;
            }
            if (hashes[i] == q.hash && types[i] == q.qtype
                    && Arrays.equals(n, 0, n.length, q.name, 0, q.nameLength)) {
                values[i] = value;
                return;
            }
        }
    }

    void clear() {
        if (size > 0) {
            Arrays.fill(names, null);
            Arrays.fill(values, null);
            size = 0;
        }
    }

    int size() {
        return size;
    }
}
