package lookout.engine.dns;

import static lookout.engine.dns.ResolverHarness.config;
import static lookout.engine.dns.ResolverHarness.scope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import lookout.engine.api.ResolveTrace;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC live reload: in-flight questions, marks, the cache and the listeners across apply(). */
class ReloadTest {

    @TempDir
    Path tmp;

    @Test
    void reloadKeepsWhatSpecSaysSurvives() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> q.qname.startsWith("bad.")
                ? FakeUpstream.reply(q, RrType.SERVFAIL, false, List.of())
                : q.qname.startsWith("slow.") ? null : FakeUpstream.a(q, 1));
             FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2));
             FakeUpstream c2 = new FakeUpstream((q, t) -> FakeUpstream.a(q, 3))) {
            ResolverConfig before = config(List.of(scope("corp", List.of("corp.example."), false, a.address),
                    scope("lan", List.of(), true, b.address)), List.of(), List.of());
            try (ResolverHarness h = new ResolverHarness(tmp, 90, before);
                 DnsTestClient c = new DnsTestClient(h.listen)) {
                assertThat(c.ask("ok.corp.example.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
                assertThat(c.ask("www.other.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
                assertThat(c.ask("bad.corp.example.", RrType.A).rcode()).isEqualTo(RrType.SERVFAIL);
                assertThat(h.demoted(a.address)).isTrue();
                c.send(DnsTestClient.query(5, "slow.corp.example.", RrType.A, false, 0));
                await().atMost(Duration.ofSeconds(10)).until(() -> a.received.stream().anyMatch(r -> r.qname().startsWith("slow.")));

                // corp gains C; lan and the listen address are unchanged
                ResolverConfig after = config(List.of(scope("corp", List.of("corp.example."), false, a.address, c2.address),
                        scope("lan", List.of(), true, b.address)), List.of(), List.of());
                h.engine.apply(ResolverHarness.config(tmp, after, Map.of()));
                assertThat(h.service.boundAddresses()).containsExactly(h.listen);
                assertThat(h.demoted(a.address)).as("mark stays with a still-configured address").isTrue();

                // the question in flight finishes on the servers it started with: A only.
                // Virtual time decides when each attempt starts (checked on the loop's own counters,
                // which the loop updates before advance() returns); only the packet's arrival at A
                // is real I/O and is awaited (bounded). Advancing before the previous attempt had
                // reached A, or asserting A's count before the packets arrived, made this flaky.
                long sent = h.snapshot().upstreamSentUdp();
                for (int n = 2; n <= 3; n++) {
                    h.advance(Duration.ofMillis(1999));
                    assertThat(h.snapshot().upstreamSentUdp()).as("no attempt %d before the 2-s deadline", n).isEqualTo(sent);
                    h.advance(Duration.ofMillis(1));
                    assertThat(h.snapshot().upstreamSentUdp()).as("attempt %d sent at the deadline", n).isEqualTo(++sent);
                    int expected = n;
                    await().atMost(Duration.ofSeconds(10)).until(() ->
                            a.received.stream().filter(r -> r.qname().startsWith("slow.")).count() == expected);
                }
                long unavailable = h.snapshot().unavailable();
                h.advance(Duration.ofMillis(1999));
                assertThat(h.snapshot().unavailable()).as("still in flight before the third deadline").isEqualTo(unavailable);
                h.advance(Duration.ofMillis(1));
                assertThat(h.snapshot().unavailable()).isEqualTo(unavailable + 1);
                assertThat(h.snapshot().upstreamSentUdp()).as("no fourth attempt").isEqualTo(sent);
                Message slow = DnsTestClient.decode(c.receive(10_000));
                assertThat(slow.rcode()).isEqualTo(RrType.SERVFAIL);
                assertThat(a.received.stream().filter(r -> r.qname().startsWith("slow.")).count()).isEqualTo(3);
                assertThat(c2.count()).isZero();

                // the cache: names whose routing changed are gone, the rest survive
                int bBefore = b.count();
                assertThat(c.ask("www.other.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
                assertThat(b.count()).isEqualTo(bBefore);
                Message ok = c.ask("ok.corp.example.", RrType.A);
                assertThat(ok.rcode()).isEqualTo(RrType.NOERROR);
                // re-asked upstream under the new routing: C first (A is still demoted)
                assertThat(c2.count()).isEqualTo(1);

                // A removed: its mark goes with it
                ResolverConfig third = config(List.of(scope("corp", List.of("corp.example."), false, c2.address),
                        scope("lan", List.of(), true, b.address)), List.of(), List.of());
                h.engine.apply(ResolverHarness.config(tmp, third, Map.of()));
                assertThat(h.onLoop(() -> h.resolver().marks.isDemoted(a.address, h.clock.nanoTime()))).as("its mark went with it").isFalse();
            }
        }
    }

    @Test
    void listenersRebindWhenListenChanges() throws Exception {
        try (FakeUpstream b = new FakeUpstream((q, t) -> FakeUpstream.a(q, 2))) {
            ResolverConfig before = ResolverHarness.oneScope(b.address);
            try (ResolverHarness h = new ResolverHarness(tmp, 91, before)) {
                ResolverConfig after = new ResolverConfig(List.of(new java.net.InetSocketAddress("127.0.0.2", 0)),
                        before.allow(), before.scopes(), before.fallbackServers(), before.search(), before.cacheSize());
                h.engine.apply(ResolverHarness.config(tmp, after, Map.of()));
                List<java.net.InetSocketAddress> now = h.service.boundAddresses();
                assertThat(now).hasSize(1);
                assertThat(now.get(0).getAddress().getHostAddress()).isEqualTo("127.0.0.2");
                try (DnsTestClient c = new DnsTestClient(now.get(0))) {
                    assertThat(c.ask("x.example.", RrType.A).rcode()).isEqualTo(RrType.NOERROR);
                }
            }
        }
    }

    @Test
    void theResolveCommandReturnsATrace() throws Exception {
        try (FakeUpstream a = new FakeUpstream((q, t) -> q.qname.startsWith("host.a.")
                ? FakeUpstream.nxdomain(q) : FakeUpstream.a(q, 8));
             ResolverHarness h = new ResolverHarness(tmp, 92, config(List.of(scope("lan", List.of(), true, a.address)),
                     List.of(), List.of("a.test.", "b.test.")))) {
            ResolveTrace t = h.engine.resolve("host", "A").get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(t.candidates()).containsExactly("host.a.test.", "host.b.test.");
            assertThat(t.attempts()).extracting(ResolveTrace.Attempt::result).containsExactly("NXDOMAIN", "NOERROR");
            assertThat(t.attempts().get(0).spent()).isFalse();
            assertThat(t.attempts()).extracting(ResolveTrace.Attempt::transport).containsOnly("udp");
            assertThat(t.rcode()).isEqualTo("NOERROR");
            assertThat(t.source()).isEqualTo("upstream");
            assertThat(t.answer()).containsExactly("host. 300 CNAME host.b.test.", "host.b.test. 300 A 192.0.2.8");
            // asked again: from the cache, no attempt
            ResolveTrace again = h.engine.resolve("host.b.test", "A").get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(again.source()).isEqualTo("cache");
            assertThat(again.attempts()).isEmpty();
            assertThat(h.snapshot().recentTraces()).isNotEmpty();
            assertThat(h.snapshot().upstreams()).singleElement().satisfies(u -> {
                assertThat(u.replies()).isEqualTo(2);
                assertThat(u.latencyP99()).isGreaterThanOrEqualTo(u.latencyP50());
            });
        }
    }
}
