package lookout.engine.dns.listen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lookout.engine.dns.wire.PlainQuery;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The listeners' memo of questions, keyed by the wire bytes of a query's question as
 * {@link PlainQuery} reads them: the lower-cased name and the type (RFC 4343: names compare without
 * regard to case), nothing else of the query. Queries here are real wire bytes.
 */
public class QuestionMemoTest {

    private static final int A = 1;
    private static final int AAAA = 28;
    private static final int MX = 15;

    /**
     * A query as a stub resolver sends it: header (ID, RD, one question), the name as uncompressed
     * labels, type, class IN, and with {@code udpSize > 0} an EDNS(0) OPT record (RFC 6891 §6.1.2).
     */
    public static byte[] query(int id, String name, int type, int udpSize, boolean dnssecOk) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(id >> 8);
        b.write(id);
        b.write(0x01); // RD
        b.write(0x00);
        b.writeBytes(new byte[] {0, 1, 0, 0, 0, 0, 0, (byte) (udpSize > 0 ? 1 : 0)});
        for (String label : name.split("\\.")) {
            if (!label.isEmpty()) {
                byte[] l = label.getBytes(StandardCharsets.US_ASCII);
                b.write(l.length);
                b.writeBytes(l);
            }
        }
        b.write(0);
        b.writeBytes(new byte[] {(byte) (type >> 8), (byte) type, 0, 1});
        if (udpSize > 0) {
            b.writeBytes(new byte[] {0, 0, 41, (byte) (udpSize >> 8), (byte) udpSize, 0, 0,
                    (byte) (dnssecOk ? 0x80 : 0), 0, 0, 0});
        }
        return b.toByteArray();
    }

    /** Reads {@code wire} into {@code q} as a listener does (the bytes copied into its buffer). */
    static PlainQuery read(PlainQuery q, byte[] wire) {
        System.arraycopy(wire, 0, q.raw, 0, wire.length);
        q.length = wire.length;
        assertThat(q.read()).as("the usual query shape").isTrue();
        return q;
    }

    static PlainQuery read(byte[] wire) {
        return read(new PlainQuery(), wire);
    }

    static PlainQuery question(String name, int type) {
        return read(query(0x1234, name, type, 0, false));
    }

    private final QuestionMemo<String> memo = new QuestionMemo<>();

    @Test
    void aQuestionKeptIsFoundAgainFromAnotherQueryForIt() {
        // dig www.example.com A: ID 0xbeef, RD, EDNS(0) with 1232 bytes
        byte[] fixed = {
            (byte) 0xbe, (byte) 0xef, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
            0x03, 'w', 'w', 'w', 0x07, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0x03, 'c', 'o', 'm', 0x00,
            0x00, 0x01, 0x00, 0x01,
            0x00, 0x00, 0x29, 0x04, (byte) 0xd0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        };
        memo.put(read(fixed), "www A");

        assertThat(memo.get(question("www.example.com.", A))).isEqualTo("www A");
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void nothingIsFoundForAQuestionNeverKept() {
        assertThat(memo.get(question("www.example.com.", A))).isNull();
        memo.put(question("www.example.com.", A), "www A");
        assertThat(memo.get(question("mail.example.com.", A))).isNull();
    }

    @Test
    void theSameNameInAnotherCaseIsTheSameQuestion() {
        memo.put(question("WwW.ExAmPlE.CoM.", A), "www A");

        assertThat(memo.get(question("www.example.com.", A))).isEqualTo("www A");
        assertThat(memo.get(question("WWW.EXAMPLE.COM.", A))).isEqualTo("www A");
    }

    @Test
    void onlyTheQuestionIsTheKeyNotTheIdFlagsOrEdns() {
        memo.put(read(query(1, "www.example.com.", A, 0, false)), "www A");

        assertThat(memo.get(read(query(0xffff, "www.example.com.", A, 0, false)))).isEqualTo("www A");
        assertThat(memo.get(read(query(2, "www.example.com.", A, 4096, true)))).isEqualTo("www A");
        assertThat(memo.get(read(query(3, "www.example.com.", A, 512, false)))).isEqualTo("www A");
    }

    @Test
    void anotherTypeIsAnotherQuestion() {
        memo.put(question("www.example.com.", A), "www A");
        memo.put(question("www.example.com.", AAAA), "www AAAA");

        assertThat(memo.get(question("www.example.com.", A))).isEqualTo("www A");
        assertThat(memo.get(question("www.example.com.", AAAA))).isEqualTo("www AAAA");
        assertThat(memo.get(question("www.example.com.", MX))).isNull();
        assertThat(memo.size()).isEqualTo(2);
    }

    @Test
    void aNameIsComparedWholeNotAsAPrefixOrSuffix() {
        memo.put(question("www.example.com.", A), "www A");

        assertThat(memo.get(question("www.example.co.", A))).isNull();
        assertThat(memo.get(question("www.example.com.au.", A))).isNull();
        assertThat(memo.get(question("example.com.", A))).isNull();
        assertThat(memo.get(question("wwww.example.com.", A))).isNull();
    }

    @Test
    void namesWithTheSameHashAreToldApartByTheirBytes() {
        // 31 * 'a' + '~' == 31 * 'b' + '_': the reader's hash cannot tell these names apart
        PlainQuery one = question("a~.example.", A);
        PlainQuery other = question("b_.example.", A);
        assertThat(one.hash).isEqualTo(other.hash);

        memo.put(one, "one");
        memo.put(other, "other");

        assertThat(memo.get(question("a~.example.", A))).isEqualTo("one");
        assertThat(memo.get(question("b_.example.", A))).isEqualTo("other");
        assertThat(memo.size()).isEqualTo(2);
    }

    @Test
    void keepingAQuestionAgainReplacesItsValue() {
        memo.put(question("www.example.com.", A), "first");
        memo.put(question("WWW.example.com.", A), "second");

        assertThat(memo.get(question("www.example.com.", A))).isEqualTo("second");
        assertThat(memo.size()).isEqualTo(1);
    }

    @Test
    void whatIsKeptDoesNotChangeWhenTheListenerReusesItsQuery() {
        // one PlainQuery per socket, overwritten by every datagram: the memo must copy the name
        PlainQuery reused = new PlainQuery();
        memo.put(read(reused, query(1, "first.example.", A, 0, false)), "first");
        read(reused, query(2, "other.example.", A, 0, false));

        assertThat(memo.get(reused)).isNull();
        assertThat(memo.get(read(reused, query(3, "first.example.", A, 0, false)))).isEqualTo("first");
    }

    @Test
    void itEmptiesItselfWhenHalfFullSoRandomNamesCannotGrowIt() {
        int half = QuestionMemo.CAPACITY / 2;
        for (int i = 0; i < half; i++) {
            memo.put(question("n" + i + ".example.", A), "v" + i);
        }
        assertThat(memo.size()).isEqualTo(half);
        for (int i = 0; i < half; i++) {
            assertThat(memo.get(question("n" + i + ".example.", A))).isEqualTo("v" + i);
        }

        memo.put(question("one-more.example.", A), "newest");

        assertThat(memo.size()).isEqualTo(1);
        assertThat(memo.get(question("one-more.example.", A))).isEqualTo("newest");
        assertThat(memo.get(question("n0.example.", A))).isNull();
        assertThat(memo.get(question("n" + (half - 1) + ".example.", A))).isNull();
    }

    @Test
    void clearForgetsEveryQuestion() {
        memo.put(question("www.example.com.", A), "www A");
        memo.clear();

        assertThat(memo.size()).isZero();
        assertThat(memo.get(question("www.example.com.", A))).isNull();
        memo.clear();
        assertThat(memo.size()).isZero();
    }

    // ------------------------------------------------------------------ properties

    record Step(boolean put, String name, int type, int value) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        // few labels and letters of both cases, so that names repeat, differ only in case, and collide
        Arbitrary<String> label = Arbitraries.strings().withChars("aAbB0-_~").ofMinLength(1).ofMaxLength(3);
        Arbitrary<String> name = label.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(".", l) + ".");
        return Combinators.combine(Arbitraries.of(true, false), name, Arbitraries.of(A, AAAA, MX),
                Arbitraries.integers().between(0, 1000)).as(Step::new).list().ofMaxSize(80);
    }

    /** Below the clearing point, the memo is a map from (lower-cased name, type) to the last value kept. */
    @Property(tries = 300)
    void itIsAMapFromTheLowerCasedNameAndTypeToTheLastValueKept(@ForAll("steps") List<Step> steps) {
        QuestionMemo<Integer> m = new QuestionMemo<>();
        Map<String, Integer> model = new HashMap<>();
        for (Step s : steps) {
            PlainQuery q = question(s.name(), s.type());
            String key = s.name().toLowerCase(Locale.ROOT) + "/" + s.type();
            if (s.put()) {
                m.put(q, s.value());
                model.put(key, s.value());
            } else {
                assertThat(m.get(q)).as("%s", key).isEqualTo(model.get(key));
            }
            assertThat(m.size()).isEqualTo(model.size());
        }
    }
}
