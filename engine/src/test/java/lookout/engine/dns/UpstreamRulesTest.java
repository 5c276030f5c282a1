package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.config;
import static lookout.engine.dns.ResolverHarness.oneScope;
import static lookout.engine.dns.ResolverHarness.scope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.FakeUpstream.Transport;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** seed 000 §4.6, rule by rule, against fake upstreams on loopback, in virtual time. */
class UpstreamRulesTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration TWO_S = Duration.ofSeconds(2);

    @TempDir
    Path tmp;

    /** How the engine's UDP sockets are opened: as it chooses (natively where it can); a subclass runs Netty's. */
    EngineOptions.UdpReads udpIo() {
        return EngineOptions.UdpReads.AUTO;
    }

    ResolverHarness harness(long seed, ResolverConfig rc) {
        return new ResolverHarness(tmp, seed, rc, java.util.Map.of(), udpIo());
    }

    private static void awaitCount(FakeUpstream u, int n) {
        await().atMost(WAIT).until(() -> u.count() >= n);
        assertThat(u.count()).isEqualTo(n);
    }

    private static Message answer(DnsTestClient c) throws Exception {
        byte[] r = c.receive(10_000);
        assertThat(r).as("an answer").isNotNull();
        return DnsTestClient.decode(r);
    }

    private static final BiFunction<Message, Transport, byte[]> SILENT = (q, t) -> null;

    /**
     * A loopback UDP port nothing listens on, below Linux's ephemeral range (32768+): a port freed
     * from a bind to port 0 could be handed out again to any socket the test opens next — the
     * resolver's own upstream socket among them.
     */
    private static InetSocketAddress closedPortBelowTheEphemeralRange() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        int start = 20_000 + new java.util.Random().nextInt(10_000);
        for (int port = start; port < start + 2_000; port++) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(lo, port))) {
                return new InetSocketAddress(lo, s.getLocalPort());
            } catch (java.net.BindException taken) {
                // try the next one
            }
        }
        throw new IllegalStateException("no free UDP port in " + start + ".." + (start + 2_000));
    }

    @Test
    void twoHealthyServersGetAThenBThenTheFirstInOrder() throws Exception {
        try (FakeUpstream a = new FakeUpstream(SILENT); FakeUpstream b = new FakeUpstream(SILENT);
             ResolverHarness h = harness(1, oneScope(a.address, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(7, "www.example.", RrType.A, false, 0));
            awaitCount(a, 1);
            assertThat(b.count()).isZero();
            h.advance(TWO_S);
            awaitCount(b, 1);
            h.advance(TWO_S);
            // both demoted now: configured order within the demoted group puts A first
            awaitCount(a, 2);
            assertThat(b.count()).isEqualTo(1);
            h.advance(TWO_S);
            Message m = answer(c);
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count() + b.count()).isEqualTo(3);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.upstreamFailed().get("timeout")).isEqualTo(3);
            assertThat(s.demotions()).isEqualTo(3);
            assertThat(s.unavailable()).isEqualTo(1);
            assertThat(s.refused()).isZero();
            assertThat(s.inFlight()).isZero();
        }
    }

    @Test
    void oneServerGetsAllThreeAttempts() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()));
             ResolverHarness h = harness(2, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(7, "www.example.", RrType.A, true, 1232));
            Message m = answer(c);
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count()).isEqualTo(3);
            // client sent EDNS: SERVFAIL carries an OPT record (extended error inside)
            assertThat(m.edns).isTrue();
            // every attempt used its own random ID
            assertThat(a.received.stream().map(FakeUpstream.Received::id).distinct().count()).isGreaterThan(1);
        }
    }

    @Test
    void orderIsRecomputedForEveryAttempt() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()));
             FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = harness(3, oneScope(a.address, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            // question 1: A fails (demoted), B answers
            c.send(DnsTestClient.query(1, "one.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(a.count()).isEqualTo(1);
            assertThat(b.count()).isEqualTo(1);
            assertThat(h.demoted(a.address)).isTrue();
            // question 2: A is behind B now; B times out, then A (not yet asked) fails, then both
            // are demoted and configured order puts A first
            b.behave(SILENT);
            c.send(DnsTestClient.query(2, "two.example.", RrType.A, false, 0));
            awaitCount(b, 2);
            assertThat(a.count()).isEqualTo(1);
            h.advance(TWO_S);
            await().atMost(WAIT).until(() -> a.count() == 3);
            assertThat(b.count()).isEqualTo(2);
            assertThat(answer(c).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.received.get(1).qname()).isEqualTo("two.example.");
            assertThat(a.received.get(2).qname()).isEqualTo("two.example.");
        }
    }

    @Test
    void markRenewedThenClearedByNoerror() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()));
             ResolverHarness h = harness(4, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.behave((q, t) -> a.count() <= 2 ? FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()) : FakeUpstream.a(q, 9));
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            // two demotions counted; one event when the mark began (the renewal is folded into it)
            assertThat(h.snapshot().demotions()).isEqualTo(2);
            List<EngineEvent.UpstreamDemoted> d = h.demotions();
            assertThat(d).hasSize(1);
            assertThat(d.get(0).renewed()).isFalse();
            assertThat(h.demoted(a.address)).isFalse();
            assertThat(h.restorations()).hasSize(1);
            assertThat(h.restorations().get(0).how()).contains("NOERROR");
        }
    }

    @Test
    void markRenewalMovesTheEndForward() throws Exception {
        try (FakeUpstream a = new FakeUpstream(SILENT);
             ResolverHarness h = harness(5, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            awaitCount(a, 1);
            h.advance(TWO_S);
            long first = h.onLoop(() -> h.resolver().marks.remaining(a.address, h.clock.nanoTime()) + h.clock.nanoTime());
            awaitCount(a, 2);
            h.advance(TWO_S);
            long second = h.onLoop(() -> h.resolver().marks.remaining(a.address, h.clock.nanoTime()) + h.clock.nanoTime());
            assertThat(second - first).isEqualTo(TWO_S.toNanos());
            // the renewed mark lasts 30 s from the renewal, not from the first failure
            h.advance(Duration.ofSeconds(29));
            assertThat(h.demoted(a.address)).isTrue();
            h.advance(Duration.ofSeconds(2));
            assertThat(h.demoted(a.address)).isTrue(); // third failure at t=6 renewed it to t=36
            h.advance(Duration.ofSeconds(5));
            assertThat(h.demoted(a.address)).isFalse();
            assertThat(h.restorations()).extracting(EngineEvent.UpstreamRestored::how).contains("mark expired");
        }
    }

    @Test
    void markClearedByNxdomain() throws Exception {
        try (FakeUpstream a = new FakeUpstream(SILENT);
             ResolverHarness h = harness(6, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.behave((q, t) -> a.count() == 1 ? FakeUpstream.reply(q, RrType.REFUSED, false, List.of()) : FakeUpstream.nxdomain(q));
            c.send(DnsTestClient.query(1, "gone.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(h.demotions()).hasSize(1);
            assertThat(h.demoted(a.address)).isFalse();
        }
    }

    @Test
    void markNotClearedByTruncatedReplyButByTheTcpReply() throws Exception {
        CountDownLatch tcpGo = new CountDownLatch(1);
        try (FakeUpstream a = new FakeUpstream(SILENT);
             ResolverHarness h = harness(7, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.behave((q, t) -> {
                if (t == Transport.TCP) {
                    try {
                        tcpGo.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return FakeUpstream.a(q, 3);
                }
                return a.count(Transport.UDP) == 1 ? FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of())
                        : FakeUpstream.reply(q, RrType.NOERROR, true, List.of());
            });
            c.send(DnsTestClient.query(1, "big.example.", RrType.A, false, 0));
            await().atMost(WAIT).until(() -> a.count(Transport.TCP) == 1);
            // the UDP TC reply (NOERROR) came in: the mark must still be there
            assertThat(h.demoted(a.address)).isTrue();
            tcpGo.countDown();
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(h.demoted(a.address)).isFalse();
            assertThat(h.snapshot().upstreamSentTcp()).isEqualTo(1);
        }
    }

    @Test
    void markIsSharedByEveryScopeListingTheAddress() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()));
             FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             FakeUpstream c2 = new FakeUpstream((q, t) -> FakeUpstream.a(q, 3));
             ResolverHarness h = harness(8, config(List.of(
                     scope("corp", List.of("corp.example."), false, a.address, b.address),
                     scope("lan", List.of(), true, a.address, c2.address)), List.of(), List.of()));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "host.corp.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(a.count()).isEqualTo(1);
            // lan lists A first, but A's mark (earned in corp) puts it behind C
            c.send(DnsTestClient.query(2, "www.other.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(a.count()).isEqualTo(1);
            assertThat(c2.count()).isEqualTo(1);
            ResolverSnapshot s = h.snapshot();
            for (ResolverSnapshot.Scope sc : s.scopes()) {
                ResolverSnapshot.Server sa = sc.servers().get(0);
                assertThat(sa.demoted()).as(sc.name()).isTrue();
                assertThat(sa.markLeft()).isPositive();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {RrType.SERVFAIL, RrType.REFUSED, RrType.FORMERR, RrType.NOTIMP, 9, 23})
    void everyFailureRcodeSpendsAnAttemptAndDemotes(int rcode) throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> rcode > 15 ? FakeUpstream.extendedRcode(q, rcode)
                : FakeUpstream.reply(q, rcode, false, List.of()));
             ResolverHarness h = harness(9, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count()).isEqualTo(3);
            assertThat(h.snapshot().upstreamFailed().get("rcode")).isEqualTo(3);
            assertThat(h.snapshot().demotions()).isEqualTo(3);
            assertThat(h.demotions()).hasSize(1); // the renewals are folded into the first event
        }
    }

    @Test
    void timeoutSpendsAnAttemptAndDemotes() throws Exception {
        try (FakeUpstream a = new FakeUpstream(SILENT); FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = harness(10, oneScope(a.address, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            awaitCount(a, 1);
            h.advance(Duration.ofMillis(1999));
            assertThat(b.count()).isZero();
            h.advance(Duration.ofMillis(1));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(h.snapshot().upstreamFailed().get("timeout")).isEqualTo(1);
            assertThat(h.demoted(a.address)).isTrue();
        }
    }

    @Test
    void icmpPortUnreachableFailsAtOnceAndDemotes() throws Exception {
        InetSocketAddress closed = closedPortBelowTheEphemeralRange();
        try (FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = harness(11, oneScope(closed, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            // no clock advance: the refusal is seen at once on the connected socket
            byte[] r = c.receive(10_000);
            assertThat(r).as("an answer; upstream failures %s, UDP sent %d", h.snapshot().upstreamFailed(),
                    h.snapshot().upstreamSentUdp()).isNotNull();
            assertThat(DnsTestClient.decode(r).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(h.snapshot().upstreamFailed().get("udp_receive_error")).isEqualTo(1);
            assertThat(h.demoted(closed)).isTrue();
        }
    }

    @Test
    void tcpRefusedSpendsAnAttemptAndDemotes() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.NOERROR, true, List.of()));
             FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = harness(12, oneScope(a.address, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.closeTcp();
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.upstreamFailed().get("tcp_connect")).as("%s tcpQueriesAtA=%d", s.upstreamFailed(), a.count(FakeUpstream.Transport.TCP)).isEqualTo(1);
            assertThat(s.upstreamSentTcp()).isEqualTo(1);
            assertThat(h.demoted(a.address)).isTrue();
            assertThat(b.count()).isEqualTo(1); // the third attempt
        }
    }

    @Test
    void tcpClosedMidReplySpendsAnAttemptAndDemotes() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> t == Transport.TCP ? FakeUpstream.HALF
                : FakeUpstream.reply(q, RrType.NOERROR, true, List.of()));
             FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             ResolverHarness h = harness(13, oneScope(a.address, b.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(h.snapshot().upstreamFailed().get("tcp_closed")).isEqualTo(1);
            assertThat(h.demoted(a.address)).isTrue();
            assertThat(b.count()).isEqualTo(1);
        }
    }

    @Test
    void tcpRetrySpendsAnAttemptAndHasItsOwnDeadline() throws Exception {
        CountDownLatch udpGo = new CountDownLatch(1);
        try (FakeUpstream a = new FakeUpstream(SILENT);
             ResolverHarness h = harness(15, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.behave((q, t) -> {
                if (t == Transport.TCP) {
                    return null;
                }
                try {
                    udpGo.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return FakeUpstream.reply(q, RrType.NOERROR, true, List.of());
            });
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            awaitCount(a, 1);
            h.advance(Duration.ofMillis(1500));
            udpGo.countDown(); // TC arrives at t = 1.5 s: TCP starts then, deadline t = 3.5 s
            await().atMost(WAIT).until(() -> a.count(Transport.TCP) == 1);
            h.advance(Duration.ofMillis(1900)); // t = 3.4 s: past the UDP deadline, not the TCP one
            assertThat(h.snapshot().upstreamFailed().get("timeout")).isZero();
            h.advance(Duration.ofMillis(100)); // t = 3.5 s
            assertThat(h.snapshot().upstreamFailed().get("timeout")).isEqualTo(1);
            // the third attempt is UDP again; it gets TC on the final attempt: unavailable, no TCP
            assertThat(answer(c).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count(Transport.UDP)).isEqualTo(2);
            assertThat(a.count(Transport.TCP)).isEqualTo(1);
        }
    }

    @Test
    void truncatedReplyOnTheFinalAttemptIsUnavailable() throws Exception {
        try (FakeUpstream a = new FakeUpstream(SILENT);
             ResolverHarness h = harness(16, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            a.behave((q, t) -> a.count() <= 2 ? FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of())
                    : FakeUpstream.reply(q, RrType.NOERROR, true, List.of()));
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.SERVFAIL);
            assertThat(a.count(Transport.UDP)).isEqualTo(3);
            assertThat(a.count(Transport.TCP)).isZero();
            assertThat(h.snapshot().upstreamSentTcp()).isZero();
        }
    }

    @Test
    void everySearchCandidateIsAskedAndNxdomainIsFree() throws Exception {
        List<String> search = List.of("a.test.", "b.test.", "c.test.", "d.test.", "e.test.");
        try (FakeUpstream a = new FakeUpstream((q, t) -> q.qname.endsWith("e.test.") ? FakeUpstream.a(q, 5)
                : FakeUpstream.nxdomain(q));
             ResolverHarness h = harness(17, config(List.of(scope("lan", List.of(), true, a.address)),
                     List.of(), search));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "host.", RrType.A, false, 0));
            Message m = answer(c);
            assertThat(m.rcode()).isEqualTo(RrType.NOERROR);
            assertThat(a.received).extracting(FakeUpstream.Received::qname)
                    .containsExactly("host.a.test.", "host.b.test.", "host.c.test.", "host.d.test.", "host.e.test.");
            assertThat(m.answer.get(0).type()).isEqualTo(RrType.CNAME);
            assertThat(m.answer.get(0).name()).isEqualTo("host.");
            assertThat(Message.nameAt(m.answer.get(0).rdata(), 0)).isEqualTo("host.e.test.");
            assertThat(m.answer.get(1).type()).isEqualTo(RrType.A);
            assertThat(h.snapshot().upstreamFailed().values().stream().mapToLong(Long::longValue).sum()).isZero();

            // all NXDOMAIN: NXDOMAIN, every candidate asked (more than three transactions)
            a.behave((q, t) -> FakeUpstream.nxdomain(q));
            c.send(DnsTestClient.query(2, "nothere.", RrType.A, false, 0));
            Message n = answer(c);
            assertThat(n.rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(a.received.stream().filter(r -> r.qname().startsWith("nothere.")).count()).isEqualTo(5);
        }
    }

    @Test
    void noServersIsUnavailableAtOnceAndNotRefused() throws Exception {
        try (ResolverHarness h = harness(18, config(List.of(scope("lan", List.of(), true)),
                List.of(), List.of()));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, true, 1232));
            Message m = answer(c);
            assertThat(m.rcode()).isEqualTo(RrType.SERVFAIL);
            ResolverSnapshot s = h.snapshot();
            assertThat(s.unavailable()).isEqualTo(1);
            assertThat(s.refused()).isZero();
            assertThat(s.upstreamSentUdp()).isZero();
        }
    }

    @Test
    void unavailableIsNotCached() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of()));
             ResolverHarness h = harness(19, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.SERVFAIL);
            a.behave((q, t) -> FakeUpstream.a(q, 4));
            c.send(DnsTestClient.query(2, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NOERROR);
            assertThat(a.count()).isEqualTo(4);
            assertThat(h.snapshot().cacheEntries()).isEqualTo(1);
        }
    }

    @Test
    void cacheHitsSpendNothingAndTtlsCountDown() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.a(q, 4));
             ResolverHarness h = harness(20, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).answer.get(0).ttl()).isEqualTo(300);
            h.advance(Duration.ofSeconds(100));
            c.send(DnsTestClient.query(2, "X.Example.", RrType.A, false, 0));
            byte[] raw = c.receive(10_000);
            Message m = DnsTestClient.decode(raw);
            assertThat(m.answer.get(0).ttl()).isEqualTo(200);
            assertThat(m.id).isEqualTo(2);
            // the question comes back as the client spelled it (0x20)
            assertThat(new String(raw, 13, 1, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("X");
            assertThat(new String(raw, 15, 7, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("Example");
            assertThat(a.count()).isEqualTo(1);
            h.advance(Duration.ofSeconds(200));
            c.send(DnsTestClient.query(3, "x.example.", RrType.A, false, 0));
            assertThat(answer(c).answer.get(0).ttl()).isEqualTo(300);
            assertThat(a.count()).isEqualTo(2);
            assertThat(h.snapshot().cacheHits()).isEqualTo(1);
        }
    }

    @Test
    void negativeAnswersAreCachedForTheSoaMinimum() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> FakeUpstream.nxdomain(q));
             ResolverHarness h = harness(21, oneScope(a.address));
             DnsTestClient c = new DnsTestClient(h.listen)) {
            c.send(DnsTestClient.query(1, "gone.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NXDOMAIN);
            h.advance(Duration.ofSeconds(59));
            c.send(DnsTestClient.query(2, "gone.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(a.count()).isEqualTo(1);
            h.advance(Duration.ofSeconds(1)); // RFC 2308: min(SOA TTL 300, MINIMUM 60) = 60 s
            c.send(DnsTestClient.query(3, "gone.example.", RrType.A, false, 0));
            assertThat(answer(c).rcode()).isEqualTo(RrType.NXDOMAIN);
            assertThat(a.count()).isEqualTo(2);
        }
    }
}
