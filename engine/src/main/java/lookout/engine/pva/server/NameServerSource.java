package lookout.engine.pva.server;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.server.SearchOperation.Claimant;
import lookout.engine.seams.ResolvedNames;
import lookout.engine.seams.ResolvedNames.Resolution;

/**
 * Claims the names the engine's PVA client has resolved to a live server, naming that server's
 * GUID and endpoint (seed 002 §6: a name server's reply need not name itself), and has the client
 * search, under the {@link OnDemandNames} limits, the names it is asked about that it cannot vouch
 * for yet (§4 contract: react to a search by resolving, claim only once it can be proxied).
 *
 * <p>Claims are read from a view of the client's resolutions that the engine loop keeps up to date
 * as they are made and withdrawn (a server lost, restarted, or failing its check): a withdrawal
 * takes effect for the next search on every responder thread, so nothing withdrawn is claimed.
 * The engine's own client's searches are answered like any other but never make it search
 * (they would keep a name searched after the operator stopped searching it).
 *
 * <p>Concurrency: {@link #onSearch} runs on any responder thread, several at once, and reads only
 * the concurrent {@code claims} map and the {@link OnDemandNames} (thread-safe); everything else —
 * the client's seam, the listener callbacks, the sweep — runs on the engine loop, where admitted
 * names are handed.
 */
public final class NameServerSource implements Source, ResolvedNames.Listener {

    private static final Logger LOG = System.getLogger("lookout.pva.server");

    private final ResolvedNames resolved;
    private final OnDemandNames onDemand;
    private final Scheduler scheduler;
    private final ConcurrentHashMap<String, Claimant> claims = new ConcurrentHashMap<>();
    /** Engine loop: claims by GUID and endpoint, so that a server's names share one. */
    private final Map<String, Claimant> interned = new HashMap<>();
    private final LongAdder claimed = new LongAdder();
    private final LongAdder own = new LongAdder();
    private volatile boolean stopped;

    NameServerSource(ResolvedNames resolved, OnDemandNames onDemand, Scheduler scheduler) {
        this.resolved = resolved;
        this.onDemand = onDemand;
        this.scheduler = scheduler;
    }

    /** Engine loop: the client's resolutions so far, then every change as it happens. */
    void start() {
        resolved.addListener(this);
        for (Resolution r : resolved.resolutions()) {
            resolved(r);
        }
    }

    /** Engine loop: no more listening; every on-demand name let go. */
    void stop() {
        stopped = true;
        resolved.removeListener(this);
        claims.clear();
        interned.clear();
        for (String name : onDemand.clear()) {
            resolved.release(name);
        }
    }

    @Override
    public String name() {
        return "name-server";
    }

    // ------------------------------------------------------------------ any responder thread

    @Override
    public void onSearch(SearchOperation op) {
        // one lookup per name and nothing shared written per name: the counters are added once
        // per search (seed 002 §4: treat onSearch as a hash-table lookup)
        int claimedHere = 0;
        int ownHere = 0;
        boolean onDemandNames = onDemand.holding();
        for (int i = 0, n = op.size(); i < n; i++) {
            if (op.isClaimed(i)) {
                continue;
            }
            String name = op.name(i);
            Claimant c = claims.get(name);
            if (c != null) {
                op.claimFor(i, c);
                claimedHere++;
                if (onDemandNames) {
                    onDemand.touch(name, op.now()); // an on-demand name stays while it is asked for
                }
                continue;
            }
            if (op.own()) {
                ownHere++;
                continue;
            }
            if (op.asker() != null && onDemand.ask(name, op.asker(), op.now()) == OnDemandNames.Answer.ADMITTED) {
                scheduler.execute(() -> admitted(name));
            }
        }
        if (claimedHere > 0) {
            claimed.add(claimedHere);
        }
        if (ownHere > 0) {
            own.add(ownHere);
        }
    }

    // ------------------------------------------------------------------ engine loop

    /** An admitted name: the client searches it (or already did, for reasons of its own). */
    private void admitted(String name) {
        if (stopped) {
            onDemand.forget(name);
            return;
        }
        try {
            switch (resolved.want(name)) {
                case NEW -> {
                    // searched from now on, for as long as clients ask
                }
                case EXISTING -> onDemand.elsewhere(name);
                case REFUSED -> onDemand.forget(name);
            }
        } catch (RuntimeException e) {
            onDemand.forget(name);
            LOG.log(Level.WARNING, "PVA server: the client could not search an asked name", e);
        }
    }

    /** The sweep: names nobody asked for within the hold time go. */
    void sweep(long now) {
        List<String> gone = onDemand.expire(now);
        for (String name : gone) {
            resolved.release(name);
        }
    }

    @Override
    public void resolved(Resolution r) {
        if (r.endpoint() == null || r.endpoint().isUnresolved()) {
            return;
        }
        Claimant c = intern(r);
        if (c == null) {
            return;
        }
        claims.put(r.name(), c);
        onDemand.resolved(r.name());
    }

    @Override
    public void withdrawn(Resolution r) {
        Claimant c = claims.get(r.name());
        if (c != null && c.endpoint.equals(r.endpoint())) {
            claims.remove(r.name(), c);
        }
        onDemand.withdrawn(r.name(), scheduler.nanoTime());
    }

    private Claimant intern(Resolution r) {
        String key = r.guid() + "@" + r.endpoint();
        Claimant c = interned.get(key);
        if (c != null) {
            return c;
        }
        byte[] g;
        try {
            g = HexFormat.of().parseHex(r.guid());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (g.length != 12) {
            return null;
        }
        if (interned.size() > 20_000) {
            interned.clear(); // bounded like the beacon table (seed 002 §9); claims keep their own
        }
        c = new Claimant(g, r.endpoint());
        interned.put(key, c);
        return c;
    }

    long claims() {
        return claimed.sum();
    }

    /** Names of the engine's own client's searches left alone. */
    long ownNames() {
        return own.sum();
    }

    /** Names claimable now. */
    int claimable() {
        return claims.size();
    }
}
