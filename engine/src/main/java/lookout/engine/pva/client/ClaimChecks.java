package lookout.engine.pva.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.PvaSnapshot.Claim;
import lookout.engine.api.Scheduler;
import lookout.engine.api.Severity;
import lookout.engine.api.Subsystem;
import lookout.engine.net.HostPort;
import lookout.engine.pva.beacon.ServerTable;
import lookout.engine.pva.wire.Guid;

/**
 * Claims that follow their server's life. A resolution is a promise about the future (seed 002
 * §3.6) which Lookout's client, ending at Resolved, never tests by connecting; so the servers that
 * resolved channels rest on are checked instead: one that beaconed within {@code after} is alive
 * (its beacons stopping for 360 s, or its GUID changing, withdraw it elsewhere); one that did not
 * — a core-pva server sends no beacons at all — is connected to every {@code interval}, the PVA
 * validation handshake included, and when that fails its channels search again from the next
 * tick ("TCP lost while Active", §3.6), backoff restarted. A server restarted on another endpoint
 * is then found, and claimed, again.
 *
 * <p>A beacon vouches only for its own GUID: beacons from the claimed endpoint with another GUID
 * (another server announcing that address and port, rightly or not) say nothing of whether the
 * server that made the claims still lives, so those claims are checked like a silent server's.
 *
 * <p>Every timer on the injected scheduler (the probe's connect and handshake deadlines too).
 * Concurrency: engine loop only (probe outcomes hop in).
 */
final class ClaimChecks {

    /** At most this many checks in flight at once; the others wait for the next round. */
    static final int MAX_IN_FLIGHT = 64;

    /** Connects to an endpoint and completes the PVA handshake; tells {@code done} null, or why not. */
    interface Probe {
        void check(InetSocketAddress endpoint, Consumer<String> done);
    }

    /** The last check of an endpoint. */
    private static final class Check {
        long at;
        boolean ok;
        String error = "";
        boolean inFlight;
        boolean ever;
    }

    private final Scheduler scheduler;
    private final ChannelRegistry registry;
    private final ServerTable servers;
    private final Probe probe;
    private final Consumer<EngineEvent> events;
    private final Map<InetSocketAddress, Check> checks = new HashMap<>();
    private long interval;
    private long after;
    private Scheduler.Cancellable timer = Scheduler.Cancellable.NONE;
    private boolean running;
    private long failures;

    ClaimChecks(Scheduler scheduler, ChannelRegistry registry, ServerTable servers, Probe probe,
                Consumer<EngineEvent> events) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.servers = servers;
        this.probe = probe;
        this.events = events;
    }

    /** Checks every {@code intervalSeconds} the servers silent for {@code afterSeconds}; a change restarts the timer. */
    void configure(int intervalSeconds, int afterSeconds) {
        long i = TimeUnit.SECONDS.toNanos(intervalSeconds);
        long a = TimeUnit.SECONDS.toNanos(afterSeconds);
        if (running && i == interval && a == after) {
            return;
        }
        interval = i;
        after = a;
        timer.cancel();
        running = true;
        timer = scheduler.scheduleAtFixedRate(this::round, interval, interval, TimeUnit.NANOSECONDS);
    }

    void stop() {
        running = false;
        timer.cancel();
    }

    /** One round: every claimed endpoint without a recent beacon is checked. */
    void round() {
        if (!running) {
            return;
        }
        long now = scheduler.nanoTime();
        Map<InetSocketAddress, ChannelRegistry.Claimed> claimed = registry.claimedEndpoints();
        // forget the endpoints nothing rests on any more
        checks.keySet().removeIf(e -> !claimed.containsKey(e) && !checks.get(e).inFlight);
        int inFlight = 0;
        for (Check c : checks.values()) {
            inFlight += c.inFlight ? 1 : 0;
        }
        List<InetSocketAddress> due = new ArrayList<>();
        for (Map.Entry<InetSocketAddress, ChannelRegistry.Claimed> at : claimed.entrySet()) {
            InetSocketAddress e = at.getKey();
            if (beaconedWithin(e, at.getValue().soleGuid(), now, after)) {
                continue;
            }
            Check c = checks.computeIfAbsent(e, k -> new Check());
            if (!c.inFlight) {
                due.add(e);
            }
        }
        for (Iterator<InetSocketAddress> it = due.iterator(); it.hasNext() && inFlight < MAX_IN_FLIGHT; inFlight++) {
            InetSocketAddress e = it.next();
            Check c = checks.get(e);
            c.inFlight = true;
            long started = now;
            probe.check(e, error -> scheduler.run(() -> checked(e, c, started, error)));
        }
    }

    private void checked(InetSocketAddress endpoint, Check c, long at, String error) {
        c.inFlight = false;
        c.ever = true;
        c.at = at;
        c.ok = error == null;
        c.error = error == null ? "" : error;
        if (error == null || !running) {
            return;
        }
        failures++;
        int n = registry.withdrawEndpoint(endpoint);
        if (n > 0) {
            events.accept(new EngineEvent.Notice(scheduler.now(), Subsystem.PVA_CLIENT, Severity.WARNING,
                    "PVA server at " + HostPort.format(endpoint) + " did not pass its check (" + error + "): its "
                            + n + (n == 1 ? " name is" : " names are") + " searched again"));
        }
    }

    /** True when the server that claimed {@code endpoint}'s names (all of them: {@code guid}) beaconed within {@code window}. */
    private boolean beaconedWithin(InetSocketAddress endpoint, Guid guid, long now, long window) {
        ServerTable.Entry e = lastBeacon(endpoint, guid);
        return e != null && now - e.lastBeacon() <= window;
    }

    /** The latest beacon at {@code endpoint} from {@code guid} (either protocol), or null; none for a null GUID. */
    private ServerTable.Entry lastBeacon(InetSocketAddress endpoint, Guid guid) {
        if (guid == null) {
            return null;
        }
        ServerTable.Entry beacon = null;
        for (String protocol : new String[] {"tcp", "tls"}) {
            ServerTable.Entry t = servers.get(new ServerTable.Key(endpoint, protocol));
            if (t != null && t.hasBeacon() && guid.equals(t.guid())
                    && (beacon == null || t.lastBeacon() - beacon.lastBeacon() > 0)) {
                beacon = t;
            }
        }
        return beacon;
    }

    /** Each claimed endpoint and what its claims rest on, for the snapshot. */
    List<Claim> snapshot() {
        long now = scheduler.nanoTime();
        List<Claim> out = new ArrayList<>();
        registry.claimedEndpoints().forEach((e, k) -> {
            ServerTable.Entry beacon = lastBeacon(e, k.soleGuid());
            Check c = checks.get(e);
            boolean recent = beacon != null && now - beacon.lastBeacon() <= after;
            String basis = recent ? "beacons" : c != null && c.ever ? "check" : "reply";
            out.add(new Claim(HostPort.format(e), k.guid == null ? "" : k.guid.toString(), k.channels,
                    beacon == null ? null : scheduler.now().minusNanos(now - beacon.lastBeacon()),
                    c == null || !c.ever ? null : scheduler.now().minusNanos(now - c.at),
                    c == null || !c.ever ? "" : c.ok ? "ok" : c.error, basis));
        });
        return out;
    }

    long failures() {
        return failures;
    }
}
