package lookout.engine.pva.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The forwarded copy of seed 002 §5 made by patching the received bytes
 * ({@link PvaCodec#forwardedSearch}) is, byte for byte, what encoding the decoded request with
 * its reply address resolved and its Unicast flag cleared, behind an ORIGIN_TAG, gives — in both
 * byte orders, for a search alone or after another message, and with a reply address given or
 * all-zero.
 */
class ForwardedSearchTest {

    private static final InetAddress ORIGIN = address("10.1.2.3");
    private static final InetAddress CLIENT = address("192.168.7.9");

    private static InetAddress address(String a) {
        try {
            return InetAddress.getByName(a);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static void encode(PvaMessage m, boolean bigEndian, ByteBuf out) {
        if (bigEndian) {
            PvaCodec.encode(m, out);
        } else {
            PvaCodec.encodeLittleEndian(m, out);
        }
    }

    private static SearchRequest search(InetAddress reply) {
        return new SearchRequest(0x66696e64, Pva.SEARCH_UNICAST | Pva.SEARCH_MUST_REPLY, reply, 40123,
                List.of("tls", "tcp"), List.of(new SearchRequest.Name(1, "ring:a"),
                        new SearchRequest.Name(0x7fff_fff0, "x".repeat(300)), new SearchRequest.Name(-2, "é:pv")));
    }

    /** The encoder's forwarded copy: ORIGIN_TAG then the request, flag cleared, reply address resolved. */
    private static String encoded(SearchRequest req, InetAddress client, boolean bigEndian) {
        ByteBuf out = Unpooled.buffer();
        encode(new OriginTag(ORIGIN), bigEndian, out);
        encode(req.withFlags(req.flags() & ~Pva.SEARCH_UNICAST).withReply(client, req.replyPort()), bigEndian, out);
        return ByteBufUtil.hexDump(out);
    }

    @ParameterizedTest(name = "big-endian {0}")
    @ValueSource(booleans = {true, false})
    void aPatchedSearchIsTheEncodersForwardedCopy(boolean bigEndian) {
        for (InetAddress reply : new InetAddress[] {WireAddress.ANY_ZERO, WireAddress.ANY_MAPPED, CLIENT}) {
            SearchRequest req = search(reply);
            ByteBuf in = Unpooled.buffer();
            encode(req, bigEndian, in);
            ByteBuf out = Unpooled.buffer();
            assertThat(PvaCodec.forwardedSearch(in, 0, ORIGIN, CLIENT, out)).isTrue();
            assertThat(ByteBufUtil.hexDump(out)).as("reply %s", reply).isEqualTo(encoded(req, CLIENT, bigEndian));
            assertThat(in.readerIndex()).isZero(); // read by index only
            // and it decodes to what the rules expect of a forwarded search
            List<Frame> frames = PvaCodec.decodeDatagram(out).frames();
            assertThat(frames).hasSize(2);
            assertThat(frames.get(0).message()).isEqualTo(new OriginTag(ORIGIN));
            SearchRequest fwd = (SearchRequest) frames.get(1).message();
            assertThat(fwd.unicast()).isFalse();
            assertThat(fwd.mustReply()).isTrue();
            assertThat(fwd.replyAddress()).isEqualTo(CLIENT);
            assertThat(fwd.names()).isEqualTo(req.names());
        }
    }

    @ParameterizedTest(name = "big-endian {0}")
    @ValueSource(booleans = {true, false})
    void aSearchAfterAnotherMessageIsPatchedAtItsOffset(boolean bigEndian) {
        SearchRequest req = search(WireAddress.ANY_ZERO);
        ByteBuf in = Unpooled.buffer();
        in.writeBytes(new byte[] {9, 9, 9}); // not the datagram's: the reader index is where it starts
        in.readerIndex(3);
        encode(new OriginTag(ORIGIN), bigEndian, in);
        int offset = in.writerIndex();
        encode(req, bigEndian, in);
        ByteBuf out = Unpooled.buffer();
        assertThat(PvaCodec.forwardedSearch(in, offset, ORIGIN, CLIENT, out)).isTrue();
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo(encoded(req, CLIENT, bigEndian));
    }

    @Test
    void theCoreAndPvxsVectorsPatchToTheirEncoding() {
        for (String hex : List.of(Vectors.V1_PVXS_SEARCH, Vectors.V3_COREPVA_SEARCH, Vectors.V8_LITTLE_ENDIAN_SEARCH)) {
            ByteBuf in = Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex.replaceAll("\\s", "")));
            List<Frame> frames = PvaCodec.decodeDatagram(in).frames();
            SearchRequest req = (SearchRequest) frames.get(0).message();
            ByteBuf out = Unpooled.buffer();
            assertThat(PvaCodec.forwardedSearch(in, 0, ORIGIN, CLIENT, out)).isTrue();
            SearchRequest fwd = (SearchRequest) PvaCodec.decodeDatagram(out).frames().get(1).message();
            assertThat(fwd).isEqualTo(req.withFlags(req.flags() & ~Pva.SEARCH_UNICAST).withReply(CLIENT, req.replyPort()));
        }
    }

    @Test
    void bytesThatAreNotOneWholeSearchAreNotPatched() {
        ByteBuf in = Unpooled.buffer();
        PvaCodec.encode(search(WireAddress.ANY_ZERO), in);
        ByteBuf out = Unpooled.buffer();
        // cut short
        assertThat(PvaCodec.forwardedSearch(in.copy(0, in.writerIndex() - 1), 0, ORIGIN, CLIENT, out)).isFalse();
        // another command
        ByteBuf tag = Unpooled.buffer();
        PvaCodec.encode(new OriginTag(ORIGIN), tag);
        assertThat(PvaCodec.forwardedSearch(tag, 0, ORIGIN, CLIENT, out)).isFalse();
        // segmented
        ByteBuf seg = in.copy();
        seg.setByte(2, seg.getByte(2) | 0x10);
        assertThat(PvaCodec.forwardedSearch(seg, 0, ORIGIN, CLIENT, out)).isFalse();
        // an offset past the end
        assertThat(PvaCodec.forwardedSearch(in, in.writerIndex(), ORIGIN, CLIENT, out)).isFalse();
        assertThat(out.writerIndex()).isZero();
    }
}
