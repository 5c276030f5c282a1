package lookout.engine.pva.pvdata;

import java.util.List;

/**
 * A pvData type description ("introspection data" in the pvAccess protocol): scalars, scalar
 * arrays, structures, unions, variant unions ({@code any}) and arrays of the last three. Values
 * are plain Java objects matched to their type (see {@link ValueCodec}).
 *
 * <p>A structure numbers its fields for the bit sets of GET and MONITOR replies: bit 0 is the
 * structure itself, then every field depth-first, a sub-structure before its own fields.
 */
public sealed interface PvType {

    /** The type code that starts its description on the wire. */
    int code();

    /** A scalar ({@code double value}). */
    record Scalar(ScalarKind kind) implements PvType {
        @Override
        public int code() {
            return kind.code();
        }
    }

    /** A variable-size array of a scalar ({@code string[] labels}). */
    record ScalarArray(ScalarKind kind) implements PvType {
        @Override
        public int code() {
            return kind.code() | ScalarKind.ARRAY;
        }
    }

    /** A named member of a structure or union. */
    record Member(String name, PvType type) {
    }

    /**
     * A structure: an identifier ({@code epics:nt/NTScalar:1.0}, {@code alarm_t}, or empty) and
     * its members in order.
     */
    record Struct(String id, List<Member> members) implements PvType {

        public Struct {
            members = List.copyOf(members);
        }

        @Override
        public int code() {
            return 0x80;
        }

        /** Bits this structure takes in a bit set: itself and every field below it. */
        public int bits() {
            int n = 1;
            for (Member m : members) {
                n += m.type() instanceof Struct s ? s.bits() : 1;
            }
            return n;
        }

        /** The bit of top-level member {@code index}. */
        public int bitOf(int index) {
            int bit = 1;
            for (int i = 0; i < index; i++) {
                bit += members.get(i).type() instanceof Struct s ? s.bits() : 1;
            }
            return bit;
        }

        /** The index of the member called {@code name}, or -1. */
        public int indexOf(String name) {
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).name().equals(name)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** A union: exactly one of its members, or none. */
    record Union(String id, List<Member> members) implements PvType {

        public Union {
            members = List.copyOf(members);
        }

        @Override
        public int code() {
            return 0x81;
        }
    }

    /** A variant union: a value of any type, its type sent with it. */
    record Any() implements PvType {
        @Override
        public int code() {
            return 0x82;
        }
    }

    /** An array of structures of one type (elements may be null). */
    record StructArray(Struct element) implements PvType {
        @Override
        public int code() {
            return 0x88;
        }
    }

    /** An array of unions of one type. */
    record UnionArray(Union element) implements PvType {
        @Override
        public int code() {
            return 0x89;
        }
    }

    /** An array of variant unions. */
    record AnyArray() implements PvType {
        @Override
        public int code() {
            return 0x8A;
        }
    }

    // ---------------------------------------------------------------- shorthands

    static Scalar scalar(ScalarKind kind) {
        return new Scalar(kind);
    }

    static ScalarArray array(ScalarKind kind) {
        return new ScalarArray(kind);
    }

    static Member member(String name, PvType type) {
        return new Member(name, type);
    }

    static Struct struct(String id, Member... members) {
        return new Struct(id, List.of(members));
    }
}
