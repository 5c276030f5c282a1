package lookout.engine.pva.pvdata;

import java.util.BitSet;

/**
 * The BitSet encoding of GET and MONITOR replies (pvAccess protocol "BitSet"; PVXS
 * {@code bitmask.cpp}): a Size giving the number of bytes, the whole 64-bit words in the
 * message's byte order, then the remaining low bytes of the last word one by one, lowest first.
 * Trailing zero bytes are not sent.
 *
 * <p>Below eight bytes (bits 0–55 only) the two byte orders give the same bytes, and every
 * structure Lookout publishes stays there: core-pva 4.7.3 reads a bit set as plain little-endian
 * bytes whatever the byte order, so a bit set of eight bytes or more sent big-endian would read
 * differently there than in PVXS or pvAccessJava ({@code StatusPvTypesTest} checks the bound).
 */
public final class BitSets {

    private BitSets() {
    }

    public static void encode(BitSet bits, PvWriter w) {
        int nbytes = (bits.length() + 7) / 8;
        int full = nbytes / 8;
        int extra = nbytes % 8;
        w.size(nbytes);
        long[] words = bits.toLongArray();
        for (int i = 0; i < full; i++) {
            w.i64(words[i]);
        }
        if (extra > 0) {
            long last = words[full];
            for (int i = 0; i < extra; i++) {
                w.u8((int) (last >>> (8 * i)) & 0xFF);
            }
        }
    }

    public static BitSet decode(PvReader r) throws PvDataException {
        int nbytes = r.size("bit set", false);
        int full = nbytes / 8;
        int extra = nbytes % 8;
        long[] words = new long[full + (extra > 0 ? 1 : 0)];
        for (int i = 0; i < full; i++) {
            words[i] = r.i64("bit set word");
        }
        for (int i = 0; i < extra; i++) {
            words[full] |= (long) r.u8("bit set byte") << (8 * i);
        }
        return BitSet.valueOf(words);
    }
}
