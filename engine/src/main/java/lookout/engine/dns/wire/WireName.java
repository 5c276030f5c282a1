package lookout.engine.dns.wire;

/**
 * The one reader of domain names in wire form (RFC 1035 §3.1 labels, §4.1.4 compression): every
 * decoder of the engine walks names here — questions and records ({@link Message}), record data
 * decompressed ({@link Message#decodeRecords}) and the listeners' fast read ({@link PlainQuery}),
 * which follows no pointer and declines any label it would have to escape.
 *
 * <p>The walk is strict: every byte inside the bounds, label types 01 and 10 refused, pointers only
 * strictly backwards and at most {@value #MAX_JUMPS} of them (a loop cannot spin), and at most 255
 * bytes in the name with its root. It allocates nothing: what becomes of the labels is the
 * {@link Labels} sink's business, and a failure is a negative result, not an exception, so a
 * reader that only ever declines (the fast path) pays nothing for junk.
 */
public final class WireName {

    /** RFC 1035 §2.3.4: 255 bytes for a name, its root label included. */
    public static final int MAX_LENGTH = 255;
    /** Compression pointers followed in one name before it counts as a loop. */
    public static final int MAX_JUMPS = 64;

    /** The name runs past its bounds. */
    public static final int RUNS_PAST = -1;
    /** A compression pointer's second byte is past the bounds. */
    public static final int POINTER_CUT = -2;
    /** A pointer forward, to itself, or one too many. */
    public static final int BAD_POINTER = -3;
    /** A label of type 01 or 10 (RFC 6891 §5 retired them). */
    public static final int LABEL_TYPE = -4;
    /** A label's bytes run past the bounds. */
    public static final int LABEL_PAST = -5;
    /** More than 255 bytes. */
    public static final int TOO_LONG = -6;
    /** A pointer where the reader follows none. */
    public static final int COMPRESSED = -7;
    /** The sink declined a label. */
    public static final int DECLINED = -8;

    private WireName() {
    }

    /** What becomes of each label of a name (the root's empty one excepted), in order. */
    public interface Labels {
        /** The label {@code m[offset, offset + length)}; false stops the walk ({@link #DECLINED}). */
        boolean label(byte[] m, int offset, int length);
    }

    /**
     * Walks the name at {@code pos} of {@code m}, reading nothing at or past {@code limit}, handing
     * each label to {@code labels}; follows compression pointers when {@code pointers}. Returns the
     * offset just after the name where it stands (after its first pointer, if any), or one of the
     * negative reasons above.
     */
    public static int read(byte[] m, int limit, int pos, boolean pointers, Labels labels) {
        int jumps = 0;
        int resume = -1;
        int total = 0;
        while (true) {
            if (pos >= limit) {
                return RUNS_PAST;
            }
            int l = m[pos] & 0xFF;
            if ((l & 0xC0) == 0xC0) {
                if (!pointers) {
                    return COMPRESSED;
                }
                if (pos + 1 >= limit) {
                    return POINTER_CUT;
                }
                int target = ((l & 0x3F) << 8) | (m[pos + 1] & 0xFF);
                if (resume < 0) {
                    resume = pos + 2;
                }
                if (target >= pos || ++jumps > MAX_JUMPS) {
                    return BAD_POINTER;
                }
                pos = target;
                continue;
            }
            if ((l & 0xC0) != 0) {
                return LABEL_TYPE;
            }
            if (l == 0) {
                pos++;
                break;
            }
            if (pos + 1 + l > limit) {
                return LABEL_PAST;
            }
            total += l + 1;
            if (total > MAX_LENGTH - 1) { // the root's byte still to come
                return TOO_LONG;
            }
            if (!labels.label(m, pos + 1, l)) {
                return DECLINED;
            }
            pos += l + 1;
        }
        return resume >= 0 ? resume : pos;
    }

    /**
     * {@link #read} for decoders that fail loudly: the offset after the name, or a
     * {@link WireException} saying what was wrong, its bounds named {@code within}
     * ("the end of the message", "its bounds").
     */
    public static int readOrThrow(byte[] m, int limit, int pos, Labels labels, String within) throws WireException {
        int r = read(m, limit, pos, true, labels);
        if (r < 0) {
            throw new WireException(problem(r, within));
        }
        return r;
    }

    /** What a negative result of {@link #read} means, for people. */
    public static String problem(int code, String within) {
        return switch (code) {
            case RUNS_PAST -> "name runs past " + within;
            case POINTER_CUT -> "compression pointer cut short";
            case BAD_POINTER -> "compression pointer loops or points forward";
            case LABEL_TYPE -> "unknown label type";
            case LABEL_PAST -> "label runs past " + within;
            case TOO_LONG -> "name longer than 255 bytes";
            case COMPRESSED -> "compression pointer where none may be";
            case DECLINED -> "label declined";
            default -> "not a name";
        };
    }
}
