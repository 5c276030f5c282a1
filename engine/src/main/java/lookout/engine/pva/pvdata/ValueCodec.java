package lookout.engine.pva.pvdata;

import java.util.BitSet;
import java.util.List;

/**
 * Values ⇄ bytes for a known type (pvAccess protocol "Data encoding"; PVXS {@code dataencode.cpp}).
 * A value is a plain Java object matched to its type:
 *
 * <table>
 * <caption>value representations</caption>
 * <tr><th>type</th><th>value</th></tr>
 * <tr><td>boolean</td><td>{@link Boolean}</td></tr>
 * <tr><td>integers, floats</td><td>any {@link Number} (written at the type's width)</td></tr>
 * <tr><td>string</td><td>{@link String}</td></tr>
 * <tr><td>scalar arrays</td><td>{@code boolean[]}, {@code byte[]} (byte, ubyte), {@code short[]},
 *     {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}, {@code String[]}</td></tr>
 * <tr><td>structure</td><td>{@code Object[]}, one value per member</td></tr>
 * <tr><td>union</td><td>{@link UnionValue}; any: {@link AnyValue}</td></tr>
 * <tr><td>arrays of structures, unions, any</td><td>{@code Object[]} whose elements may be null</td></tr>
 * </table>
 *
 * <p>A whole value is its fields in order, nothing between them. A partial value (GET and
 * MONITOR replies) is a {@link BitSets bit set} and then, in bit order, each field whose bit is
 * set, written whole — a set structure bit covers everything below it.
 *
 * <p>Decoding (of pvRequests, the one value a client sends Lookout) runs under a budget of
 * {@link #MAX_NODES} fields per call, so that no type — however its cache references fan out —
 * costs more than that, and allocates no array larger than the bytes left could fill.
 */
public final class ValueCodec {

    /** Fields visited per decode at most. */
    public static final int MAX_NODES = 65_536;

    private ValueCodec() {
    }

    /** A union value: the selected member's index (-1: none) and its value. */
    public record UnionValue(int index, Object value) {
        public static final UnionValue NONE = new UnionValue(-1, null);
    }

    /** A variant union value: its type (null: none) and value. */
    public record AnyValue(PvType type, Object value) {
        public static final AnyValue NONE = new AnyValue(null, null);
    }

    // ---------------------------------------------------------------- encoding

    /** Writes {@code value} of {@code type} whole. */
    public static void encode(PvType type, Object value, PvWriter w) {
        if (type instanceof PvType.Scalar s) {
            scalar(s.kind(), value, w);
        } else if (type instanceof PvType.ScalarArray a) {
            array(a.kind(), value, w);
        } else if (type instanceof PvType.Struct s) {
            Object[] v = (Object[]) value;
            List<PvType.Member> ms = s.members();
            if (v.length != ms.size()) {
                throw new IllegalArgumentException(s.id() + ": " + v.length + " values for " + ms.size() + " members");
            }
            for (int i = 0; i < v.length; i++) {
                encode(ms.get(i).type(), v[i], w);
            }
        } else if (type instanceof PvType.Union u) {
            UnionValue uv = value == null ? UnionValue.NONE : (UnionValue) value;
            if (uv.index() < 0) {
                w.nullSize();
            } else {
                w.size(uv.index());
                encode(u.members().get(uv.index()).type(), uv.value(), w);
            }
        } else if (type instanceof PvType.Any) {
            AnyValue av = value == null ? AnyValue.NONE : (AnyValue) value;
            TypeCodec.encode(av.type(), w);
            if (av.type() != null) {
                encode(av.type(), av.value(), w);
            }
        } else {
            PvType element = type instanceof PvType.StructArray sa ? sa.element()
                    : type instanceof PvType.UnionArray ua ? ua.element() : new PvType.Any();
            Object[] v = (Object[]) value;
            w.size(v.length);
            for (Object e : v) {
                if (e == null) {
                    w.u8(0);
                } else {
                    w.u8(1);
                    encode(element, e, w);
                }
            }
        }
    }

    private static void scalar(ScalarKind k, Object v, PvWriter w) {
        switch (k) {
            case BOOLEAN -> w.u8(((Boolean) v) ? 1 : 0);
            case BYTE, UBYTE -> w.u8(((Number) v).intValue());
            case SHORT, USHORT -> w.i16(((Number) v).intValue());
            case INT, UINT -> w.i32(((Number) v).intValue());
            case LONG, ULONG -> w.i64(((Number) v).longValue());
            case FLOAT -> w.f32(((Number) v).floatValue());
            case DOUBLE -> w.f64(((Number) v).doubleValue());
            case STRING -> w.string((String) v);
        }
    }

