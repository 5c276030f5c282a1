package lookout.engine.dns.upstream;

import java.util.random.RandomGenerator;

/**
 * The 16-bit IDs of upstream queries, unpredictable (RFC 5452 §4.3: with the source port, which
 * the kernel picks at random for each transaction's socket, what an off-path forger must guess),
 * from the engine's random source — a secure one in service — drawn 128 IDs at a time: one call
 * into it per 128 transactions instead of one each.
 */
public final class QueryIds {

    /* Concurrency: the engine loop's, like the transactions. */

    private final RandomGenerator random;
    private final byte[] buffer = new byte[256];
    private int next = buffer.length;

    public QueryIds(RandomGenerator random) {
        this.random = random;
    }

    /** The next ID, 0 to 65 535. */
    public int next() {
        if (next == buffer.length) {
            random.nextBytes(buffer);
            next = 0;
        }
        int id = ((buffer[next] & 0xFF) << 8) | (buffer[next + 1] & 0xFF);
        next += 2;
        return id;
    }
}
