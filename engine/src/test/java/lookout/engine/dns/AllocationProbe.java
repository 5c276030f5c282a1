package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.EngineEvent;
import lookout.engine.config.ResolverConfig;
import lookout.engine.dns.upstream.UpstreamSockets;
import lookout.engine.dns.wire.ClientQuery;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;
import lookout.engine.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;

/** Not a test: bytes allocated and time per forwarded question on the engine loop, sockets left out. */
class AllocationProbe {

    static final class Echo implements UpstreamSockets {
        UpstreamSockets.Listener last;
        byte[] query;
        InetSocketAddress server;

        @Override
        public Handle udp(InetSocketAddress server, byte[] query, Listener listener) {
            this.last = listener;
            this.query = query;
            this.server = server;
            return () -> { };
        }

        @Override
        public Handle tcp(InetSocketAddress server, byte[] query, Listener listener) {
            return udp(server, query, listener);
        }
    }

    static byte[] nsdReply(byte[] query) throws Exception {
        Message q = Message.decodeHeaderAndQuestion(query, query.length);
        Message.decodeRecords(query, query.length, q);
        List<Rr> an = List.of(new Rr(q.qname, RrType.A, RrType.IN, 3600, new byte[]{(byte) 192, 0, 2, 1}));
        List<Rr> ns = List.of(new Rr("bench.test.", RrType.NS, RrType.IN, 3600, Names.toWire("ns.bench.test.")));
        List<Rr> ar = List.of(new Rr("ns.bench.test.", RrType.A, RrType.IN, 3600, new byte[]{127, 0, 0, 1}));
        byte[] w = FakeUpstream.reply(q, RrType.NOERROR, false, an, ns);
        // with the glue and an OPT record, as NSD answers
        lookout.engine.dns.wire.Encoded e = lookout.engine.dns.wire.Encoded.encode(Message.QR | Message.AA, 0, q.qname,
                q.qtype, q.qclass, an, ns, ar);
        byte[] out = java.util.Arrays.copyOf(e.wire(), e.wire().length + 11);
        out[0] = (byte) (q.id >>> 8);
        out[1] = (byte) q.id;
        out[11] = 2;
        int p = e.wire().length;
        out[p + 2] = RrType.OPT;
        out[p + 3] = 0x04;
        out[p + 4] = (byte) 0xD0;
        return w.length > 0 ? out : out;
    }

    @Test
    void entryBytes() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            ResolverConfig base = ResolverHarness.oneScope(new InetSocketAddress("127.0.0.1", 53));
            ResolverConfig rc = new ResolverConfig(base.listen(), base.allow(), base.scopes(), base.fallbackServers(),
                    base.search(), 200_000);
            Echo echo = new Echo();
            ResolverAccounting books = new ResolverAccounting(clock, e -> { });
            Resolver r = clock.call(() -> new Resolver(clock, new Random(1), books, echo, () -> null, rc, Map.of()));
            lookout.engine.dns.answer.Reply sink = bytes -> { };
            Runtime rt = Runtime.getRuntime();
            for (int round = 0; round < 2; round++) {
                int from = round * 100_000;
                System.gc();
                long before = rt.totalMemory() - rt.freeMemory();
                clock.call(() -> {
                    for (int i = from; i < from + 100_000; i++) {
                        byte[] raw = DnsTestClient.query(i & 0xFFFF, "x" + i + ".r1.bench.test.", RrType.A, true, 1232);
                        r.question(ClientQuery.decode(raw, raw.length, false), sink, "probe", null);
                        echo.last.reply(nsdReply(echo.query), echo.server);
                    }
                    return null;
                });
                System.gc();
                long after = rt.totalMemory() - rt.freeMemory();
                System.out.println("probe cache: " + clock.call(() -> r.cache.size()) + " entries, " + (after - before) / 100_000
                        + " bytes each");
            }
        }
    }

    @Test
    void probe() throws Exception {
        try (VirtualScheduler clock = new VirtualScheduler()) {
            ResolverConfig rc = ResolverHarness.oneScope(new InetSocketAddress("127.0.0.1", 53));
            List<EngineEvent> events = new ArrayList<>();
            ResolverAccounting books = new ResolverAccounting(clock, events::add);
            Echo echo = new Echo();
            Resolver r = clock.call(() -> new Resolver(clock, new Random(1), books, echo, () -> null, rc, Map.of()));
            Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            java.lang.reflect.Method allocated = Class.forName("com.sun.management.ThreadMXBean")
                    .getMethod("getThreadAllocatedBytes", long.class);
            int[] answered = {0};
            for (int round = 0; round < 6; round++) {
                int n = 200_000;
                int base = round * n;
                byte[][] raws = new byte[n][];
                byte[][] replies = new byte[n][];
                for (int i = 0; i < n; i++) {
                    raws[i] = DnsTestClient.query(i & 0xFFFF, "x" + (base + i) + ".r1.bench.test.", RrType.A, true, 1232);
                    replies[i] = nsdReply(DnsTestClient.query(0, "x" + (base + i) + ".r1.bench.test.", RrType.A, true, 1232));
                }
                lookout.engine.dns.answer.Reply sink = bytes -> answered[0]++;
                long[] res = clock.call(() -> {
                    long tid = Thread.currentThread().getId();
                    long a0 = (long) allocated.invoke(mx, tid);
                    long t0 = System.nanoTime();
                    for (int i = 0; i < n; i++) {
                        byte[] raw = raws[i];
                        ClientQuery q = ClientQuery.decode(raw, raw.length, false);
                        r.question(q, sink, "probe", null);
                        byte[] reply = replies[i];
                        reply[0] = echo.query[0];
                        reply[1] = echo.query[1];
                        echo.last.reply(reply, echo.server);
                    }
                    long t1 = System.nanoTime();
                    long a1 = (long) allocated.invoke(mx, tid);
                    return new long[]{(a1 - a0) / n, (t1 - t0) / n};
                });
                System.out.println("probe round " + round + ": " + res[0] + " bytes, " + res[1] + " ns per question (answered "
                        + answered[0] + ")");
            }
        }
    }
}