    private static void array(ScalarKind k, Object v, PvWriter w) {
        switch (k) {
            case BOOLEAN -> {
                boolean[] a = (boolean[]) v;
                w.size(a.length);
                for (boolean b : a) {
                    w.u8(b ? 1 : 0);
                }
            }
            case BYTE, UBYTE -> {
                byte[] a = (byte[]) v;
                w.size(a.length);
                w.buffer().writeBytes(a);
            }
            case SHORT, USHORT -> {
                short[] a = (short[]) v;
                w.size(a.length);
                for (short x : a) {
                    w.i16(x);
                }
            }
            case INT, UINT -> {
                int[] a = (int[]) v;
                w.size(a.length);
                for (int x : a) {
                    w.i32(x);
                }
            }
            case LONG, ULONG -> {
                long[] a = (long[]) v;
                w.size(a.length);
                for (long x : a) {
                    w.i64(x);
                }
            }
            case FLOAT -> {
                float[] a = (float[]) v;
                w.size(a.length);
                for (float x : a) {
                    w.f32(x);
                }
            }
            case DOUBLE -> {
                double[] a = (double[]) v;
                w.size(a.length);
                for (double x : a) {
                    w.f64(x);
                }
            }
            case STRING -> {
                String[] a = (String[]) v;
                w.size(a.length);
                for (String x : a) {
                    w.string(x);
                }
            }
        }
    }

    /**
     * Writes the partial value of a structure: {@code bits}, then each field whose bit is set, in
     * bit order (bit 0: the whole structure).
     */
    public static void encodeSelected(PvType.Struct type, Object[] value, BitSet bits, PvWriter w) {
        BitSets.encode(bits, w);
        if (bits.get(0)) {
            encode(type, value, w);
            return;
        }
        selected(type, value, 1, bits, w);
    }

    private static void selected(PvType.Struct type, Object[] value, int bit, BitSet bits, PvWriter w) {
        List<PvType.Member> ms = type.members();
        for (int i = 0; i < ms.size(); i++) {
            PvType t = ms.get(i).type();
            if (t instanceof PvType.Struct s) {
                int span = s.bits();
                int next = bits.nextSetBit(bit);
                if (next >= 0 && next < bit + span) {
                    if (next == bit) {
                        encode(s, value[i], w);
                    } else {
                        selected(s, (Object[]) value[i], bit + 1, bits, w);
                    }
                }
                bit += span;
            } else {
                if (bits.get(bit)) {
                    encode(t, value[i], w);
                }
                bit++;
            }
        }
    }

    // ---------------------------------------------------------------- decoding

    /** Reads a whole value of {@code type} (null type: null). */
    public static Object decode(PvType type, PvReader r, TypeCodec.Registry registry) throws PvDataException {
        return decode(type, r, registry, new int[] {MAX_NODES}, 0);
    }

    /**
     * Reads a partial value of a structure into {@code into} (the fields whose bits are set are
     * replaced; a set structure bit replaces it whole): the inverse of {@link #encodeSelected}.
     * Returns the bit set read.
     */
    public static BitSet decodeSelected(PvType.Struct type, Object[] into, PvReader r, TypeCodec.Registry registry)
            throws PvDataException {
        BitSet bits = BitSets.decode(r);
        int[] budget = {MAX_NODES};
        if (bits.get(0)) {
            Object[] whole = (Object[]) decode(type, r, registry, budget, 0);
            System.arraycopy(whole, 0, into, 0, whole.length);
        } else {
            selectedInto(type, into, 1, bits, r, registry, budget);
        }
        return bits;
    }

    private static void selectedInto(PvType.Struct type, Object[] into, int bit, BitSet bits, PvReader r,
                                     TypeCodec.Registry registry, int[] budget) throws PvDataException {
        List<PvType.Member> ms = type.members();
        for (int i = 0; i < ms.size(); i++) {
            PvType t = ms.get(i).type();
            if (t instanceof PvType.Struct s) {
                int span = s.bits();
                int next = bits.nextSetBit(bit);
                if (next == bit) {
                    into[i] = decode(s, r, registry, budget, 1);
                } else if (next > bit && next < bit + span) {
                    selectedInto(s, (Object[]) into[i], bit + 1, bits, r, registry, budget);
                }
                bit += span;
            } else {
                if (bits.get(bit)) {
                    into[i] = decode(t, r, registry, budget, 1);
                }
                bit++;
            }
        }
    }

