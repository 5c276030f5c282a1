package lookout.engine.pva.pvdata;

/**
 * The pvData scalar types and their type codes (pvAccess protocol, "Introspection data"): the
 * kind in bits 7–5 (0x00 boolean, 0x20 integer, 0x40 floating point, 0x60 string), the width in
 * bits 1–0 and, for integers, bit 2 for unsigned. An array of a scalar is its code with 0x08 set
 * (variable size; bounded 0x10 and fixed 0x18 arrays are deprecated and not accepted).
 */
public enum ScalarKind {
    BOOLEAN(0x00, 1, "boolean"),
    BYTE(0x20, 1, "byte"),
    SHORT(0x21, 2, "short"),
    INT(0x22, 4, "int"),
    LONG(0x23, 8, "long"),
    UBYTE(0x24, 1, "ubyte"),
    USHORT(0x25, 2, "ushort"),
    UINT(0x26, 4, "uint"),
    ULONG(0x27, 8, "ulong"),
    FLOAT(0x42, 4, "float"),
    DOUBLE(0x43, 8, "double"),
    STRING(0x60, -1, "string");

    /** The variable-size array flag of a type code. */
    public static final int ARRAY = 0x08;

    private final int code;
    private final int width;
    private final String word;

    ScalarKind(int code, int width, String word) {
        this.code = code;
        this.width = width;
        this.word = word;
    }

    /** The type code of the scalar. */
    public int code() {
        return code;
    }

    /** Bytes per element on the wire, or -1 for strings (a Size and the UTF-8 bytes). */
    public int width() {
        return width;
    }

    /** The name pvData uses for it ({@code double}, {@code string}, ...). */
    public String word() {
        return word;
    }

    public boolean integer() {
        return (code & 0xE0) == 0x20;
    }

    public boolean floating() {
        return (code & 0xE0) == 0x40;
    }

    /** The kind of the scalar type code {@code code} (array flag cleared), or null. */
    public static ScalarKind of(int code) {
        for (ScalarKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
