package lookout.engine.dns;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.EngineOptions;
import lookout.engine.api.ResolverSnapshot;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.Cidr;
import lookout.engine.config.Config;
import lookout.engine.config.ConfigSource;
import lookout.engine.config.PvaConfig;
import lookout.engine.config.ResolverConfig;
import lookout.engine.config.StatusConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.ZoneConfig;
import lookout.engine.core.DefaultEngine;
import lookout.engine.boot.Engines;

/** An engine in virtual time with the resolver listening on 127.0.0.1:0, for black-box tests. */
final class ResolverHarness implements AutoCloseable {

    final VirtualScheduler clock = new VirtualScheduler();
    final Engine engine;
    final ResolverService service;
    final InetSocketAddress listen;
    final List<EngineEvent> events = new CopyOnWriteArrayList<>();

    ResolverHarness(Path tmp, long seed, ResolverConfig rc) {
        this(tmp, seed, rc, Map.of());
    }

    ResolverHarness(Path tmp, long seed, ResolverConfig rc, Map<String, ZoneConfig> zones) {
        this(tmp, seed, rc, zones, EngineOptions.UdpReads.AUTO);
    }

    ResolverHarness(Path tmp, long seed, ResolverConfig rc, Map<String, ZoneConfig> zones, EngineOptions.UdpReads reads) {
        engine = Engines.create(EngineOptions.forTest(clock, new Random(seed), tmp).withUdpReads(reads));
        engine.subscribe(events::add);
        engine.start(config(tmp, rc, zones));
        service = clock.call(() -> ((DefaultEngine) engine).runningService(ResolverService.class));
        listen = service.boundAddresses().get(0);
    }

    static Config config(Path tmp, ResolverConfig rc, Map<String, ZoneConfig> zones) {
        PvaConfig pva = new PvaConfig(List.of(), false, List.of(), 5076, 5075, List.of(), false, List.of(),
                new PvaConfig.PvaServerConfig(false, false), List.of(), false, List.of());
        return new Config(ConfigSource.of("test.conf", tmp, ""), rc, zones, Map.of(), WeightedConfig.empty(), pva,
                new StatusConfig(null), tmp);
    }

    static InetSocketAddress loopback0() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    static List<Cidr> loopbackOnly() {
        try {
            return List.of(new Cidr(InetAddress.getByName("127.0.0.0"), 8), new Cidr(InetAddress.getByName("::1"), 128));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One default scope with {@code servers}. */
    static ResolverConfig oneScope(InetSocketAddress... servers) {
        return new ResolverConfig(List.of(loopback0()), loopbackOnly(),
                List.of(new ResolverConfig.Scope("lan", List.of(), List.of(servers), true)), List.of(), List.of(), 1000);
    }

    static ResolverConfig.Scope scope(String name, List<String> domains, boolean def, InetSocketAddress... servers) {
        return new ResolverConfig.Scope(name, domains, List.of(servers), def);
    }

    static ResolverConfig config(List<ResolverConfig.Scope> scopes, List<InetSocketAddress> fallback, List<String> search) {
        return new ResolverConfig(List.of(loopback0()), loopbackOnly(), scopes, fallback, search, 1000);
    }

    ResolverSnapshot snapshot() {
        return engine.snapshot().resolver();
    }

    Resolver resolver() {
        return service.resolver();
    }

    <T> T onLoop(java.util.concurrent.Callable<T> body) {
        return clock.call(body);
    }

    void advance(Duration d) {
        clock.advance(d);
    }

    List<EngineEvent.UpstreamDemoted> demotions() {
        List<EngineEvent.UpstreamDemoted> out = new ArrayList<>();
        for (EngineEvent e : events) {
            if (e instanceof EngineEvent.UpstreamDemoted d) {
                out.add(d);
            }
        }
        return out;
    }

    List<EngineEvent.UpstreamRestored> restorations() {
        List<EngineEvent.UpstreamRestored> out = new ArrayList<>();
        for (EngineEvent e : events) {
            if (e instanceof EngineEvent.UpstreamRestored d) {
                out.add(d);
            }
        }
        return out;
    }

    boolean demoted(InetSocketAddress a) {
        return onLoop(() -> resolver().marks.isDemoted(a, clock.nanoTime()));
    }

    @Override
    public void close() {
        try {
            engine.stop();
        } finally {
            clock.close();
        }
    }
}
