package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.oneScope;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import lookout.engine.dns.wire.WireException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Bad input: random and mutated query packets sent to the listener. Nothing escapes a handler,
 * each packet gets an answer (FORMERR for a broken query) or is dropped and counted, and the
 * listener keeps answering.
 */
class BadInputTest {

    private static FakeUpstream upstream;
    private static ResolverHarness h;
    private static DnsTestClient client;
    private static Path tmp;

    @BeforeContainer
    static void start() throws IOException {
        tmp = Files.createTempDirectory("lookout-dns-fuzz");
        upstream = new FakeUpstream((q, t) -> FakeUpstream.a(q, 1));
        h = new ResolverHarness(tmp, 70, oneScope(upstream.address));
        client = new DnsTestClient(h.listen);
    }

    @AfterContainer
    static void stop() throws IOException {
        client.close();
        h.close();
        upstream.close();
    }

    @Provide
    Arbitrary<byte[]> mutatedQueries() {
        Arbitrary<byte[]> valid = Combinators.combine(
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(20).list().ofMinSize(1).ofMaxSize(4),
                Arbitraries.of(RrType.A, RrType.AAAA, RrType.TXT, RrType.MX, 65),
                Arbitraries.of(true, false))
                .as((labels, type, edns) -> DnsTestClient.query(1, String.join(".", labels) + ".", type, edns, 1232));
        return Combinators.combine(valid, Arbitraries.integers().between(0, 1_000_000).list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.of("flip", "truncate", "extend", "counts"))
                .as((q, rnd, how) -> {
                    byte[] b = q.clone();
                    switch (how) {
                        case "flip" -> {
                            for (int r : rnd) {
                                b[r % b.length] ^= (byte) (1 << (r % 8));
                            }
                        }
                        case "truncate" -> b = java.util.Arrays.copyOf(b, rnd.get(0) % b.length);
                        case "extend" -> {
                            b = java.util.Arrays.copyOf(b, b.length + rnd.size());
                            for (int i = 0; i < rnd.size(); i++) {
                                b[q.length + i] = (byte) rnd.get(i).intValue();
                            }
                        }
                        default -> {
                            // header counts that do not match the body
                            b[4 + 2 * (rnd.get(0) % 4)] = (byte) rnd.get(0).intValue();
                            b[5 + 2 * (rnd.get(0) % 4)] = (byte) (rnd.get(0) >>> 8);
                        }
                    }
                    return b;
                });
    }

    @Provide
    Arbitrary<byte[]> randomPackets() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(600);
    }

    private void sendAndCheck(byte[] packet) throws Exception {
        // A socket of its own per try: a late answer to the previous try (forwarded upstream on a
        // loaded machine) must not be read as this try's answer.
        try (DnsTestClient client = new DnsTestClient(h.listen)) {
            sendAndCheck(client, packet);
        }
    }

    private void sendAndCheck(DnsTestClient client, byte[] packet) throws Exception {
        long before = h.onLoop(() -> h.service.malformed());
        client.send(packet);
        byte[] reply = null;
        long after = before;
        // bounded: at most 250 polls of 20 ms
        for (int i = 0; i < 250 && reply == null; i++) {
            reply = client.receive(20);
            after = h.onLoop(() -> h.service.malformed());
            if (reply == null && (after > before || packet.length == 0)) {
                reply = client.receive(50); // a FORMERR may follow the count
                after = h.onLoop(() -> h.service.malformed());
                break;
            }
        }
        if (reply == null) {
            // dropped: must be counted (an empty datagram may be swallowed by the stack: nothing to count)
            if (packet.length > 0) {
                assertThat(after).as("a dropped packet is counted").isGreaterThan(before);
            }
        } else {
            Message m = Message.decodeHeaderAndQuestion(reply, reply.length);
            assertThat(m.isResponse()).isTrue();
            if (after > before) {
                assertThat(m.rcode()).isEqualTo(RrType.FORMERR);
            }
        }
        assertThat(h.onLoop(() -> h.service.internalErrors())).isZero();
    }

    @Property(tries = 150)
    void mutatedQueriesAreAnsweredOrCounted(@ForAll("mutatedQueries") byte[] packet) throws Exception {
        sendAndCheck(packet);
    }

    @Property(tries = 150)
    void randomPacketsAreAnsweredOrCounted(@ForAll("randomPackets") byte[] packet) throws Exception {
        sendAndCheck(packet);
    }

    @Property(tries = 3000)
    void theCodecThrowsNothingButWireException(@ForAll("randomPackets") byte[] packet) {
        try {
            ClientQuery.decode(packet, packet.length, false);
        } catch (WireException e) {
            // expected for junk
        }
        try {
            Message m = Message.decodeHeaderAndQuestion(packet, packet.length);
            Message.decodeRecords(packet, packet.length, m);
        } catch (WireException e) {
            // expected for junk
        }
    }

    @Property(tries = 3)
    void theListenerStillAnswersAfterwards(@ForAll("mutatedQueries") byte[] ignored) throws Exception {
        Message m = client.ask("still.alive.example.", RrType.A);
        assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
        assertThat(m.answer).hasSize(1);
        assertThat(List.of(h.snapshot().queries())).allSatisfy(q -> assertThat(q).isPositive());
    }
}
