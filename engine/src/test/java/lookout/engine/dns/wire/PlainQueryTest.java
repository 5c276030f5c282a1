package lookout.engine.dns.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The fast path's reader: it takes the usual query shape and declines everything else, and
 * whatever it takes, the general decoder reads the same way (name, type, EDNS) — so the fast path
 * can never answer a question the resolver would have read differently.
 */
public class PlainQueryTest {

    /** A query: ID 0x1234, RD, one question, EDNS with payload 1232 and DO when asked. */
    public static byte[] query(String name, int type, boolean edns, boolean dnssecOk) {
        byte[] n = Names.toWire(name);
        byte[] q = new byte[12 + n.length + 4 + (edns ? 11 : 0)];
        q[0] = 0x12;
        q[1] = 0x34;
        q[2] = 0x01;
        q[5] = 1;
        q[11] = (byte) (edns ? 1 : 0);
        System.arraycopy(n, 0, q, 12, n.length);
        int p = 12 + n.length;
        Encoded.put16(q, p, type);
        Encoded.put16(q, p + 2, RrType.IN);
        if (edns) {
            Encoded.put16(q, p + 5, RrType.OPT);
            Encoded.put16(q, p + 7, 1232);
            q[p + 11] = (byte) (dnssecOk ? 0x80 : 0);
        }
        return q;
    }

    static boolean read(PlainQuery r, byte[] q) {
        if (q.length > PlainQuery.MAX_LENGTH) {
            return false;
        }
        System.arraycopy(q, 0, r.raw, 0, q.length);
        r.length = q.length;
        return r.read();
    }

    @Test
    void readsTheUsualQueryAndLowerCasesItsName() {
        PlainQuery r = new PlainQuery();
        assertThat(read(r, query("WwW.Example.COM.", RrType.AAAA, true, true))).isTrue();
        assertThat(new String(r.name, 0, r.nameLength, StandardCharsets.US_ASCII)).isEqualTo("\3www\7example\3com");
        assertThat(r.id).isEqualTo(0x1234);
        assertThat(r.qtype).isEqualTo(RrType.AAAA);
        assertThat(r.questionLength).isEqualTo(17 + 4);
        assertThat(r.edns).isTrue();
        assertThat(r.ednsDo).isTrue();
        assertThat(r.maxSize()).isEqualTo(1232);
        assertThat(read(r, query("www.example.com.", RrType.A, false, false))).isTrue();
        assertThat(r.edns).isFalse();
        assertThat(r.maxSize()).isEqualTo(512);
        // the same question in another case: the same key
        PlainQuery other = new PlainQuery();
        read(other, query("WWW.EXAMPLE.COM.", RrType.A, true, false));
        assertThat(other.hash).isEqualTo(r.hash);
        assertThat(Arrays.equals(other.name, 0, other.nameLength, r.name, 0, r.nameLength)).isTrue();
    }

    /** The name as a string is the one the general decoder reads: the cache's key for it. */
    @Test
    void itsNameReadsAsTheDecodedQuerysName() throws WireException {
        PlainQuery r = new PlainQuery();
        for (String name : new String[]{"WwW.Example.COM.", "a.", "x-1.y_2.z.", ".", "c999.bench.test."}) {
            byte[] q = query(name, RrType.A, false, false);
            assertThat(read(r, q)).as(name).isTrue();
            assertThat(r.qname()).as(name).isEqualTo(ClientQuery.decode(q, q.length, false).qname);
        }
    }

    @Test
    void declinesEveryOtherShape() {
        PlainQuery r = new PlainQuery();
        byte[] base = query("www.example.com.", RrType.A, true, false);
        assertThat(read(r, base)).isTrue();
        int optAt = base.length - 11;
        byte[][] others = {
            with(base, 2, (byte) 0x81), // QR: a response
            with(base, 2, (byte) 0x29), // opcode UPDATE
            with(base, 5, (byte) 2), // two questions
            with(base, 7, (byte) 1), // an answer record
            with(base, 11, (byte) 2), // two additional records
            with(base, optAt + 6, (byte) 1), // EDNS version 1 (BADVERS)
            with(base, optAt + 2, (byte) 1), // not OPT
            with(base, base.length - 12, (byte) 3), // class CH
            with(base, 12, (byte) 0xC0), // a compression pointer
            with(base, 13, (byte) '.'), // a byte escaped in presentation form
            with(base, 14, (byte) 0x7F),
            Arrays.copyOf(base, base.length + 1), // trailing byte
            Arrays.copyOf(base, base.length - 1), // cut short
            Arrays.copyOf(base, 16),
        };
        for (byte[] q : others) {
            assertThat(read(r, q)).as(Arrays.toString(q)).isFalse();
        }
        // an OPT whose rdata length disagrees with the message
        byte[] bad = base.clone();
        Encoded.put16(bad, optAt + 9, 4);
        assertThat(read(r, bad)).isFalse();
    }

    private static byte[] with(byte[] q, int at, byte v) {
        byte[] c = q.clone();
        c[at] = v;
        return c;
    }

    /** Whatever the reader takes, the general decoder takes too and reads alike. */
    @Property(tries = 4000)
    void whatItReadsTheDecoderReadsAlike(@ForAll("mutated") byte[] q) {
        PlainQuery r = new PlainQuery();
        if (!read(r, q)) {
            return;
        }
        ClientQuery c;
        try {
            c = ClientQuery.decode(q, q.length, false);
        } catch (WireException e) {
            throw new AssertionError("the reader took what the decoder refuses: " + e.getMessage());
        }
        assertThat(c).isNotNull();
        assertThat(c.opcode()).isZero();
        assertThat(c.qclass).isEqualTo(RrType.IN);
        assertThat(c.qtype).isEqualTo(r.qtype);
        assertThat(c.id).isEqualTo(r.id);
        assertThat(c.questionLength).isEqualTo(r.questionLength);
        assertThat(c.edns).isEqualTo(r.edns);
        if (c.edns) {
            assertThat(c.ednsVersion).isZero();
            assertThat(c.ednsDo).isEqualTo(r.ednsDo);
            assertThat(c.ednsUdpSize).isEqualTo(r.ednsUdpSize);
        }
        assertThat(Names.toWire(c.qname)).containsExactly(Arrays.copyOf(r.name, r.nameLength + 1));
    }

    @Property(tries = 2000)
    void randomBytesAreDeclinedOrReadWithoutThrowing(@ForAll @Size(max = 80) byte[] q) {
        PlainQuery r = new PlainQuery();
        if (read(r, q)) { // and never throws
            assertThat(12 + r.questionLength).isLessThanOrEqualTo(q.length);
            assertThat(r.nameLength).isLessThan(255);
            assertThat(r.questionLength).isEqualTo(r.nameLength + 1 + 4);
        }
    }

    @Provide
    Arbitrary<byte[]> mutated() {
        String[] names = {"www.example.com.", "A.b-c_d.Example.", ".", "x.", "Long-Label-" + "q".repeat(50) + ".test."};
        return Arbitraries.integers().between(0, names.length * 4 - 1).flatMap(k -> {
            byte[] base = query(names[k / 4], k % 2 == 0 ? RrType.A : RrType.ANY, (k & 2) != 0, k % 3 == 0);
            return Arbitraries.integers().between(0, base.length - 1).list().ofMaxSize(3)
                    .flatMap(at -> Arbitraries.bytes().list().ofSize(at.size()).map(vals -> {
                        byte[] c = base.clone();
                        for (int i = 0; i < at.size(); i++) {
                            c[at.get(i)] = vals.get(i);
                        }
                        return c;
                    }));
        });
    }
}
