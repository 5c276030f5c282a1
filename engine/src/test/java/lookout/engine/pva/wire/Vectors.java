package lookout.engine.pva.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;

/** The captured vectors of PVA-WIRE.md, verbatim. */
final class Vectors {

    private Vectors() {
    }

    static final String V1_PVXS_SEARCH = "CA028003 00000039 66696E64 80000000 00000000 00000000 00000000 00000000"
            + "D5AC0103 74637000 02123456 78077465 73747076 31123456 78077465 73747076 31";
    static final String V2_PVXS_SEARCH_RESPONSE = "CA02C004 00000031 6BF84E92 A93C78A9 A9656A98 66696E64 00000000 00000000"
            + "0000FFFF 00000000 B24B0374 63700100 02123456 78123456 78";
    static final String V3_COREPVA_SEARCH = "CA028003 00000032 00000002 80000000 00000000 00000000 0000FFFF 00000000"
            + "D6220103 74637000 01000000 020C6861 726E6573 733A7076 3A30";
    static final String V4_DISCOVERY_PING = "CA028003 0000001D 66696E64 01000000 00000000 00000000 00000000 00000000"
            + "3AE50000 00";
    static final String V5_COREPVA_DISCOVERY_REPLY = "CA02C004 00000029 52BC2F00 ED690131 1033EC3D 00000000 00000000 00000000"
            + "0000FFFF 00000000 3AE30374 63700000 00";
    static final String V6_BEACON = "CA02C000 00000027 52BC2F00 ED690131 1033EC3D 00000003 00000000 00000000"
            + "0000FFFF 00000000 3AE30374 6370FF";
    static final String V7_ORIGIN_TAG_SEARCH = "CA028016 00000010 00000000 00000000 0000FFFF 0A000005 CA028003 0000002D"
            + "66696E64 00000000 00000000 00000000 0000FFFF 0A000007 D5AC0103 74637000"
            + "01000000 01076465 6D6F3A70 76";
    /** Vector 8, with its elided reply address (16 zero bytes) and name written out. */
    static final String V8_LITTLE_ENDIAN_SEARCH = "CA020003 2D000000 646E6966 00000000"
            + "00000000 00000000 00000000 00000000"
            + "ACD50103 74637001 00010000 0007" + "64656D6F3A7076";

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static ByteBuf buf(String hex) {
        return Unpooled.wrappedBuffer(bytes(hex));
    }

    static String hex(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), a);
        return HexFormat.of().withUpperCase().formatHex(a);
    }
}
