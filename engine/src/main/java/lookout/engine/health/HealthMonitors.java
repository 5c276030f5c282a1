package lookout.engine.health;

import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import lookout.engine.api.EngineEvent;
import lookout.engine.api.Scheduler;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;

/**
 * Every monitor of the running pools: one per (address or CNAME, service type), shared by every
 * resource (SPEC §Weighted pools). Probes run on the Netty group, at most {@code maxConcurrent}
 * at a time, each with the service type's timeout on the engine scheduler; results feed the
 * {@link AntiFlap} of their monitor. Selection never waits for a probe: it reads the state
 * published through {@code onChange}.
 *
 * <p>Concurrency: everything here is confined to the engine loop; probe results arrive on Netty
 * threads and hop in with {@code scheduler.run}.
 */
public final class HealthMonitors {

    /** An effective state of one monitor. */
    public record State(boolean down, long ttl) {
    }

    /** What the snapshot shows of one monitor. */
    public record View(MonitorKey key, String plugin, boolean monitoredDown, boolean initialized, long monitoredTtl,
                       AdminState.Entry forced, State effective, int successes, int failures, long probes,
                       long passes, String lastResult) {
    }

    private final Scheduler scheduler;
    private final Prober prober;
    private final Consumer<EngineEvent> publish;
    private final Runnable onChange;
    private final int maxConcurrent;
    private final Map<MonitorKey, Monitor> monitors = new LinkedHashMap<>();
    private final ArrayDeque<Monitor> waiting = new ArrayDeque<>();
    private int running;
    private long probesTotal;
    private long probeFailures;
    private long probesSkipped;

    public HealthMonitors(Scheduler scheduler, EventLoopGroup io, Consumer<EngineEvent> publish, Runnable onChange,
                          int maxConcurrent) {
        this.scheduler = scheduler;
        this.prober = new Prober(io);
        this.publish = publish;
        this.onChange = onChange;
        this.maxConcurrent = maxConcurrent;
    }

    /**
     * Makes the monitor set exactly {@code wanted}: monitors whose key and service type
     * definition are unchanged keep their state and timers (SPEC: live reload keeps monitor state
     * for unchanged targets); the rest start fresh or stop.
     */
    public void reconcile(Map<MonitorKey, ServiceTypeConfig> wanted) {
        for (var it = monitors.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            ServiceTypeConfig t = wanted.get(e.getKey());
            if (t == null || !t.equals(e.getValue().type)) {
                e.getValue().stop();
                it.remove();
            }
        }
        waiting.removeIf(m -> m.stopped);
        for (var e : wanted.entrySet()) {
            if (!monitors.containsKey(e.getKey())) {
                Monitor m = new Monitor(e.getKey(), e.getValue());
                monitors.put(e.getKey(), m);
                m.start();
            }
        }
    }

    /** Applies forced states by monitor name; returns true when an effective state changed. */
    public boolean applyForced(Map<String, AdminState.Entry> forced) {
        boolean changed = false;
        for (Monitor m : monitors.values()) {
            AdminState.Entry f = forced.get(m.key.desc());
            State before = m.effective();
            m.forced = f;
            changed |= !before.equals(m.effective());
        }
        return changed;
    }

    /** Monitor names (gdnsd's desc), for admin_state globs. */
    public Set<String> names() {
        Set<String> s = new HashSet<>();
        for (MonitorKey k : monitors.keySet()) {
            s.add(k.desc());
        }
        return s;
    }

    /** The effective state of {@code key}; UP with the maximal TTL when unknown. */
    public State state(MonitorKey key) {
        Monitor m = monitors.get(key);
        return m == null ? new State(false, ServiceTypeConfig.TTL_MAX) : m.effective();
    }

    public List<View> views() {
        List<View> l = new ArrayList<>(monitors.size());
        for (Monitor m : monitors.values()) {
            l.add(m.view());
        }
        return l;
    }

    public long probesTotal() {
        return probesTotal;
    }

    public long probeFailures() {
        return probeFailures;
    }

    public long probesSkipped() {
        return probesSkipped;
    }

    public int inFlight() {
        return running;
    }

    /** Stops every monitor and timer. */
    public void stop() {
        for (Monitor m : monitors.values()) {
            m.stop();
        }
        monitors.clear();
        waiting.clear();
    }

