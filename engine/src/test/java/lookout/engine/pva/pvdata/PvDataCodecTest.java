package lookout.engine.pva.pvdata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The pvData encodings with fixed bytes, in both byte orders (the header's 0x80 flag selects it):
 * the type descriptions of every structure the engine publishes (alarm_t, time_t, NTScalar of
 * double, int and string, NTTable), their values whole and partial, bit sets, statuses, and the
 * decoding of a core-pva pvRequest with its type-cache entries. The expected bytes were written
 * from the pvAccess protocol description, not produced by this code.
 */
class PvDataCodecTest {

    // ---------------------------------------------------------------- expected bytes, by hand

    static final String ALARM_T = "80 07616C61726D5F74 03"
            + " 087365766572697479 22" // severity: int
            + " 06737461747573 22" // status: int
            + " 076D657373616765 60"; // message: string
    static final String TIME_T = "80 0674696D655F74 03"
            + " 107365636F6E64735061737445706F6368 23" // secondsPastEpoch: long
            + " 0B6E616E6F7365636F6E6473 22" // nanoseconds: int
            + " 0775736572546167 22"; // userTag: int

    static String numericDisplay(String code) {
        return "80 00 05"
                + " 086C696D69744C6F77 " + code // limitLow
                + " 096C696D697448696768 " + code // limitHigh
                + " 0B6465736372697074696F6E 60" // description
                + " 05756E697473 60" // units
                + " 09707265636973696F6E 22"; // precision: int
    }

    static String ntScalar(String valueCode, String display) {
        return "80 15 6570696373 3A6E742F4E545363616C61723A312E30 04" // epics:nt/NTScalar:1.0, 4 members
                + " 0576616C7565 " + valueCode
                + " 05616C61726D " + ALARM_T
                + " 0974696D655374616D70 " + TIME_T
                + " 07646973706C6179 " + display;
    }

    static final String NT_SCALAR_DOUBLE = ntScalar("43", numericDisplay("43"));
    static final String NT_SCALAR_INT = ntScalar("22", numericDisplay("22"));
    static final String NT_SCALAR_STRING = ntScalar("60",
            "80 00 02 0B6465736372697074696F6E 60 05756E697473 60");

    /** NTTable with a string, an int, a long, a double and a boolean column. */
    static final String NT_TABLE = "80 14 65706963733A6E742F4E545461626C653A312E30 05" // epics:nt/NTTable:1.0
            + " 066C6162656C73 68" // labels: string[]
            + " 0576616C7565 80 00 05" // value: structure of 5 columns
            + " 046E616D65 68" // name: string[]
            + " 056D61726B73 2A" // marks: int[]
            + " 05636F756E74 2B" // count: long[]
            + " 036F6464 4B" // odd: double[]
            + " 027570 08" // up: boolean[]
            + " 0A64657363726970746F72 60" // descriptor
            + " 05616C61726D " + ALARM_T
            + " 0974696D655374616D70 " + TIME_T;

    static final List<NormativeTypes.Column> TABLE_COLUMNS = List.of(
            new NormativeTypes.Column("name", "Name", ScalarKind.STRING),
            new NormativeTypes.Column("marks", "Marks", ScalarKind.INT),
            new NormativeTypes.Column("count", "Count", ScalarKind.LONG),
            new NormativeTypes.Column("odd", "Odds", ScalarKind.DOUBLE),
            new NormativeTypes.Column("up", "Up", ScalarKind.BOOLEAN));

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hexOf(Consumer<PvWriter> write, boolean bigEndian) {
        ByteBuf b = Unpooled.buffer();
        write.accept(new PvWriter(b, bigEndian));
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return HexFormat.of().withUpperCase().formatHex(out);
    }

    static String norm(String hex) {
        return hex.replace(" ", "").toUpperCase();
    }

    // ---------------------------------------------------------------- type descriptions

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void everyPublishedTypeHasItsFixedDescriptionInEitherByteOrder(boolean bigEndian) {
        // sizes below 254 are one byte: a description reads the same in both orders
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.ALARM, w), bigEndian)).isEqualTo(norm(ALARM_T));
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.TIME, w), bigEndian)).isEqualTo(norm(TIME_T));
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.scalarType(ScalarKind.DOUBLE), w), bigEndian))
                .isEqualTo(norm(NT_SCALAR_DOUBLE));
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.scalarType(ScalarKind.INT), w), bigEndian))
                .isEqualTo(norm(NT_SCALAR_INT));
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.scalarType(ScalarKind.STRING), w), bigEndian))
                .isEqualTo(norm(NT_SCALAR_STRING));
        assertThat(hexOf(w -> TypeCodec.encode(NormativeTypes.tableType(TABLE_COLUMNS), w), bigEndian))
                .isEqualTo(norm(NT_TABLE));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void everyPublishedTypeDecodesBackInEitherByteOrder(boolean bigEndian) throws Exception {
        for (String hex : List.of(ALARM_T, TIME_T, NT_SCALAR_DOUBLE, NT_SCALAR_INT, NT_SCALAR_STRING, NT_TABLE)) {
            byte[] b = bytes(hex);
            PvReader r = new PvReader(Unpooled.wrappedBuffer(b), 0, b.length, bigEndian);
            PvType t = TypeCodec.decode(r, new TypeCodec.Registry());
            assertThat(r.remaining()).isZero();
            assertThat(hexOf(w -> TypeCodec.encode(t, w), true)).isEqualTo(norm(hex));
        }
    }

    @Test
    void aLongIdUsesTheFiveByteSizeInTheMessageByteOrder() {
        String id = "x".repeat(300);
        PvType.Struct s = new PvType.Struct(id, List.of());
        String x = HexFormat.of().withUpperCase().formatHex(id.getBytes(StandardCharsets.US_ASCII));
        assertThat(hexOf(w -> TypeCodec.encode(s, w), true)).isEqualTo("80FE0000012C" + x + "00");
        assertThat(hexOf(w -> TypeCodec.encode(s, w), false)).isEqualTo("80FE2C010000" + x + "00");
    }

    // ---------------------------------------------------------------- values

    static Object[] scalarDouble() {
        return new Object[] {12.5, NormativeTypes.alarm(1, 3, "HIGH"), NormativeTypes.time(1767225600L, 250_000_000),
                new Object[] {0.0, 4096.0, "d", "u", 1}};
    }

    static final String BE_VALUE = "4029000000000000";
    static final String BE_ALARM = "00000001 00000003 0448494748";
    static final String BE_TIME = "000000006955B900 0EE6B280 00000000";
    static final String BE_DISPLAY = "0000000000000000 40B0000000000000 0164 0175 00000001";
    static final String LE_VALUE = "0000000000002940";
    static final String LE_ALARM = "01000000 03000000 0448494748";
    static final String LE_TIME = "00B9556900000000 80B2E60E 00000000";
    static final String LE_DISPLAY = "0000000000000000 000000000000B040 0164 0175 01000000";

    @Test
    void anNtScalarValueWholeHasItsFixedBytesInBothOrders() {
        PvType.Struct t = NormativeTypes.scalarType(ScalarKind.DOUBLE);
        assertThat(hexOf(w -> ValueCodec.encode(t, scalarDouble(), w), true))
                .isEqualTo(norm(BE_VALUE + BE_ALARM + BE_TIME + BE_DISPLAY));
        assertThat(hexOf(w -> ValueCodec.encode(t, scalarDouble(), w), false))
                .isEqualTo(norm(LE_VALUE + LE_ALARM + LE_TIME + LE_DISPLAY));
    }

    @Test
    void aPartialValueIsItsBitSetThenTheSelectedFieldsInBitOrder() {
        PvType.Struct t = NormativeTypes.scalarType(ScalarKind.DOUBLE);
        // bits: 0 whole, 1 value, 2 alarm (3–5 its fields), 6 timeStamp (7–9), 10 display (11–15)
        assertThat(t.bits()).isEqualTo(16);
        BitSet bits = new BitSet();
        bits.set(1);
        bits.set(2);
        bits.set(6);
        assertThat(hexOf(w -> ValueCodec.encodeSelected(t, scalarDouble(), bits, w), true))
                .isEqualTo(norm("01 46" + BE_VALUE + BE_ALARM + BE_TIME));
        assertThat(hexOf(w -> ValueCodec.encodeSelected(t, scalarDouble(), bits, w), false))
                .isEqualTo(norm("01 46" + LE_VALUE + LE_ALARM + LE_TIME));
        // a field inside a structure alone: alarm.severity (bit 3), timeStamp.nanoseconds (bit 8)
        BitSet inner = new BitSet();
        inner.set(3);
        inner.set(8);
        assertThat(hexOf(w -> ValueCodec.encodeSelected(t, scalarDouble(), inner, w), true))
                .isEqualTo(norm("02 0801 00000001 0EE6B280"));
        // bit 0: everything
        BitSet all = new BitSet();
        all.set(0);
        assertThat(hexOf(w -> ValueCodec.encodeSelected(t, scalarDouble(), all, w), true))
                .isEqualTo(norm("01 01" + BE_VALUE + BE_ALARM + BE_TIME + BE_DISPLAY));
    }

    @Test
    void intAndStringScalarsHaveTheirFixedBytes() {
        PvType.Struct ti = NormativeTypes.scalarType(ScalarKind.INT);
        Object[] vi = {7, NormativeTypes.alarm(0, 0, ""), NormativeTypes.time(1, 2), new Object[] {0, 4096, "", "q", 0}};
        assertThat(hexOf(w -> ValueCodec.encode(ti, vi, w), true)).isEqualTo(norm("00000007 00000000 00000000 00"
                + "0000000000000001 00000002 00000000 00000000 00001000 00 0171 00000000"));
        assertThat(hexOf(w -> ValueCodec.encode(ti, vi, w), false)).isEqualTo(norm("07000000 00000000 00000000 00"
                + "0100000000000000 02000000 00000000 00000000 00100000 00 0171 00000000"));
        PvType.Struct ts = NormativeTypes.scalarType(ScalarKind.STRING);
        Object[] vs = {"OK", NormativeTypes.alarm(0, 0, ""), NormativeTypes.time(0, 0), new Object[] {"r", ""}};
        String stringTail = "024F4B 00000000 00000000 00 0000000000000000 00000000 00000000 0172 00";
        assertThat(hexOf(w -> ValueCodec.encode(ts, vs, w), true)).isEqualTo(norm(stringTail));
        assertThat(hexOf(w -> ValueCodec.encode(ts, vs, w), false)).isEqualTo(norm(stringTail));
    }

    static Object[] table() {
        Object[] columns = {new String[] {"a", "b"}, new int[] {1, -1}, new long[] {2L, 3L}, new double[] {0.5, 0.25},
                new boolean[] {true, false}};
        return new Object[] {new String[] {"Name", "Marks", "Count", "Odds", "Up"}, columns, "t",
                NormativeTypes.alarm(0, 0, ""), NormativeTypes.time(0, 0)};
    }

    @Test
    void anNtTableValueHasItsFixedBytesInBothOrders() {
        PvType.Struct t = NormativeTypes.tableType(TABLE_COLUMNS);
        String labels = "05 044E616D65 054D61726B73 05436F756E74 044F646473 025570";
        String tail = "0174 00000000 00000000 00 0000000000000000 00000000 00000000";
        assertThat(hexOf(w -> ValueCodec.encode(t, table(), w), true)).isEqualTo(norm(labels
                + " 02 0161 0162" // name
                + " 02 00000001 FFFFFFFF" // marks
                + " 02 0000000000000002 0000000000000003" // count
                + " 02 3FE0000000000000 3FD0000000000000" // odd
                + " 02 01 00 " // up
                + tail));
        assertThat(hexOf(w -> ValueCodec.encode(t, table(), w), false)).isEqualTo(norm(labels
                + " 02 0161 0162"
                + " 02 01000000 FFFFFFFF"
                + " 02 0200000000000000 0300000000000000"
                + " 02 000000000000E03F 000000000000D03F"
                + " 02 01 00 "
                + tail));
        // bits: 0 whole, 1 labels, 2 value (3–7 its columns), 8 descriptor, 9 alarm (10–12), 13 timeStamp (14–16)
        assertThat(t.bits()).isEqualTo(17);
        BitSet valueAndTime = new BitSet();
        valueAndTime.set(2);
        valueAndTime.set(13);
        assertThat(hexOf(w -> ValueCodec.encodeSelected(t, table(), valueAndTime, w), true))
                .startsWith(norm("02 04 20" + " 02 0161 0162"))
                .endsWith(norm("02 01 00 0000000000000000 00000000 00000000"));
    }

    // ---------------------------------------------------------------- bit sets and statuses

    @Test
    void bitSetsOfEightBytesOrMoreWriteWholeWordsInTheMessageByteOrder() throws Exception {
        BitSet b = new BitSet();
        b.set(0);
        b.set(63);
        b.set(64);
        // nine bytes: one word, then one byte
        assertThat(hexOf(w -> BitSets.encode(b, w), true)).isEqualTo("09" + "8000000000000001" + "01");
        assertThat(hexOf(w -> BitSets.encode(b, w), false)).isEqualTo("09" + "0100000000000080" + "01");
        for (boolean be : new boolean[] {true, false}) {
            byte[] x = bytes(hexOf(w -> BitSets.encode(b, w), be));
            assertThat(BitSets.decode(new PvReader(Unpooled.wrappedBuffer(x), 0, x.length, be))).isEqualTo(b);
        }
        assertThat(hexOf(w -> BitSets.encode(new BitSet(), w), true)).isEqualTo("00");
    }

    @Test
    void statusesHaveTheirFixedBytes() throws Exception {
        assertThat(hexOf(PvStatus.OK::encode, true)).isEqualTo("FF");
        String err = "02 0C72656164206F6E6C79212121 00".replace("0C72656164206F6E6C79212121", "0C" + HexFormat.of()
                .withUpperCase().formatHex("read only!!!".getBytes(StandardCharsets.US_ASCII)));
        assertThat(hexOf(PvStatus.error("read only!!!")::encode, true)).isEqualTo(norm(err));
        byte[] x = bytes(err);
        assertThat(PvStatus.decode(new PvReader(Unpooled.wrappedBuffer(x), 0, x.length, false)))
                .isEqualTo(PvStatus.error("read only!!!"));
    }

    // ---------------------------------------------------------------- what clients send

    /** core-pva 4.7.3's pvRequest for "field(value,alarm)" with pipeline: type ids 1, 2, 3 and a cache reference. */
    static final String COREPVA_REQUEST = "FD0001 80 00 02" // #1 structure "" of 2
            + " 067265636F7264 FD0004 80 00 01" // record: #4
            + "  085F6F7074696F6E73 FD0005 80 00 02" // _options: #5
            + "   08706970656C696E65 00" // pipeline: boolean
            + "   0971756575655369 7A65 22" // queueSize: int
            + " 056669656C64 FD0002 80 00 02" // field: #2
            + "  0576616C7565 FD0003 80 00 00" // value: #3, empty
            + "  05616C61726D FE0003" // alarm: #3 again, by reference
            + " 01 00000004"; // pipeline true, queueSize 4

    @Test
    void aCorePvaRequestWithTypeCacheEntriesDecodes() throws Exception {
        byte[] b = bytes(COREPVA_REQUEST);
        TypeCodec.Registry reg = new TypeCodec.Registry();
        ValueCodec.AnyValue v = ValueCodec.decodeTyped(new PvReader(Unpooled.wrappedBuffer(b), 0, b.length, true), reg);
        assertThat(reg.size()).isEqualTo(5);
        PvType.Struct root = (PvType.Struct) v.type();
        assertThat(root.members()).extracting(PvType.Member::name).containsExactly("record", "field");
        PvType.Struct field = (PvType.Struct) root.members().get(1).type();
        assertThat(field.members()).extracting(PvType.Member::name).containsExactly("value", "alarm");
        Object[] rec = (Object[]) ((Object[]) v.value())[0];
        assertThat((Object[]) rec[0]).containsExactly(true, 4);
    }

    @Test
    void hostileDescriptionsAreRefusedWithoutAllocatingTowardThem() {
        TypeCodec.Registry reg = new TypeCodec.Registry();
        // a member count no message could hold
        assertThatThrownBy(() -> decodeType("80 00 FE7FFFFFFF", reg)).isInstanceOf(PvDataException.class);
        // a cache reference never described
        assertThatThrownBy(() -> decodeType("FE0009", reg)).hasMessageContaining("never described");
        // fixed-size and bounded arrays, bounded strings
        assertThatThrownBy(() -> decodeType("1A", reg)).isInstanceOf(PvDataException.class);
        assertThatThrownBy(() -> decodeType("83", reg)).isInstanceOf(PvDataException.class);
        // 21 structures deep
        String deep = "80 00 01 0161 ".repeat(21) + "22";
        assertThatThrownBy(() -> decodeType(deep, reg)).hasMessageContaining("deeper");
        // an array length beyond the message
        assertThatThrownBy(() -> decodeValue("6A", "FE0000FFFF", reg)).isInstanceOf(PvDataException.class);
    }

    @Test
    void aTypeThatFansOutThroughItsCacheCostsAtMostTheNodeBudget() {
        // #1 = {}; #2 = 1000 members of #1; #3 = 1000 members of #2: a million fields from ten kilobytes
        String thousand = "FE000003E8";
        StringBuilder two = new StringBuilder("FD0002 80 00 " + thousand);
        for (int i = 0; i < 1000; i++) {
            two.append(i == 0 ? " 0161 FD0001 80 00 00" : " 0161 FE0001");
        }
        StringBuilder hex = new StringBuilder("FD0003 80 00 " + thousand);
        for (int i = 0; i < 1000; i++) {
            hex.append(i == 0 ? " 0161 " + two : " 0161 FE0002");
        }
        TypeCodec.Registry reg = new TypeCodec.Registry();
        assertThatThrownBy(() -> {
            byte[] b = bytes(hex.toString());
            ValueCodec.decodeTyped(new PvReader(Unpooled.wrappedBuffer(b), 0, b.length, true), reg);
        }).hasMessageContaining("more than " + ValueCodec.MAX_NODES);
    }

    private static PvType decodeType(String hex, TypeCodec.Registry reg) throws PvDataException {
        byte[] b = bytes(hex);
        return TypeCodec.decode(new PvReader(Unpooled.wrappedBuffer(b), 0, b.length, true), reg);
    }

    private static Object decodeValue(String typeHex, String valueHex, TypeCodec.Registry reg) throws PvDataException {
        PvType t = decodeType(typeHex, reg);
        byte[] b = bytes(valueHex);
        return ValueCodec.decode(t, new PvReader(Unpooled.wrappedBuffer(b), 0, b.length, true), reg);
    }
}
