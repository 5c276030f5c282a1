package lookout.engine.pva.wire;

import static lookout.engine.pva.wire.Vectors.buf;
import static lookout.engine.pva.wire.Vectors.bytes;
import static lookout.engine.pva.wire.Vectors.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PvaCodecTest {

    static final Guid GUID2 = Guid.parse("6BF84E92A93C78A9A9656A98");
    static final Guid GUID5 = Guid.parse("52BC2F00ED6901311033EC3D");

    static Stream<String> allVectors() {
        return Stream.of(Vectors.V1_PVXS_SEARCH, Vectors.V2_PVXS_SEARCH_RESPONSE, Vectors.V3_COREPVA_SEARCH,
                Vectors.V4_DISCOVERY_PING, Vectors.V5_COREPVA_DISCOVERY_REPLY, Vectors.V6_BEACON,
                Vectors.V7_ORIGIN_TAG_SEARCH, Vectors.V8_LITTLE_ENDIAN_SEARCH);
    }

    private static List<Frame> frames(String hex) {
        DatagramContents c = PvaCodec.decodeDatagram(buf(hex));
        assertThat(c.dropReason()).isNull();
        return c.frames();
    }

    private static PvaMessage only(String hex) {
        List<Frame> f = frames(hex);
        assertThat(f).hasSize(1);
        return f.get(0).message();
    }

    private static String encode(PvaMessage... ms) {
        ByteBuf out = Unpooled.buffer();
        for (PvaMessage m : ms) {
            PvaCodec.encode(m, out);
        }
        return hex(out);
    }

    private static String norm(String hex) {
        return hex.replace(" ", "").toUpperCase();
    }

    @Test
    void vector1PvxsSearch() throws Exception {
        SearchRequest s = (SearchRequest) only(Vectors.V1_PVXS_SEARCH);
        assertThat(s.sequenceId()).isEqualTo(Pva.SEARCH_SEQUENCE_FIND);
        assertThat(s.unicast()).isTrue();
        assertThat(s.mustReply()).isFalse();
        assertThat(WireAddress.isAny(s.replyAddress())).isTrue();
        assertThat(s.replyAddress()).isEqualTo(WireAddress.ANY_ZERO);
        assertThat(s.replyPort()).isEqualTo(54700);
        assertThat(s.protocols()).containsExactly("tcp");
        assertThat(s.names()).containsExactly(new SearchRequest.Name(0x12345678, "testpv1"),
                new SearchRequest.Name(0x12345678, "testpv1"));
        assertThat(encode(s)).isEqualTo(norm(Vectors.V1_PVXS_SEARCH));
    }

    @Test
    void theCommonFieldsDecodeToSharedValuesAndTheRestAsSent() throws Exception {
        // "any" and ["tcp"] are what nearly every search carries: decoded without objects made for
        // them, so two decodes give the same ones; anything else decodes as it was sent
        SearchRequest a = (SearchRequest) only(Vectors.V1_PVXS_SEARCH);
        SearchRequest b = (SearchRequest) only(Vectors.V1_PVXS_SEARCH);
        assertThat(a.replyAddress()).isSameAs(b.replyAddress()).isSameAs(WireAddress.ANY_ZERO);
        assertThat(a.protocols()).isSameAs(b.protocols());
        InetAddress mapped = InetAddress.getByName("192.0.2.7");
        for (List<String> protocols : List.of(List.of("tcp", "tls"), List.of("tcpx"), List.of("tc"), List.of("tls"),
                List.of("tcp"), List.<String>of())) {
            for (InetAddress reply : List.of(WireAddress.ANY_MAPPED, WireAddress.ANY_ZERO, mapped,
                    InetAddress.getByName("2001:db8::7"), InetAddress.getByName("::ffff:0.0.0.1"))) {
                SearchRequest sent = new SearchRequest(7, Pva.SEARCH_UNICAST, reply, 5076, protocols,
                        List.of(new SearchRequest.Name(1, "a:b")));
                SearchRequest got = (SearchRequest) only(encode(sent));
                assertThat(got).isEqualTo(sent);
                assertThat(got.protocols()).containsExactlyElementsOf(protocols);
                assertThat(encode(got)).isEqualTo(encode(sent));
            }
        }
        assertThat(((SearchRequest) only(encode(new SearchRequest(7, 0, WireAddress.ANY_MAPPED, 5076, List.of("tcp"),
                List.of())))).replyAddress()).isSameAs(WireAddress.ANY_MAPPED);
    }

    @Test
    void vector1FromTheDatagramBuilder() {
        SearchDatagramBuilder b = new SearchDatagramBuilder(54700);
        ByteBuf out = Unpooled.buffer();
        b.start(out);
        assertThat(b.tryAdd(0x12345678, "testpv1".getBytes())).isTrue();
        assertThat(b.tryAdd(0x12345678, "testpv1".getBytes())).isTrue();
        b.finish();
        SearchDatagramBuilder.setUnicast(out, 0, true);
        assertThat(hex(out)).isEqualTo(norm(Vectors.V1_PVXS_SEARCH));
        SearchDatagramBuilder.setUnicast(out, 0, false);
        assertThat(out.getByte(12)).isEqualTo((byte) 0);
    }

    @Test
    void vector2FromCidsInAnArray() throws Exception {
        // the responder builds replies from int arrays (SearchResponse.cids): same bytes, an equal record
        SearchResponse r = (SearchResponse) frames(Vectors.V2_PVXS_SEARCH_RESPONSE).get(0).message();
        int[] ids = {0x12345678, 0x12345678};
        SearchResponse fromArray = new SearchResponse(r.guid(), r.sequenceId(), r.serverAddress(), r.serverPort(),
                r.protocol(), r.found(), SearchResponse.cids(ids));
        ids[0] = 7; // the list holds a copy
        assertThat(fromArray).isEqualTo(r);
        assertThat(fromArray.hashCode()).isEqualTo(r.hashCode());
        assertThat(encode(fromArray)).isEqualTo(norm(Vectors.V2_PVXS_SEARCH_RESPONSE));
        assertThatThrownBy(() -> fromArray.cids().set(0, 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void vector2PvxsSearchResponse() throws Exception {
        Frame f = frames(Vectors.V2_PVXS_SEARCH_RESPONSE).get(0);
        assertThat(f.header().fromServer()).isTrue();
        assertThat(f.header().bigEndian()).isTrue();
        SearchResponse r = (SearchResponse) f.message();
        assertThat(r.guid()).isEqualTo(GUID2);
        assertThat(r.guid().toString()).isEqualTo("6bf84e92a93c78a9a9656a98");
        assertThat(r.sequenceId()).isEqualTo(Pva.SEARCH_SEQUENCE_FIND);
        assertThat(r.serverAddress()).isEqualTo(WireAddress.ANY_MAPPED);
        assertThat(WireAddress.isAny(r.serverAddress())).isTrue();
        assertThat(r.serverPort()).isEqualTo(45643);
        assertThat(r.protocol()).isEqualTo("tcp");
        assertThat(r.found()).isTrue();
        assertThat(r.cids()).containsExactly(0x12345678, 0x12345678);
        assertThat(r.discoveryReply()).isFalse();
        assertThat(encode(r)).isEqualTo(norm(Vectors.V2_PVXS_SEARCH_RESPONSE));
    }

    @Test
    void vector3CorePvaSearch() {
        SearchRequest s = (SearchRequest) only(Vectors.V3_COREPVA_SEARCH);
        assertThat(s.sequenceId()).isEqualTo(2);
        assertThat(s.unicast()).isTrue();
        assertThat(s.replyAddress()).isEqualTo(WireAddress.ANY_MAPPED);
        assertThat(s.replyPort()).isEqualTo(0xD622);
        assertThat(s.names()).containsExactly(new SearchRequest.Name(2, "harness:pv:0"));
        assertThat(encode(s)).isEqualTo(norm(Vectors.V3_COREPVA_SEARCH));
    }

    @Test
    void vector4DiscoveryPing() {
        SearchRequest s = (SearchRequest) only(Vectors.V4_DISCOVERY_PING);
        assertThat(s.discoveryPing()).isTrue();
        assertThat(s.replyPort()).isEqualTo(15077);
        assertThat(s).isEqualTo(SearchRequest.discoveryPing(15077));
        assertThat(encode(SearchRequest.discoveryPing(15077))).isEqualTo(norm(Vectors.V4_DISCOVERY_PING));
    }

    @Test
    void vector5CorePvaDiscoveryReply() {
        SearchResponse r = (SearchResponse) only(Vectors.V5_COREPVA_DISCOVERY_REPLY);
        assertThat(r.guid()).isEqualTo(GUID5);
        assertThat(r.sequenceId()).isZero();
        assertThat(r.serverPort()).isEqualTo(15075);
        assertThat(r.found()).isFalse();
        assertThat(r.discoveryReply()).isTrue();
        assertThat(encode(r)).isEqualTo(norm(Vectors.V5_COREPVA_DISCOVERY_REPLY));
    }

    @Test
    void vector6Beacon() {
        Beacon b = (Beacon) only(Vectors.V6_BEACON);
        assertThat(b).isEqualTo(new Beacon(GUID5, 0, 0, 3, WireAddress.ANY_MAPPED, 15075, "tcp"));
        assertThat(encode(b)).isEqualTo(norm(Vectors.V6_BEACON));
    }

    @Test
    void vector7OriginTagThenSearch() throws Exception {
        List<Frame> f = frames(Vectors.V7_ORIGIN_TAG_SEARCH);
        assertThat(f).hasSize(2);
        OriginTag tag = (OriginTag) f.get(0).message();
        assertThat(tag.origin()).isEqualTo(InetAddress.getByName("10.0.0.5"));
        SearchRequest s = (SearchRequest) f.get(1).message();
        assertThat(s.unicast()).isFalse();
        assertThat(s.replyAddress()).isEqualTo(InetAddress.getByName("10.0.0.7"));
        assertThat(s.replyPort()).isEqualTo(54700);
        assertThat(s.names()).containsExactly(new SearchRequest.Name(1, "demo:pv"));
        assertThat(encode(tag, s)).isEqualTo(norm(Vectors.V7_ORIGIN_TAG_SEARCH));
    }

    @Test
    void vector8LittleEndianSearch() {
        Frame f = frames(Vectors.V8_LITTLE_ENDIAN_SEARCH).get(0);
        assertThat(f.header().bigEndian()).isFalse();
        assertThat(f.header().payloadLength()).isEqualTo(45);
        SearchRequest s = (SearchRequest) f.message();
        assertThat(s.sequenceId()).isEqualTo(Pva.SEARCH_SEQUENCE_FIND);
        assertThat(s.replyPort()).isEqualTo(54700);
        assertThat(s.names()).containsExactly(new SearchRequest.Name(1, "demo:pv"));
        // our little-endian form of the same message is byte-identical to the capture
        ByteBuf le = Unpooled.buffer();
        PvaCodec.encodeLittleEndian(s, le);
        assertThat(hex(le)).isEqualTo(norm(Vectors.V8_LITTLE_ENDIAN_SEARCH));
        // and we answer big-endian
        assertThat(encode(s).substring(4, 6)).isEqualTo("80");
    }

    /** Every vector, re-sent little-endian by a peer, decodes to the same messages. */
    @ParameterizedTest
    @MethodSource("allVectors")
    void everyVectorInBothByteOrders(String hex) {
        List<Frame> be = frames(hex);
        ByteBuf le = Unpooled.buffer();
        ByteBuf be2 = Unpooled.buffer();
        for (Frame f : be) {
            PvaCodec.encodeLittleEndian(f.message(), le);
            PvaCodec.encode(f.message(), be2);
        }
        List<Frame> fromLe = frames(hex(le));
        List<Frame> fromBe = frames(hex(be2));
        assertThat(fromLe).hasSameSizeAs(be);
        for (int i = 0; i < be.size(); i++) {
            assertThat(fromLe.get(i).header().bigEndian()).isFalse();
            assertThat(fromBe.get(i).header().bigEndian()).isTrue();
            assertThat(fromLe.get(i).message()).isEqualTo(be.get(i).message());
            assertThat(fromBe.get(i).message()).isEqualTo(be.get(i).message());
            assertThat(fromLe.get(i).header().payloadLength()).isEqualTo(be.get(i).header().payloadLength());
        }
        // the little-endian length field really is little-endian (unless the body is empty)
        if (be.get(0).header().payloadLength() > 0) {
            assertThat(le.getIntLE(4)).isEqualTo((int) be.get(0).header().payloadLength());
            assertThat(le.getInt(4)).isNotEqualTo((int) be.get(0).header().payloadLength());
        }
    }

    /** Every proper prefix of every vector is a counted drop, never a partial message or a throw. */
    @ParameterizedTest
    @MethodSource("allVectors")
    void everyTruncationIsADrop(String hex) {
        byte[] all = bytes(hex);
        for (int n = 0; n < all.length; n++) {
            ByteBuf b = Unpooled.wrappedBuffer(all, 0, n);
            DatagramContents c = PvaCodec.decodeDatagram(b);
            // a prefix that ends exactly at a message boundary of vector 7 is a valid ORIGIN_TAG alone
            if (c.dropped()) {
                assertThat(c.frames()).isEmpty();
            } else {
                assertThat(n).isEqualTo(24);
            }
            assertThat(b.readerIndex()).isZero();
        }
    }

    @Test
    void inconsistentInputIsDropped() {
        // control bit over UDP
        byte[] ctl = bytes(Vectors.V6_BEACON);
        ctl[2] |= Pva.FLAG_CONTROL;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(ctl)).dropReason()).contains("control");
        // segmentation bits over UDP
        byte[] seg = bytes(Vectors.V6_BEACON);
        seg[2] |= 0x10;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(seg)).dropped()).isTrue();
        // version 0
        byte[] v0 = bytes(Vectors.V6_BEACON);
        v0[1] = 0;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(v0)).dropReason()).contains("version");
        // bad magic
        byte[] mg = bytes(Vectors.V6_BEACON);
        mg[0] = (byte) 0xCB;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(mg)).dropReason()).contains("magic");
        // length larger than the datagram
        byte[] ln = bytes(Vectors.V1_PVXS_SEARCH);
        ln[7] = (byte) 0x3A;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(ln)).dropReason()).contains("truncated");
        // name count larger than the body can hold
        byte[] cnt = bytes(Vectors.V1_PVXS_SEARCH);
        cnt[39] = (byte) 0xFF;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(cnt)).dropped()).isTrue();
        // a 0xFE Size announcing 4 GiB
        byte[] big = bytes(Vectors.V1_PVXS_SEARCH);
        big[34] = (byte) 0xFE;
        assertThat(PvaCodec.decodeDatagram(Unpooled.wrappedBuffer(big)).dropped()).isTrue();
        // empty
        assertThat(PvaCodec.decodeDatagram(Unpooled.EMPTY_BUFFER).dropped()).isTrue();
    }

    @Test
    void longNamesUseTheFiveByteSize() {
        String name = "x".repeat(300);
        SearchRequest s = new SearchRequest(7, 0, WireAddress.ANY_ZERO, 1, List.of("tcp"),
                List.of(new SearchRequest.Name(9, name)));
        ByteBuf out = Unpooled.buffer();
        PvaCodec.encode(s, out);
        assertThat((int) out.getUnsignedByte(45)).isEqualTo(0xFE);
        assertThat(out.getInt(46)).isEqualTo(300);
        assertThat(only(hex(out))).isEqualTo(s);
        // a null Size (0xFF) reads as an empty string
        byte[] nul = bytes(Vectors.V6_BEACON);
        nul[42] = (byte) 0xFF;
        byte[] cut = java.util.Arrays.copyOf(nul, 43);
        cut[7] = (byte) (43 - 8);
        assertThat(((Beacon) only(hex(Unpooled.wrappedBuffer(cut)))).protocol()).isEmpty();
    }

    @Test
    void tcpHandshakeMessages() {
        ByteBuf out = Unpooled.buffer();
        PvaCodec.encode(new SetByteOrder(true), out);
        PvaCodec.encode(ServerValidation.standard(), out);
        PvaCodec.encode(ClientValidation.anonymous(), out);
        PvaCodec.encode(ConnectionValidated.OK, out);
        PvaCodec.encode(new ConnectionValidated(2, "denied"), out);
        // SET_BYTE_ORDER: control | server | BE, code 2, no body
        assertThat(hex(out.slice(0, 8))).isEqualTo("CA02C10200000000");
        // CONNECTION_VALIDATION from a server, as PVXS sends it
        assertThat(hex(out.slice(8, 8 + 6 + 1 + 10 + 3))).isEqualTo(
                "CA02C00100000014" + "00010000" + "7FFF" + "02" + "09616E6F6E796D6F7573" + "026361");
        int pos = 0;
        List<PvaMessage> got = new java.util.ArrayList<>();
        while (pos < out.writerIndex()) {
            long len = PvaCodec.frameLength(out, pos);
            assertThat(len).isPositive();
            Decoded d = PvaCodec.decodeFrame(out.slice(pos, (int) len));
            got.add(((Decoded.Ok) d).frame().message());
            pos += (int) len;
        }
        assertThat(got).containsExactly(new SetByteOrder(true), ServerValidation.standard(),
                ClientValidation.anonymous(), ConnectionValidated.OK, new ConnectionValidated(2, "denied"));
        assertThat(ConnectionValidated.OK.ok()).isTrue();
        assertThat(new ConnectionValidated(2, "denied").ok()).isFalse();
        // an incomplete frame asks for more; garbage is unusable
        assertThat(PvaCodec.frameLength(out, out.writerIndex() - 3)).isEqualTo(-1);
        assertThat(PvaCodec.frameLength(Unpooled.wrappedBuffer(new byte[8]), 0)).isEqualTo(-2);
    }

    @Test
    void capacityPerDatagram() {
        // seed 002 §3.3: 54 names at L=20, 38 at L=30, 30 at L=40
        assertThat(Pva.namesPerDatagram(20)).isEqualTo(54);
        assertThat(Pva.namesPerDatagram(30)).isEqualTo(38);
        assertThat(Pva.namesPerDatagram(40)).isEqualTo(30);
        for (int l : new int[] {20, 30, 40}) {
            SearchDatagramBuilder b = new SearchDatagramBuilder(5076);
            assertThat(b.fixedLength()).isEqualTo(Pva.SEARCH_FIXED_TCP);
            ByteBuf out = Unpooled.buffer();
            b.start(out);
            byte[] name = "n".repeat(l).getBytes();
            int n = 0;
            while (n < 10_000 && b.tryAdd(n, name)) {
                n++;
            }
            b.finish();
            assertThat(n).isEqualTo(Pva.namesPerDatagram(l));
            assertThat(out.readableBytes()).isLessThanOrEqualTo(Pva.MAX_SEARCH_DATAGRAM);
        }
    }

    @Test
    void overLongNameGoesAloneAndHugeNameDoesNotFit() {
        SearchDatagramBuilder b = new SearchDatagramBuilder(5076);
        ByteBuf out = Unpooled.buffer();
        b.start(out);
        assertThat(b.tryAdd(1, "a".repeat(2000).getBytes())).isTrue();
        assertThat(b.tryAdd(2, "b".getBytes())).isFalse();
        b.finish();
        assertThat(out.readableBytes()).isGreaterThan(Pva.MAX_SEARCH_DATAGRAM);
        assertThat(b.fitsBuffer(2000)).isTrue();
        assertThat(b.fitsBuffer(70_000)).isFalse();
    }
}