    /** Reads a type description and then a whole value of it, as pvRequests travel. */
    public static AnyValue decodeTyped(PvReader r, TypeCodec.Registry registry) throws PvDataException {
        PvType t = TypeCodec.decode(r, registry);
        return t == null ? AnyValue.NONE : new AnyValue(t, decode(t, r, registry));
    }

    private static Object decode(PvType type, PvReader r, TypeCodec.Registry registry, int[] budget, int depth)
            throws PvDataException {
        if (--budget[0] < 0) {
            throw new PvDataException("value with more than " + MAX_NODES + " fields");
        }
        if (depth > TypeCodec.MAX_DEPTH * 2) {
            throw new PvDataException("value nested too deep");
        }
        if (type == null) {
            return null;
        }
        if (type instanceof PvType.Scalar s) {
            return scalar(s.kind(), r);
        }
        if (type instanceof PvType.ScalarArray a) {
            return array(a.kind(), r, budget);
        }
        if (type instanceof PvType.Struct s) {
            List<PvType.Member> ms = s.members();
            Object[] v = new Object[ms.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = decode(ms.get(i).type(), r, registry, budget, depth + 1);
            }
            return v;
        }
        if (type instanceof PvType.Union u) {
            int sel = r.size("union selector", true);
            if (sel < 0) {
                return UnionValue.NONE;
            }
            if (sel >= u.members().size()) {
                throw new PvDataException("union selector " + sel + " of " + u.members().size() + " members");
            }
            return new UnionValue(sel, decode(u.members().get(sel).type(), r, registry, budget, depth + 1));
        }
        if (type instanceof PvType.Any) {
            PvType t = TypeCodec.decode(r, registry);
            return t == null ? AnyValue.NONE : new AnyValue(t, decode(t, r, registry, budget, depth + 1));
        }
        PvType element = type instanceof PvType.StructArray sa ? sa.element()
                : type instanceof PvType.UnionArray ua ? ua.element() : new PvType.Any();
        int n = r.count("array length", 1);
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
            int present = r.u8("array element flag");
            if (present != 0) {
                v[i] = decode(element, r, registry, budget, depth + 1);
            }
        }
        return v;
    }

    private static Object scalar(ScalarKind k, PvReader r) throws PvDataException {
        return switch (k) {
            case BOOLEAN -> r.u8("boolean") != 0;
            case BYTE -> (byte) r.u8("byte");
            case UBYTE -> r.u8("ubyte");
            case SHORT -> (short) r.i16("short");
            case USHORT -> r.u16("ushort");
            case INT -> r.i32("int");
            case UINT -> r.i32("uint") & 0xFFFF_FFFFL;
            case LONG, ULONG -> r.i64("long");
            case FLOAT -> r.f32("float");
            case DOUBLE -> r.f64("double");
            case STRING -> r.string("string");
        };
    }

    private static Object array(ScalarKind k, PvReader r, int[] budget) throws PvDataException {
        int width = Math.max(1, k.width());
        int n = r.count(k.word() + "[] length", width);
        budget[0] -= n;
        if (budget[0] < 0) {
            throw new PvDataException("value with more than " + MAX_NODES + " fields");
        }
        switch (k) {
            case BOOLEAN: {
                boolean[] a = new boolean[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.u8("boolean") != 0;
                }
                return a;
            }
            case BYTE:
            case UBYTE: {
                byte[] a = new byte[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (byte) r.u8("byte");
                }
                return a;
            }
            case SHORT:
            case USHORT: {
                short[] a = new short[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (short) r.i16("short");
                }
                return a;
            }
            case INT:
            case UINT: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.i32("int");
                }
                return a;
            }
            case LONG:
            case ULONG: {
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.i64("long");
                }
                return a;
            }
            case FLOAT: {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.f32("float");
                }
                return a;
            }
            case DOUBLE: {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.f64("double");
                }
                return a;
            }
            default: {
                String[] a = new String[n];
                for (int i = 0; i < n; i++) {
                    a[i] = r.string("string");
                }
                return a;
            }
        }
    }
}
