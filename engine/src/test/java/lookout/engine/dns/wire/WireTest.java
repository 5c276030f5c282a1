package lookout.engine.dns.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fixed wire bytes, hostile ones included (compression loops, overruns). */
class WireTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    private static Message decode(byte[] b) throws WireException {
        Message m = Message.decodeHeaderAndQuestion(b, b.length);
        Message.decodeRecords(b, b.length, m);
        return m;
    }

    // header: id 0x1234, QR RD RA, 1 question, 1 answer
    private static final String HEADER_1AN = "1234 8180 0001 0001 0000 0000";
    private static final String Q_WWW_EXAMPLE = "03777777 076578616d706c65 00 0001 0001";

    @Test
    void decodesACompressedAnswer() throws Exception {
        Message m = decode(hex(HEADER_1AN + Q_WWW_EXAMPLE + "c00c 0001 0001 0000012c 0004 c0000201"));
        assertThat(m.id).isEqualTo(0x1234);
        assertThat(m.qname).isEqualTo("www.example.");
        assertThat(m.answer).singleElement().satisfies(r -> {
            assertThat(r.name()).isEqualTo("www.example.");
            assertThat(r.ttl()).isEqualTo(300);
            assertThat(r.rdata()).containsExactly(192, 0, 2, 1);
        });
    }

    @Test
    void cnameRdataIsStoredDecompressed() throws Exception {
        // CNAME www.example. -> web.example. where "example." is a pointer to offset 16
        Message m = decode(hex(HEADER_1AN + Q_WWW_EXAMPLE + "c00c 0005 0001 0000012c 0006 03776562 c010"));
        assertThat(Message.nameAt(m.answer.get(0).rdata(), 0)).isEqualTo("web.example.");
        assertThat(m.answer.get(0).rdata()).hasSize(13);
    }

    @Test
    void rejectsACompressionLoop() {
        // the answer's owner points at itself
        byte[] b = hex(HEADER_1AN + Q_WWW_EXAMPLE + "c021 0001 0001 0000012c 0004 c0000201");
        assertThatThrownBy(() -> decode(b)).isInstanceOf(WireException.class).hasMessageContaining("pointer");
    }

    @Test
    void rejectsAForwardPointerInTheQuestion() {
        byte[] b = hex("1234 0100 0001 0000 0000 0000 c00e 0001 0001 00");
        assertThatThrownBy(() -> Message.decodeHeaderAndQuestion(b, b.length)).isInstanceOf(WireException.class);
    }

    @Test
    void rejectsRecordDataRunningPastTheEnd() {
        byte[] b = hex(HEADER_1AN + Q_WWW_EXAMPLE + "c00c 0001 0001 0000012c 0028 c0000201");
        assertThatThrownBy(() -> decode(b)).isInstanceOf(WireException.class).hasMessageContaining("past the end");
    }

    @Test
    void rejectsTrailingBytesAndCountsThatLie() {
        assertThatThrownBy(() -> decode(hex(HEADER_1AN + Q_WWW_EXAMPLE + "c00c 0001 0001 0000012c 0004 c0000201 00")))
                .isInstanceOf(WireException.class);
        assertThatThrownBy(() -> decode(hex(HEADER_1AN + Q_WWW_EXAMPLE)))
                .isInstanceOf(WireException.class);
    }

    @Test
    void rejectsALabelOver63AndANameOver255() {
        StringBuilder tooLong = new StringBuilder("1234 0100 0001 0000 0000 0000 40");
        tooLong.append("61".repeat(64)).append(" 00 0001 0001");
        assertThatThrownBy(() -> Message.decodeHeaderAndQuestion(hex(tooLong.toString()), hex(tooLong.toString()).length))
                .isInstanceOf(WireException.class);
        StringBuilder name = new StringBuilder("1234 0100 0001 0000 0000 0000");
        for (int i = 0; i < 5; i++) {
            name.append(" 3f").append("61".repeat(63));
        }
        name.append(" 00 0001 0001");
        byte[] b = hex(name.toString());
        assertThatThrownBy(() -> Message.decodeHeaderAndQuestion(b, b.length)).isInstanceOf(WireException.class)
                .hasMessageContaining("255");
    }

    @Test
    void extendedRcodeComesFromTheOptRecord() throws Exception {
        // rcode low bits 7, OPT ext rcode 1 -> 23 (BADCOOKIE)
        Message m = decode(hex("1234 8187 0001 0000 0000 0001" + Q_WWW_EXAMPLE + "00 0029 04d0 01000000 0000"));
        assertThat(m.rcode()).isEqualTo(23);
        assertThat(m.edns).isTrue();
        assertThat(m.ednsUdpSize).isEqualTo(1232);
    }

    @Test
    void encodeCompressesOwnersAndRoundTrips() throws Exception {
        Rr a1 = new Rr("www.example.", RrType.A, RrType.IN, 60, new byte[]{1, 2, 3, 4});
        Rr a2 = new Rr("www.example.", RrType.A, RrType.IN, 60, new byte[]{5, 6, 7, 8});
        Encoded e = Encoded.encode(Message.QR | Message.RA, 0, "www.example.", RrType.A, RrType.IN,
                List.of(a1, a2), List.of(), List.of());
        // header 12 + question 17 + two records of 2 (pointer) + 10 + 4
        assertThat(e.wire()).hasSize(12 + 17 + 2 * 16);
        Message m = decode(e.wire());
        assertThat(m.answer).extracting(Rr::name).containsOnly("www.example.");
        assertThat(e.ttlOffsets()).hasSize(2);
        assertThat(Message.u32(e.wire(), e.ttlOffsets()[1])).isEqualTo(60);
    }

    @Test
    void ownersOtherThanTheQuestionAreCompressedAgainstItsSuffixes() throws Exception {
        // the question is written plainly; later names still point into it (suffix table built late)
        Rr c = new Rr("www.example.", RrType.CNAME, RrType.IN, 60, Names.toWire("web.example."));
        Rr a = new Rr("web.example.", RrType.A, RrType.IN, 30, new byte[]{1, 2, 3, 4});
        Rr soa = new Rr("example.", RrType.NS, RrType.IN, 90, Names.toWire("ns.example."));
        Rr esc = new Rr("a\\.b.example.", RrType.A, RrType.IN, 10, new byte[]{5, 6, 7, 8});
        Encoded e = Encoded.encode(Message.QR, 0, "www.example.", RrType.A, RrType.IN,
                List.of(c, a, esc), List.of(soa), List.of());
        Message m = decode(e.wire());
        assertThat(m.answer).extracting(Rr::name).containsExactly("www.example.", "web.example.", "a\\.b.example.");
        assertThat(m.authority).extracting(Rr::name).containsExactly("example.");
        // "example." at the authority is a pointer to offset 12 + 4 (inside the question)
        int nsOwner = e.ttlOffsets()[3] - 4 - 2;
        assertThat(Message.u16(e.wire(), nsOwner)).isEqualTo(0xC000 | 16);
        for (int i = 0; i < 4; i++) {
            assertThat(Message.u32(e.wire(), e.ttlOffsets()[i])).isEqualTo(List.of(60L, 30L, 10L, 90L).get(i));
        }
    }

    @Test
    void addressAnswersEncodeAsTheGeneralEncoderWould() throws Exception {
        List<java.net.InetAddress> ips = List.of(java.net.InetAddress.getByName("192.0.2.7"),
                java.net.InetAddress.getByName("2001:db8::1"), java.net.InetAddress.getByName("192.0.2.9"));
        for (String q : List.of("cdn.example.com.", "x.", "a\\.b.example.")) {
            List<Rr> rrs = ips.stream().map(ip -> new Rr(q, ip.getAddress().length == 4 ? RrType.A : RrType.AAAA,
                    RrType.IN, 77, ip.getAddress())).toList();
            int flags = Message.QR | Message.RA | Message.AA;
            Encoded general = Encoded.encode(flags, 0, q, RrType.ANY, RrType.IN, rrs, List.of(), List.of());
            Encoded fast = Encoded.addresses(flags, q, RrType.ANY, RrType.IN, 77, ips);
            assertThat(fast.wire()).as(q).isEqualTo(general.wire());
            assertThat(fast.ttlOffsets()).as(q).isEqualTo(general.ttlOffsets());
            assertThat(decode(fast.wire()).answer).extracting(Rr::type)
                    .containsExactly(RrType.A, RrType.AAAA, RrType.A);
        }
    }

    @Test
    void namesKeepEscapesAndCompareCaseInsensitively() throws Exception {
        byte[] b = hex("1234 0100 0001 0000 0000 0000 03 412e42 07 4558414d504c45 00 0001 0001");
        Message m = Message.decodeHeaderAndQuestion(b, b.length);
        assertThat(m.qname).isEqualTo("a\\.b.example.");
        assertThat(Names.toWire(m.qname)).hasSize(13);
        assertThat(Names.isAtOrBelow("a\\.b.example.", "example.")).isTrue();
        // one label "a.example" under the root: not below example.
        assertThat(Names.isAtOrBelow("a\\.example.", "example.")).isFalse();
        assertThat(Names.isAtOrBelow("xexample.", "example.")).isFalse();
        assertThat(Names.parent("a\\.b.example.")).isEqualTo("example.");
    }

    @Test
    void responsesAreCutToTheClientsSizeWithTc() throws Exception {
        ClientQuery q = ClientQuery.decode(hex("4321 0100 0001 0000 0000 0000" + Q_WWW_EXAMPLE), 29, false);
        List<Rr> many = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(new Rr("www.example.", RrType.A, RrType.IN, 60, new byte[]{10, 0, 0, (byte) i}));
        }
        Encoded e = Encoded.encode(Message.QR | Message.RA, 0, "www.example.", RrType.A, RrType.IN, many, List.of(), List.of());
        byte[] r = Responses.stamp(e, q, 0, -1, null);
        assertThat(r.length).isLessThanOrEqualTo(512);
        Message m = decode(r);
        assertThat(m.truncated()).isTrue();
        assertThat(m.id).isEqualTo(0x4321);
        assertThat(m.answer).isEmpty();
    }
}
