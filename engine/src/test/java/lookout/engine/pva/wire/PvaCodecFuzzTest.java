package lookout.engine.pva.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Random and mutated datagrams: nothing but a result ever leaves the decoder. */
class PvaCodecFuzzTest {

    private static final List<byte[]> SEEDS = List.of(
            Vectors.bytes(Vectors.V1_PVXS_SEARCH), Vectors.bytes(Vectors.V2_PVXS_SEARCH_RESPONSE),
            Vectors.bytes(Vectors.V3_COREPVA_SEARCH), Vectors.bytes(Vectors.V4_DISCOVERY_PING),
            Vectors.bytes(Vectors.V5_COREPVA_DISCOVERY_REPLY), Vectors.bytes(Vectors.V6_BEACON),
            Vectors.bytes(Vectors.V7_ORIGIN_TAG_SEARCH), Vectors.bytes(Vectors.V8_LITTLE_ENDIAN_SEARCH));

    @Property(tries = 3000)
    void randomBytesNeverThrow(@ForAll @Size(max = 200) byte[] data) {
        check(data);
    }

    @Property(tries = 3000)
    void randomBytesBehindAValidHeaderNeverThrow(@ForAll("headed") byte[] data) {
        check(data);
    }

    @Property(tries = 5000)
    void mutatedVectorsNeverThrow(@ForAll("mutated") byte[] data) {
        check(data);
    }

    private static void check(byte[] data) {
        ByteBuf b = Unpooled.wrappedBuffer(data);
        DatagramContents c = PvaCodec.decodeDatagram(b);
        assertThat(c).isNotNull();
        assertThat(c.dropped() ? c.frames().isEmpty() : !c.frames().isEmpty()).isTrue();
        assertThat(b.readerIndex()).isZero();
        Decoded d = PvaCodec.decodeFrame(b);
        assertThat(d).isNotNull();
        long len = PvaCodec.frameLength(b, 0);
        assertThat(len).isGreaterThanOrEqualTo(-2);
        // whatever decodes re-encodes and decodes to the same message
        for (Frame f : c.frames()) {
            if (f.message() instanceof Unhandled) {
                continue;
            }
            ByteBuf out = Unpooled.buffer();
            PvaCodec.encode(f.message(), out);
            DatagramContents again = PvaCodec.decodeDatagram(out);
            assertThat(again.frames()).hasSize(1);
            assertThat(again.frames().get(0).message()).isEqualTo(f.message());
        }
    }

    @Provide
    Arbitrary<byte[]> headed() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(120).flatMap(body ->
                Arbitraries.of(0x00, 0x03, 0x04, 0x16, 0x01, 0x09).flatMap(cmd ->
                        Arbitraries.of(0x80, 0x00, 0xC0, 0x40).map(flags -> {
                            byte[] d = new byte[8 + body.length];
                            d[0] = (byte) 0xCA;
                            d[1] = 2;
                            d[2] = (byte) (int) flags;
                            d[3] = (byte) (int) cmd;
                            ByteBuf h = Unpooled.wrappedBuffer(d);
                            if ((flags & 0x80) != 0) {
                                h.setInt(4, body.length);
                            } else {
                                h.setIntLE(4, body.length);
                            }
                            System.arraycopy(body, 0, d, 8, body.length);
                            return d;
                        })));
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        return Arbitraries.of(SEEDS).flatMap(seed ->
                Arbitraries.integers().between(0, seed.length - 1).list().ofMinSize(1).ofMaxSize(6).flatMap(positions ->
                        Arbitraries.bytes().list().ofSize(positions.size()).flatMap(values ->
                                Arbitraries.integers().between(0, seed.length).map(cut -> {
                                    byte[] d = seed.clone();
                                    for (int i = 0; i < positions.size(); i++) {
                                        d[positions.get(i)] = values.get(i);
                                    }
                                    return cut == seed.length ? d : java.util.Arrays.copyOf(d, cut);
                                }))));
    }
}
