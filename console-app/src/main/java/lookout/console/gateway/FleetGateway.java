package lookout.console.gateway;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;
import lookout.console.remote.ControlClient;
import lookout.console.remote.ControlException;
import lookout.console.remote.EngineIdentity;
import lookout.console.remote.EngineUrl;
import lookout.console.remote.RemoteEngine;
import lookout.console.remote.SystemTimer;
import lookout.console.remote.Token;
import lookout.engine.api.EngineSnapshot;

/**
 * The fleet view's one way to its engines: every {@link #PERIOD_MILLIS} each engine's identity
 * (until known) and snapshot over its control API, the newest sample per engine handed to the UI
 * (latest value only: a slow UI never queues samples). An engine that cannot be reached is retried
 * with {@link RemoteEngine}'s backoff; one that is not a Lookout engine says so.
 *
 * <p>Concurrency: a small pool of daemon "fleet" threads does the blocking requests, one engine at
 * a time each (an engine is never polled twice at once: fixed-delay scheduling); samples go through
 * an {@link AtomicReferenceArray} to {@code ui}. Nothing here blocks the UI thread.
 */
public final class FleetGateway implements AutoCloseable {

    private static final Logger LOG = System.getLogger("lookout.console.fleet");

    /** A fleet row is live at one update a second: enough for a wall of engines, cheap for each engine. */
    public static final long PERIOD_MILLIS = 1000;

    /**
     * One engine's state at one moment.
     *
     * @param identity what {@code /api/v1/engine} said, or null before it answered
     * @param snapshot the newest snapshot, or null when none came through
     * @param problem  why this poll failed (unreachable, not a Lookout engine), or null
     * @param at       when the sample was taken (this console's clock)
     */
    public record Sample(EngineIdentity identity, EngineSnapshot snapshot, String problem, Instant at) {
    }

    /** One engine of the fleet: where, and with which token. */
    public record Member(EngineUrl url, Token token) {
    }

    private final List<Member> members;
    private final List<ControlClient> clients = new ArrayList<>();
    private final RemoteEngine[] engines;
    private final Executor ui;
    private final long periodMillis;
    private final ScheduledExecutorService pool;
    private final SystemTimer timer = new SystemTimer("lookout-fleet-timer");
    private final AtomicReferenceArray<Sample> latest;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile BiConsumer<Integer, Sample> listener = (i, s) -> { };

    public FleetGateway(List<Member> members, Executor ui) {
        this(members, ui, PERIOD_MILLIS);
    }

    public FleetGateway(List<Member> members, Executor ui, long periodMillis) {
        this.members = List.copyOf(members);
        this.ui = ui;
        this.periodMillis = periodMillis;
        this.engines = new RemoteEngine[members.size()];
        this.latest = new AtomicReferenceArray<>(members.size());
        for (Member m : members) {
            // checked by the launcher already (a token never goes over plain HTTP beyond loopback)
            clients.add(new ControlClient(m.url(), m.token()));
        }
        this.pool = Executors.newScheduledThreadPool(Math.max(1, Math.min(4, members.size())), r -> {
            Thread t = new Thread(r, "lookout-fleet");
            t.setDaemon(true);
            return t;
        });
    }

    public List<Member> members() {
        return members;
    }

    /** Where each sample goes (index of the member, sample); runs on the UI executor. */
    public void onSample(BiConsumer<Integer, Sample> l) {
        listener = l;
    }

    public void open() {
        for (int i = 0; i < members.size(); i++) {
            int index = i;
            pool.scheduleWithFixedDelay(() -> poll(index), 0, periodMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** One poll of one engine (blocking; a fleet thread). */
    void poll(int i) {
        Sample s;
        try {
            RemoteEngine e;
            synchronized (this) {
                e = engines[i];
            }
            if (e == null) {
                EngineIdentity id = clients.get(i).identity();
                e = new RemoteEngine(clients.get(i), id, timer);
                synchronized (this) {
                    engines[i] = e;
                }
            }
            EngineSnapshot snap = e.snapshot();
            s = new Sample(e.identity(), snap, null, Instant.now());
        } catch (ControlException x) {
            RemoteEngine e;
            synchronized (this) {
                e = engines[i];
                if (x.kind() == ControlException.Kind.NOT_LOOKOUT) {
                    engines[i] = null;
                }
            }
            s = new Sample(e == null ? null : e.identity(), null, x.getMessage(), Instant.now());
        } catch (RuntimeException x) {
            s = new Sample(null, null, x.getMessage() == null ? "the poll failed" : x.getMessage(), Instant.now());
        }
        latest.set(i, s);
        if (scheduled.compareAndSet(false, true)) {
            ui.execute(this::deliver);
        }
    }

    private void deliver() {
        scheduled.set(false);
        for (int i = 0; i < latest.length(); i++) {
            Sample s = latest.getAndSet(i, null);
            if (s != null) {
                try {
                    listener.accept(i, s);
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "fleet listener failed", e);
                }
            }
        }
    }

    /**
     * A full console's engine for member {@code i} (the drill-down), or null while its identity is
     * not known (it was never reached). Its own event stream and timer; this fleet keeps polling.
     */
    public synchronized RemoteEngine engineFor(int i) {
        RemoteEngine e = engines[i];
        if (e == null) {
            return null;
        }
        return new RemoteEngine(clients.get(i), e.identity(), new SystemTimer("lookout-remote"));
    }

    @Override
    public void close() {
        pool.shutdownNow();
        timer.close();
    }
}
