package lookout.engine.pva.server;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names the engine's PVA server has its client search on behalf of the clients that ask it
 * (seed 002 §4 contract: "react to a search request by attempting to resolve the name"), bounded
 * so that a server asked for everything does not make the engine a broadcast amplifier (§8, load
 * asymmetry):
 *
 * <ul>
 *   <li>at most {@link Limits#unresolved} on-demand names unresolved at once (resolved ones cost no
 *       search, §8, and do not count);</li>
 *   <li>at most {@link Limits#perSecond} new names admitted per second (a bucket of that many
 *       tokens, refilled continuously);</li>
 *   <li>one asker ({@link Asker}: a UDP client address, a TCP connection) holding at most
 *       {@link Limits#perAsker} of the unresolved names, and admitting at most the same share of
 *       the per-second rate — so that a second client keeps its share while a first one floods.</li>
 * </ul>
 * A name beyond a limit is not searched: the asking client's own retries ask again.
 *
 * <p>Continuity: a name stays while any client has asked for it within {@link Limits#holdNanos}
 * (90 s: three of a client's steady-state 30-s intervals), so its channel keeps its ring position
 * and attempt count and a name asked steadily is searched at §8's steady rate.
 *
 * <p>A pure structure: every method takes {@code now} (scheduler nanoseconds, compared by
 * difference). Concurrency: {@code entries} is a concurrent map that responder threads read, and
 * touch ({@link Entry#lastAsked}), without a lock; admission, accounting, refusals and expiry are
 * under this object's monitor, taken by responder threads for names not known yet and by the
 * engine loop for resolutions, withdrawals and the sweep.
 */
final class OnDemandNames {

    /** Asker states kept at most; beyond, a new asker is refused until idle ones can be forgotten. */
    static final int MAX_ASKERS = 4096;

    /**
     * @param unresolved on-demand names unresolved at once
     * @param perSecond  new names admitted per second
     * @param perAsker   unresolved names one asker may hold
     * @param holdNanos  how long a name stays after the last ask
     */
    record Limits(int unresolved, int perSecond, int perAsker, long holdNanos) {
        Limits {
            if (unresolved < 1 || perSecond < 1 || perAsker < 1 || perAsker > unresolved || holdNanos <= 0) {
                throw new IllegalArgumentException("on-demand limits " + unresolved + "/" + perSecond + "/" + perAsker);
            }
        }

        /** The new names per second one asker may admit: its share of the allowance, of the rate. */
        double askerRate() {
            return Math.max(1.0, (double) perSecond * perAsker / unresolved);
        }
    }

    /** What {@link #ask} decided. */
    enum Answer {
        /** Already on demand: its last ask is now. */
        KNOWN,
        /** Admitted: the client must now be asked to search it. */
        ADMITTED,
        /** Refused: the unresolved allowance is used up. */
        UNRESOLVED_LIMIT,
        /** Refused: this asker holds its share of the allowance. */
        CLIENT_SHARE,
        /** Refused: no new name this second. */
        RATE,
        /** Refused: this asker admitted its share of this second's names. */
        CLIENT_RATE,
        /** Refused: too many askers to keep track of. */
        CLIENTS;

        boolean refused() {
            return ordinal() >= UNRESOLVED_LIMIT.ordinal();
        }

        /** The metric label of a refusal. */
        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    enum State {
        /** Being searched, charged to its asker. */
        UNRESOLVED,
        /** Resolved: costs no search, charged to nobody. */
        RESOLVED,
        /** The client searches it for reasons of its own (watched, an operator's): charged to nobody. */
        ELSEWHERE
    }

    /** One on-demand name. {@code lastAsked} is written by any thread; {@code state} under the monitor. */
    static final class Entry {
        final Asker asker;
        volatile long lastAsked;
        State state = State.UNRESOLVED;

        Entry(Asker asker, long now) {
            this.asker = asker;
            this.lastAsked = now;
        }
    }

    /** One asker. Under the monitor. */
    static final class AskerState {
        final Asker asker;
        int held;
        double tokens;
        long tokensAt;
        long admitted;
        long refused;
        long lastRefused;
        long lastSeen;

        AskerState(Asker asker, double tokens, long now) {
            this.asker = asker;
            this.tokens = tokens;
            this.tokensAt = now;
            this.lastSeen = now;
        }
    }

    /** An asker as reported: unresolved names held, admitted and refused since it was first seen. */
    record AskerReport(Asker asker, int unresolved, long admitted, long refused, long lastRefused) {
    }

    private volatile Limits limits;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    // under the monitor
    private final LinkedHashMap<Asker, AskerState> askers = new LinkedHashMap<>(16, 0.75f, true);
    private double tokens;
    private long tokensAt;
    private int unresolved;
    private final int[] inState = new int[State.values().length];
    private long admitted;
    private long released;
    private final EnumMap<Answer, Long> refusals = new EnumMap<>(Answer.class);
    /** Refusals not reported yet, by reason, with the askers refused (the reporter takes them). */
    private final EnumMap<Answer, Long> pending = new EnumMap<>(Answer.class);
    private final Map<Asker, Answer> pendingAskers = new LinkedHashMap<>();
    private long admittedSinceReport;

    OnDemandNames(Limits limits, long now) {
        this.limits = limits;
        this.tokens = limits.perSecond();
        this.tokensAt = now;
    }

    /** New limits (a reload): names already on demand stay, whatever they are charged. */
    synchronized void limits(Limits l) {
        this.limits = l;
        tokens = Math.min(tokens, l.perSecond());
        for (AskerState a : askers.values()) {
            a.tokens = Math.min(a.tokens, l.askerRate());
        }
    }

    Limits limits() {
        return limits;
    }

    // ------------------------------------------------------------------ asking (any thread)

    /**
     * A client ({@code asker}) asked for {@code name}, which nobody claims. Known names are touched
     * without a lock; a new one is admitted or refused under the limits.
     */
    Answer ask(String name, Asker asker, long now) {
        Entry e = entries.get(name);
        if (e != null) {
            e.lastAsked = now;
            return Answer.KNOWN;
        }
        synchronized (this) {
            e = entries.get(name);
            if (e != null) {
                e.lastAsked = now;
                return Answer.KNOWN;
            }
            Limits l = limits;
            refill(now, l);
            AskerState a = askers.get(asker);
            if (a == null) {
                if (askers.size() >= MAX_ASKERS && !forgetIdleAsker()) {
                    return refuse(null, asker, Answer.CLIENTS, now);
                }
                a = new AskerState(asker, l.askerRate(), now);
                askers.put(asker, a);
            }
            a.lastSeen = now;
            a.tokens = Math.min(l.askerRate(), a.tokens + elapsedSeconds(a.tokensAt, now) * l.askerRate());
            a.tokensAt = now;
            if (unresolved >= l.unresolved()) {
                return refuse(a, asker, Answer.UNRESOLVED_LIMIT, now);
            }
            if (a.held >= l.perAsker()) {
                return refuse(a, asker, Answer.CLIENT_SHARE, now);
            }
            if (a.tokens < 1) {
                return refuse(a, asker, Answer.CLIENT_RATE, now);
            }
            if (tokens < 1) {
                return refuse(a, asker, Answer.RATE, now);
            }
            tokens--;
            a.tokens--;
            a.held++;
            a.admitted++;
            unresolved++;
            admitted++;
            admittedSinceReport++;
            entries.put(name, new Entry(asker, now));
            inState[State.UNRESOLVED.ordinal()]++;
            return Answer.ADMITTED;
        }
    }

    /** True when any name is on demand (any thread, no lock): there is something to touch. */
    boolean holding() {
        return !entries.isEmpty();
    }

    /** A name the client already serves (resolved and claimed) was asked for: it stays. Any thread, no lock. */
    void touch(String name, long now) {
        Entry e = entries.get(name);
        if (e != null) {
            e.lastAsked = now;
        }
    }

    private void refill(long now, Limits l) {
        tokens = Math.min(l.perSecond(), tokens + elapsedSeconds(tokensAt, now) * l.perSecond());
        tokensAt = now;
    }

    private static double elapsedSeconds(long since, long now) {
        long d = now - since;
        return d <= 0 ? 0 : d / 1e9;
    }

    private Answer refuse(AskerState a, Asker asker, Answer why, long now) {
        refusals.merge(why, 1L, Long::sum);
        pending.merge(why, 1L, Long::sum);
        if (a != null) {
            a.refused++;
            a.lastRefused = now;
        }
        if (pendingAskers.size() < 64) {
            pendingAskers.putIfAbsent(asker, why);
        }
        return why;
    }

    /** Forgets the least recently seen asker that holds nothing; false when every one holds something. */
    private boolean forgetIdleAsker() {
        for (Iterator<AskerState> it = askers.values().iterator(); it.hasNext(); ) {
            if (it.next().held == 0) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ the client's side (engine loop)

    /** The client already searched {@code name} for its own reasons: it stays, charged to nobody. */
    synchronized void elsewhere(String name) {
        Entry e = entries.get(name);
        if (e != null && e.state == State.UNRESOLVED) {
            uncharge(e);
            move(e, State.ELSEWHERE);
        }
    }

    /** The client cannot search {@code name} at all: forgotten. */
    synchronized void forget(String name) {
        Entry e = entries.remove(name);
        if (e != null) {
            inState[e.state.ordinal()]--;
            if (e.state == State.UNRESOLVED) {
                uncharge(e);
            }
        }
    }

    /** {@code name} resolved: it costs no search any more. */
    synchronized void resolved(String name) {
        Entry e = entries.get(name);
        if (e != null && e.state == State.UNRESOLVED) {
            uncharge(e);
            move(e, State.RESOLVED);
        }
    }

    /** {@code name}'s server is gone: it is searched again, charged to its asker again. */
    synchronized void withdrawn(String name, long now) {
        Entry e = entries.get(name);
        if (e != null && e.state == State.RESOLVED) {
            move(e, State.UNRESOLVED);
            unresolved++;
            AskerState a = askers.get(e.asker);
            if (a == null) {
                a = new AskerState(e.asker, 0, now);
                askers.put(e.asker, a);
            }
            a.held++;
        }
    }

    private void move(Entry e, State to) {
        inState[e.state.ordinal()]--;
        inState[to.ordinal()]++;
        e.state = to;
    }

    private void uncharge(Entry e) {
        unresolved--;
        AskerState a = askers.get(e.asker);
        if (a != null) {
            a.held--;
        }
    }

    /** The names nobody asked for within the hold time, removed: the caller releases them. */
    synchronized List<String> expire(long now) {
        long hold = limits.holdNanos();
        List<String> gone = new ArrayList<>();
        for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Entry> m = it.next();
            Entry e = m.getValue();
            if (now - e.lastAsked > hold) {
                it.remove();
                inState[e.state.ordinal()]--;
                if (e.state == State.UNRESOLVED) {
                    uncharge(e);
                }
                gone.add(m.getKey());
            }
        }
        released += gone.size();
        return gone;
    }

    /** Every name, removed (the server stops): the caller releases them. */
    synchronized List<String> clear() {
        List<String> all = new ArrayList<>(entries.keySet());
        entries.clear();
        askers.clear();
        unresolved = 0;
        java.util.Arrays.fill(inState, 0);
        released += all.size();
        return all;
    }

    // ------------------------------------------------------------------ reporting

    /** Refusals since the last call, by reason, and the first askers refused; admissions meanwhile. */
    record Pending(Map<Answer, Long> refusals, Map<Asker, Answer> askers, long admitted) {
    }

    synchronized Pending takePending() {
        Pending p = new Pending(Map.copyOf(pending), Map.copyOf(pendingAskers), admittedSinceReport);
        pending.clear();
        pendingAskers.clear();
        admittedSinceReport = 0;
        return p;
    }

    synchronized int unresolved() {
        return unresolved;
    }

    int size() {
        return entries.size();
    }

    /** Names in state {@code s} now. */
    synchronized int count(State s) {
        return inState[s.ordinal()];
    }

    synchronized long admitted() {
        return admitted;
    }

    synchronized long released() {
        return released;
    }

    synchronized Map<Answer, Long> refusals() {
        Map<Answer, Long> m = new EnumMap<>(Answer.class);
        for (Answer a : Answer.values()) {
            if (a.refused()) {
                m.put(a, refusals.getOrDefault(a, 0L));
            }
        }
        return m;
    }

    /** The askers holding the most, then refused the most: the top {@code n}. */
    synchronized List<AskerReport> topAskers(int n) {
        List<AskerState> all = new ArrayList<>(askers.values());
        all.sort(Comparator.comparingInt((AskerState a) -> a.held).thenComparingLong(a -> a.refused).reversed());
        List<AskerReport> out = new ArrayList<>();
        for (AskerState a : all) {
            if (out.size() == n) {
                break;
            }
            out.add(new AskerReport(a.asker, a.held, a.admitted, a.refused, a.lastRefused));
        }
        return out;
    }

    synchronized int held(Asker a) {
        AskerState s = askers.get(a);
        return s == null ? 0 : s.held;
    }

    /** The entry of {@code name}, or null (tests). */
    Entry entry(String name) {
        return entries.get(name);
    }
}
