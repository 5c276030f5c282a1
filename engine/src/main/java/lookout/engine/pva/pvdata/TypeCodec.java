package lookout.engine.pva.pvdata;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Type descriptions ⇄ bytes (pvAccess protocol, "Introspection data"; PVXS {@code dataencode.cpp}).
 * Encoding always writes the full description (no 0xFD/0xFE cache entries): a receiver needs no
 * state to read what Lookout sends. Decoding understands the cache: 0xFD {@code id} then a type
 * stores it in the connection's {@link Registry}, 0xFE {@code id} reuses it (core-pva's client
 * describes its pvRequest that way).
 *
 * <p>Limits against hostile input: nesting at most {@link #MAX_DEPTH} deep, at most
 * {@link Registry#MAX_ENTRIES} cache entries per connection; fixed and bounded arrays and bounded
 * strings (deprecated) are refused, as PVXS does. A type decoded from a peer may share nodes
 * through cache references: never hash, compare or print one (the walk could be exponential);
 * {@link ValueCodec} reads values of it under a node budget.
 */
public final class TypeCodec {

    /** PVXS's {@code maxNestingDepth}. */
    public static final int MAX_DEPTH = 20;

    static final int NULL = 0xFF;
    static final int CACHE_PUT = 0xFD;
    static final int CACHE_GET = 0xFE;

    private TypeCodec() {
    }

    /** The cached types of one connection, by the peer's 16-bit keys. Confined to the connection. */
    public static final class Registry {
        public static final int MAX_ENTRIES = 1024;
        private final Map<Integer, PvType> types = new HashMap<>();

        void put(int key, PvType type) throws PvDataException {
            if (!types.containsKey(key) && types.size() >= MAX_ENTRIES) {
                throw new PvDataException("more than " + MAX_ENTRIES + " cached types");
            }
            types.put(key, type);
        }

        PvType get(int key) throws PvDataException {
            PvType t = types.get(key);
            if (t == null) {
                throw new PvDataException("reference to type " + key + ", never described");
            }
            return t;
        }

        public int size() {
            return types.size();
        }
    }

    /** Writes the full description of {@code type} (null: the null type 0xFF). */
    public static void encode(PvType type, PvWriter w) {
        if (type == null) {
            w.u8(NULL);
            return;
        }
        w.u8(type.code());
        if (type instanceof PvType.Struct s) {
            members(s.id(), s.members(), w);
        } else if (type instanceof PvType.Union u) {
            members(u.id(), u.members(), w);
        } else if (type instanceof PvType.StructArray a) {
            encode(a.element(), w);
        } else if (type instanceof PvType.UnionArray a) {
            encode(a.element(), w);
        }
        // scalars, scalar arrays, any and any[]: the code says everything
    }

    private static void members(String id, List<PvType.Member> members, PvWriter w) {
        w.string(id);
        w.size(members.size());
        for (PvType.Member m : members) {
            w.string(m.name());
            encode(m.type(), w);
        }
    }

    /** Reads one type description; null for the null type 0xFF. */
    public static PvType decode(PvReader r, Registry registry) throws PvDataException {
        return decode(r, registry, 0);
    }

    private static PvType decode(PvReader r, Registry registry, int depth) throws PvDataException {
        if (depth > MAX_DEPTH) {
            throw new PvDataException("type nested deeper than " + MAX_DEPTH);
        }
        int code = r.u8("type code");
        switch (code) {
            case NULL:
                return null;
            case CACHE_PUT: {
                int key = r.u16("type cache key");
                PvType t = decode(r, registry, depth + 1);
                if (t == null) {
                    throw new PvDataException("null type stored in the type cache");
                }
                registry.put(key, t);
                return t;
            }
            case CACHE_GET:
                return registry.get(r.u16("type cache key"));
            case 0x80:
                return new PvType.Struct(r.string("structure id"), members(r, registry, depth));
            case 0x81:
                return new PvType.Union(r.string("union id"), members(r, registry, depth));
            case 0x82:
                return new PvType.Any();
            case 0x88:
                if (decode(r, registry, depth + 1) instanceof PvType.Struct s) {
                    return new PvType.StructArray(s);
                }
                throw new PvDataException("structure array of something else than a structure");
            case 0x89:
                if (decode(r, registry, depth + 1) instanceof PvType.Union u) {
                    return new PvType.UnionArray(u);
                }
                throw new PvDataException("union array of something else than a union");
            case 0x8A:
                return new PvType.AnyArray();
            default:
                break;
        }
        int array = code & 0x18;
        ScalarKind kind = ScalarKind.of(code & ~0x18);
        if (kind == null) {
            throw new PvDataException("unknown type code 0x" + Integer.toHexString(code));
        }
        if (array == 0) {
            return new PvType.Scalar(kind);
        }
        if (array == ScalarKind.ARRAY) {
            return new PvType.ScalarArray(kind);
        }
        throw new PvDataException("bounded or fixed-size array (type code 0x" + Integer.toHexString(code) + ")");
    }

    private static List<PvType.Member> members(PvReader r, Registry registry, int depth) throws PvDataException {
        // each member takes at least two bytes: a name Size and a type code
        int n = r.count("member count", 2);
        List<PvType.Member> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = r.string("member name");
            PvType t = decode(r, registry, depth + 1);
            if (t == null) {
                throw new PvDataException("member '" + name + "' has the null type");
            }
            out.add(new PvType.Member(name, t));
        }
        return out;
    }
}