    private void startProbe(Monitor m) {
        if (m.stopped) {
            return;
        }
        if (m.inFlight || m.queued) {
            probesSkipped++; // the previous probe of this monitor has not finished yet
            return;
        }
        if (running >= maxConcurrent) {
            m.queued = true;
            waiting.add(m);
            return;
        }
        running++;
        m.inFlight = true;
        long attempt = ++m.attempt;
        ServiceTypeConfig t = m.type;
        Consumer<Boolean> done = ok -> scheduler.run(() -> finish(m, attempt, ok));
        try {
            switch (t.plugin()) {
                case "tcp_connect" -> m.probe = prober.tcpConnect(m.address, (int) t.param("port", 0), t.timeout(), done);
                case "http_status" -> {
                    Set<Integer> codes = new HashSet<>();
                    for (String c : t.params().getOrDefault("ok_codes", "200").split(",")) {
                        codes.add(Integer.parseInt(c));
                    }
                    m.probe = prober.httpStatus(m.address, (int) t.param("port", 80), t.params().getOrDefault("url_path", "/"),
                            t.params().get("vhost"), codes, t.timeout(), done);
                }
                default -> {
                    // gdnsd plugin_null: a monitor that always fails, without any I/O
                    finish(m, attempt, false);
                    return;
                }
            }
        } catch (RuntimeException e) {
            // a probe that cannot even start (no socket, group shutting down) is a failed probe
            finish(m, attempt, false);
            return;
        }
        m.timeout = scheduler.schedule(() -> {
            if (m.inFlight && m.attempt == attempt) {
                m.lastResult = "timeout";
                m.attemptOfTimeout = attempt;
                Prober.Probe p = m.probe;
                finish(m, attempt, false);
                if (p != null) {
                    p.abort();
                }
            }
        }, t.timeout(), TimeUnit.SECONDS);
    }

    private void finish(Monitor m, long attempt, boolean ok) {
        if (!m.inFlight || m.attempt != attempt) {
            return; // late result of a probe already timed out, or of a stopped monitor
        }
        m.inFlight = false;
        m.probe = null;
        m.timeout.cancel();
        running--;
        if (!m.stopped) {
            m.probes++;
            probesTotal++;
            if (ok) {
                m.passes++;
                m.lastResult = "pass";
            } else {
                probeFailures++;
                if (m.attemptOfTimeout != attempt) {
                    m.lastResult = "fail";
                }
            }
            boolean wasInit = m.flap.initialized();
            State before = m.effective();
            boolean wasDown = m.flap.down();
            boolean flipped = m.flap.record(ok);
            if (flipped || !wasInit) {
                publish.accept(new EngineEvent.MonitorStateChanged(scheduler.now(), m.key.target(), m.key.serviceType(),
                        wasInit ? (wasDown ? "DOWN" : "UP") : "INIT", m.flap.down() ? "DOWN" : "UP"));
            }
            if (!before.equals(m.effective())) {
                onChange.run();
            }
        }
        while (running < maxConcurrent && !waiting.isEmpty()) {
            Monitor next = waiting.poll();
            next.queued = false;
            startProbe(next);
        }
    }

    /** One (target, service type); engine-loop confined. */
    private final class Monitor {
        final MonitorKey key;
        final ServiceTypeConfig type;
        final AntiFlap flap;
        final InetAddress address;
        AdminState.Entry forced;
        Scheduler.Cancellable timer = Scheduler.Cancellable.NONE;
        Scheduler.Cancellable timeout = Scheduler.Cancellable.NONE;
        Prober.Probe probe;
        boolean inFlight;
        boolean queued;
        boolean stopped;
        long attempt;
        long attemptOfTimeout = -1;
        long probes;
        long passes;
        String lastResult = "none";

        Monitor(MonitorKey key, ServiceTypeConfig type) {
            this.key = key;
            this.type = type;
            this.flap = AntiFlap.of(type);
            this.address = key.cname() ? null : WeightedConfig.parseAddress(key.target());
        }

        boolean probed() {
            return switch (type.plugin()) {
                case "tcp_connect", "http_status" -> address != null;
                case "null" -> true;
                default -> false;
            };
        }

        void start() {
            if (probed()) {
                // first probe at once (gdnsd's initial round sets the state directly), then every interval
                timer = scheduler.scheduleAtFixedRate(() -> startProbe(this), 0, type.interval(), TimeUnit.SECONDS);
            }
        }

        void stop() {
            stopped = true;
            timer.cancel();
            timeout.cancel();
            if (inFlight) {
                inFlight = false;
                running--;
                if (probe != null) {
                    probe.abort();
                }
            }
        }

        State monitored() {
            return switch (type.plugin()) {
                case "up" -> new State(false, ServiceTypeConfig.TTL_MAX);
                case "down" -> new State(true, ServiceTypeConfig.TTL_MAX);
                case "static" -> new State("down".equals(type.params().get("state")),
                        type.param("ttl", ServiceTypeConfig.TTL_MAX));
                default -> new State(flap.down(), flap.ttl());
            };
        }

        State effective() {
            return forced != null ? new State(forced.down(), forced.effectiveTtl()) : monitored();
        }

        View view() {
            State mon = monitored();
            return new View(key, type.plugin(), mon.down(), !probed() || flap.initialized(), mon.ttl(), forced,
                    effective(), flap.successes(), flap.failures(), probes, passes, lastResult);
        }
    }
}
