package lookout.engine.pva.pvserve;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.pvdata.PvType;
import lookout.engine.seams.HostedPvs;

/**
 * The engine's PV server: the PVs it publishes and the connections that watch them. A publisher
 * (the status-PV service) {@link #publish}es PVs and posts their values; the engine's PVA server
 * claims their names in searches ({@link #hosts}) and hands each validated TCP connection's
 * channel messages to a session ({@link #open}).
 *
 * <p>Output is written per connection into one buffer and flushed once at the end of the loop
 * task that produced it: a post to a hundred PVs watched by ten clients is ten writes, and an
 * update's bytes are encoded once per PV, not once per client.
 *
 * <p>Concurrency: {@link #hosts} reads an immutable set published whole (any thread), and
 * {@link #open} may be called from a connection's I/O thread; everything else is engine-loop
 * confined.
 */
public final class PvHost implements HostedPvs, ChannelSession.Host {

    private final Scheduler scheduler;
    private final PvServeLimits limits;
    private final PvServeCounters counters = new PvServeCounters();
    private final Map<String, HostedPv> pvs = new LinkedHashMap<>();
    private volatile Set<String> names = Set.of();
    private final Set<ChannelSession> sessions = new LinkedHashSet<>();
    private final Set<ChannelSession> dirty = new LinkedHashSet<>();
    private boolean flushQueued;

    public PvHost(Scheduler scheduler, PvServeLimits limits) {
        this.scheduler = scheduler;
        this.limits = limits;
    }

    /** Publishes a PV with its first value; replaces nothing (the name must be new). */
    public HostedPv publish(String name, PvType.Struct type, Object[] initial) {
        if (pvs.containsKey(name)) {
            throw new IllegalArgumentException(name + " is published already");
        }
        HostedPv pv = new HostedPv(name, type, initial);
        pvs.put(name, pv);
        names = Set.copyOf(pvs.keySet());
        return pv;
    }

    /** Withdraws a PV: its channels are destroyed and their clients told (they search again). */
    public void withdraw(String name) {
        HostedPv pv = pvs.remove(name);
        if (pv == null) {
            return;
        }
        names = Set.copyOf(pvs.keySet());
        for (ChannelSession s : new ArrayList<>(sessions)) {
            s.withdrawn(pv);
        }
    }

    /** Withdraws every PV. */
    public void withdrawAll() {
        for (String n : new ArrayList<>(pvs.keySet())) {
            withdraw(n);
        }
    }

    public HostedPv pv(String name) {
        return pvs.get(name);
    }

    public List<HostedPv> published() {
        return List.copyOf(pvs.values());
    }

    @Override
    public boolean hosts(String name) {
        return names.contains(name);
    }

    @Override
    public HostedPvs.Session open(HostedPvs.Peer peer) {
        ChannelSession s = new ChannelSession(this, peer);
        scheduler.run(() -> admit(s));
        return s;
    }

    private void admit(ChannelSession s) {
        counters.connections++;
        if (sessions.size() >= limits.maxConnections()) {
            counters.connectionsRefused++;
            s.refuse();
            return;
        }
        sessions.add(s);
    }

    /** Sends every connection's pending output now (the loop does it at the end of each task anyway). */
    public void flush() {
        flushQueued = false;
        if (dirty.isEmpty()) {
            return;
        }
        List<ChannelSession> d = new ArrayList<>(dirty);
        dirty.clear();
        for (ChannelSession s : d) {
            s.flush();
        }
    }

    /** Posts {@code next} to {@code pv}, {@code changed} naming the top-level members that differ. */
    public void post(HostedPv pv, Object[] next, BitSet changed) {
        pv.post(next, changed);
    }

    // ---------------------------------------------------------------- ChannelSession.Host

    @Override
    public HostedPv find(String name) {
        return pvs.get(name);
    }

    @Override
    public PvServeLimits limits() {
        return limits;
    }

    @Override
    public PvServeCounters counters() {
        return counters;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public void dirty(ChannelSession session) {
        dirty.add(session);
        if (!flushQueued) {
            flushQueued = true;
            scheduler.execute(this::flush);
        }
    }

    @Override
    public void ended(ChannelSession session) {
        sessions.remove(session);
        dirty.remove(session);
    }

    // ---------------------------------------------------------------- status

    /**
     * What the server holds now.
     *
     * @param connections connections admitted and open
     * @param channels    channels open over all connections
     * @param monitors    MONITOR subscriptions alive
     */
    public record Load(int connections, int channels, int monitors) {
    }

    public Load load() {
        int ch = 0;
        int mon = 0;
        for (ChannelSession s : sessions) {
            ch += s.channelCount();
            mon += s.monitorCount();
        }
        return new Load(sessions.size(), ch, mon);
    }
}
