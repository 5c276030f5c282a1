package lookout.engine.dns.listen;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Arrays;
import lookout.engine.dns.listen.Admission.Verdict;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The admission table: one check for the listeners' fast path and the engine loop. Each row is a
 * client message, whether its client is allowed, and the verdict; a local question may be answered
 * where it was read only when it is an acceptable query of class IN that the caller holds.
 */
class AdmissionTest {

    private static final java.util.function.Predicate<ClientQuery> HELD = q -> true;

    /** A message of the kind {@code kind} names, from the usual query. */
    static byte[] message(String kind) {
        byte[] q = Wire.query(0x1234, "www.example.com.", RrType.A, false, 0);
        switch (kind) {
            case "query" -> { }
            case "edns" -> q = Wire.query(0x1234, "www.example.com.", RrType.A, true, 1232);
            case "edns-version-1" -> {
                q = Wire.query(0x1234, "www.example.com.", RrType.A, true, 1232);
                q[q.length - 5] = 1; // the OPT TTL's version byte
            }
            case "class-ch" -> q[q.length - 1] = 3;
            case "opcode-status" -> q[2] |= (byte) (2 << 3);
            case "opcode-notify" -> q[2] |= (byte) (4 << 3);
            case "type-any" -> q = Wire.query(0x1234, "www.example.com.", RrType.ANY, false, 0);
            case "type-axfr" -> q = Wire.query(0x1234, "www.example.com.", 252, false, 0);
            case "type-opt" -> q = Wire.query(0x1234, "www.example.com.", RrType.OPT, false, 0);
            case "type-128" -> q = Wire.query(0x1234, "www.example.com.", 128, false, 0);
            case "type-127" -> q = Wire.query(0x1234, "www.example.com.", 127, false, 0);
            case "response" -> q[2] |= (byte) 0x80;
            case "short" -> q = Arrays.copyOf(q, 11);
            case "empty" -> q = new byte[0];
            case "two-questions" -> q[5] = 2;
            case "cut-question" -> q = Arrays.copyOf(q, q.length - 2);
            case "trailing-bytes" -> q = Arrays.copyOf(q, q.length + 3);
            case "pointer-loop" -> {
                q = Arrays.copyOf(q, 12 + 2 + 4);
                q[12] = (byte) 0xC0;
                q[13] = 12; // a pointer to itself
                q[15] = 1;
                q[17] = 1;
            }
            default -> throw new IllegalArgumentException(kind);
        }
        return q;
    }

    @ParameterizedTest(name = "{0}, allowed {1} -> {2}")
    @CsvSource({
        "query,          true,  RESOLVE",
        "edns,           true,  RESOLVE",
        "class-ch,       true,  RESOLVE",
        "type-any,       true,  RESOLVE",
        "type-127,       true,  RESOLVE",
        "edns-version-1, true,  BAD_VERSION",
        "opcode-status,  true,  NOT_IMPLEMENTED",
        "opcode-notify,  true,  NOT_IMPLEMENTED",
        "type-axfr,      true,  NOT_IMPLEMENTED",
        "type-opt,       true,  NOT_IMPLEMENTED",
        "type-128,       true,  NOT_IMPLEMENTED",
        "response,       true,  DROP_MALFORMED",
        "short,          true,  DROP_MALFORMED",
        "empty,          true,  DROP_MALFORMED",
        "two-questions,  true,  FORMERR",
        "cut-question,   true,  FORMERR",
        "trailing-bytes, true,  FORMERR",
        "pointer-loop,   true,  FORMERR",
        "query,          false, REFUSE",
        "opcode-status,  false, REFUSE",
        "edns-version-1, false, REFUSE",
        "response,       false, DROP_DENIED",
        "short,          false, DROP_DENIED",
        "cut-question,   false, DROP_DENIED",
    })
    void theVerdictOnEachKindOfMessage(String kind, boolean allowed, Verdict expected) {
        byte[] m = message(kind);
        Admission.Decision d = Admission.judge(m, m.length, allowed, false, null);
        assertThat(d.verdict()).isEqualTo(expected);
        // whatever could be decoded is handed on with the verdict, so nobody decodes it again
        boolean decoded = expected != Verdict.FORMERR && expected != Verdict.DROP_MALFORMED && expected != Verdict.DROP_DENIED;
        assertThat(d.query() != null).isEqualTo(decoded);
        if (decoded) {
            // judged again from the decoded query (the engine loop's path for a handed one): the same verdict
            assertThat(Admission.judge(d.query(), allowed, null).verdict()).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "query,          ANSWER_HERE",
        "edns,           ANSWER_HERE",
        "type-any,       ANSWER_HERE",
        "class-ch,       RESOLVE",
        "edns-version-1, BAD_VERSION",
        "opcode-status,  NOT_IMPLEMENTED",
        "type-axfr,      NOT_IMPLEMENTED",
    })
    void onlyAnAcceptableQueryOfClassInMayBeAnsweredWhereItWasRead(String kind, Verdict expected) {
        byte[] m = message(kind);
        assertThat(Admission.judge(m, m.length, true, false, HELD).verdict()).isEqualTo(expected);
        // a name the caller does not hold goes to the resolver
        if (expected == Verdict.ANSWER_HERE) {
            assertThat(Admission.judge(m, m.length, true, false, q -> false).verdict()).isEqualTo(Verdict.RESOLVE);
        }
    }

    @Test
    void aClientOutsideTheListIsRefusedBeforeAnythingElseIsLookedAt() {
        byte[] m = message("query");
        assertThat(Admission.judge(m, m.length, false, false, HELD).verdict()).isEqualTo(Verdict.REFUSE);
    }

    @Test
    void theAllowListTakesAddressesInsideItsPrefixesOnly() throws Exception {
        assertThat(Admission.allows(Wire.loopbackOnly(), InetAddress.getByName("127.1.2.3"))).isTrue();
        assertThat(Admission.allows(Wire.loopbackOnly(), InetAddress.getByName("::1"))).isTrue();
        assertThat(Admission.allows(Wire.loopbackOnly(), InetAddress.getByName("192.0.2.1"))).isFalse();
        assertThat(Admission.allows(Wire.loopbackOnly(), InetAddress.getByName("::2"))).isFalse();
        assertThat(Admission.allows(Wire.loopbackOnly(), null)).isFalse();
        assertThat(Admission.allows(java.util.List.of(), InetAddress.getByName("127.0.0.1"))).isFalse();
    }

    @Test
    void metaTypesAreOptAnd128To254() {
        assertThat(Admission.isMeta(RrType.OPT)).isTrue();
        assertThat(Admission.isMeta(128)).isTrue();
        assertThat(Admission.isMeta(254)).isTrue();
        assertThat(Admission.isMeta(RrType.ANY)).isFalse();
        assertThat(Admission.isMeta(127)).isFalse();
        assertThat(Admission.isMeta(RrType.A)).isFalse();
    }
}
