package lookout.engine.pva.client;

import io.netty.buffer.ByteBufUtil;
import io.netty.util.collection.IntObjectHashMap;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import lookout.engine.pva.wire.Guid;
import lookout.engine.seams.ResolvedNames;
import lookout.engine.seams.ResolvedNames.Resolution;

/**
 * The client's channels (seed 002 §3.1): one per PV name, with a CID stable for its life, and why
 * it exists — watched ({@code pva.watch}), searched by an operator, or wanted by the engine's own
 * server on behalf of its clients (an on-demand name, until the server releases it: the server
 * decides how long, and how many). A channel nothing references any more goes after two
 * consecutive 10-s sweeps, so search traffic for an abandoned name stops within 10–20 s; one an
 * operator stops searching leaves the ring at once (it stays in the cache, and searches again from
 * the cursor if referenced again before it goes); one the server releases goes at once, the
 * server having held it while clients asked.
 *
 * <p>Resolution is recorded here ({@link #resolved}, {@link #withdraw}) and told to the
 * {@link ResolvedNames} listeners; where a channel sits in the ring is the {@link Searching}
 * side's business.
 *
 * <p>Concurrency: engine loop only; {@code listeners} is copy-on-write for any thread.
 */
final class ChannelRegistry {

    private static final Logger LOG = System.getLogger("lookout.pva.client");

    /** The ring side of a channel's life. */
    interface Searching {
        /** True when a name of {@code utf8Length} bytes can be searched at all (§3.3: the 64 KiB buffer). */
        boolean fits(int utf8Length);

        /** A new channel: its first search, coalesced with others created within 10 ms (§3.2). */
        void begin(PvChannel c);

        /** The channel is no longer searched (resolved or discarded). */
        void end(PvChannel c);

        /** The channel searches again from the next tick, backoff restarted (§3.6: server lost). */
        void again(PvChannel c);
    }

    /** Why a name was refused (too long for any datagram); the caller tells the operator. */
    interface Refusals {
        void tooLong(String name, int utf8Length);
    }

    private final Searching searching;
    private final Refusals refusals;
    private final ClientCounters counters;
    private final Map<String, PvChannel> byName = new HashMap<>();
    private final IntObjectHashMap<PvChannel> byCid = new IntObjectHashMap<>();
    private int nextCid = 1;
    /** Channels in RESOLVED, kept in step so that a snapshot does not walk a million channels. */
    private long resolvedCount;
    /** Names searched by an operator, listed first in the snapshot. */
    private final Set<String> operatorNames = new LinkedHashSet<>();
    private final List<ResolvedNames.Listener> listeners = new CopyOnWriteArrayList<>();
    /** Resolved channels by endpoint, with the GUID of the last one: what the claims rest on. */
    private final Map<InetSocketAddress, Claimed> byEndpoint = new HashMap<>();

    /**
     * The resolved channels of one endpoint: how many, the GUID of the last one, and how many each
     * GUID claimed (one, unless the endpoint's server was replaced while some of its names stayed
     * resolved): a beacon vouches for an endpoint's claims only when they are all its own GUID's.
     */
    static final class Claimed {
        int channels;
        Guid guid;
        final Map<Guid, Integer> byGuid = new HashMap<>(2);
        /** The endpoint as the map holds it: every channel resolved here refers to this one. */
        InetSocketAddress endpoint;

        /** {@code g} as a channel here already holds it, so that they share one object; else {@code g}. */
        Guid shared(Guid g) {
            for (Guid held : byGuid.keySet()) {
                if (held.equals(g)) {
                    return held;
                }
            }
            return g;
        }

        /** The one GUID every channel here was claimed by, or null when there are several. */
        Guid soleGuid() {
            return byGuid.size() == 1 ? byGuid.keySet().iterator().next() : null;
        }

        /** True when some channel here was claimed by another server than {@code g}. */
        boolean claimedByOtherThan(Guid g) {
            return byGuid.size() > 1 || !byGuid.containsKey(g);
        }
    }

    ChannelRegistry(Searching searching, Refusals refusals, ClientCounters counters) {
        this.searching = searching;
        this.refusals = refusals;
        this.counters = counters;
    }

    // ------------------------------------------------------------------ references

    /** Gets or creates the channel of {@code name} and sets reference {@code reason}; null when refused. */
    PvChannel reference(String name, byte reason) {
        PvChannel c = byName.get(name);
        if (c == null) {
            int length = ByteBufUtil.utf8Bytes(name);
            if (!searching.fits(length)) {
                // seed 002 §3.3: a name too long for the 64 KiB buffer is dropped with an error
                counters.namesTooLong++;
                refusals.tooLong(name, length);
                return null;
            }
            c = new PvChannel(name, allocateCid());
            byName.put(name, c);
            byCid.put(c.cid, c);
            searching.begin(c);
        } else if (c.state == ChannelState.SEARCHING && c.bucket == PvChannel.NOWHERE) {
            // stopped by an operator and referenced again before it went: back into the ring
            searching.again(c);
        }
        c.refs |= reason;
        c.refs &= ~PvChannel.SWEEP_MARK;
        return c;
    }

    /** The server wants {@code name} searched for its clients; see {@link ResolvedNames#want}. */
    ResolvedNames.Want want(String name) {
        if (byName.containsKey(name)) {
            reference(name, PvChannel.REF_WANTED);
            return ResolvedNames.Want.EXISTING;
        }
        return reference(name, PvChannel.REF_WANTED) == null ? ResolvedNames.Want.REFUSED : ResolvedNames.Want.NEW;
    }

    /** The server no longer wants {@code name}: it goes now, unless watched or an operator's. */
    void release(String name) {
        PvChannel c = byName.get(name);
        if (c == null || !c.wanted()) {
            return;
        }
        c.refs &= ~PvChannel.REF_WANTED;
        if (!c.referenced()) {
            discard(c);
        }
    }

    /** The watch list is now {@code names}: others lose that reference (and go by the cache rule). */
    void watch(List<String> names) {
        // SPEC live reload: channels still watched keep their ring position — only flags change
        Set<String> keep = new HashSet<>(names);
        for (PvChannel c : byName.values()) {
            if (c.watched() && !keep.contains(c.name)) {
                c.refs &= ~PvChannel.REF_WATCHED;
            }
        }
        for (String w : names) {
            reference(w, PvChannel.REF_WATCHED);
        }
    }

    /** An operator searches {@code name} until {@link #drop}. */
    void operator(String name) {
        if (reference(name, PvChannel.REF_OPERATOR) != null) {
            operatorNames.add(name);
        }
    }

    /**
     * An operator no longer wants {@code name}: unless something else references it, it is not
     * searched any more from now on ("Stop searching" stops), and it goes from the cache after two
     * sweeps (§3.1).
     */
    void drop(String name) {
        PvChannel c = byName.get(name);
        if (c != null) {
            operatorNames.remove(c.name);
            c.refs &= ~PvChannel.REF_OPERATOR;
            if (!c.referenced() && c.state == ChannelState.SEARCHING) {
                searching.end(c);
            }
        }
    }

    private int allocateCid() {
        // CIDs are stable for a channel's life; skip any still in use after wrap-around
        for (int i = 0; i < Integer.MAX_VALUE; i++) {
            int cid = nextCid++;
            if (nextCid == Integer.MAX_VALUE) {
                nextCid = 1;
            }
            if (!byCid.containsKey(cid)) {
                return cid;
            }
        }
        throw new IllegalStateException("no free CID");
    }

    /** seed 002 §3.1: unreferenced channels go after two consecutive sweeps. */
    void sweep() {
        List<PvChannel> gone = new ArrayList<>();
        for (PvChannel c : byName.values()) {
            if (c.referenced()) {
                c.refs &= ~PvChannel.SWEEP_MARK;
            } else if ((c.refs & PvChannel.SWEEP_MARK) != 0) {
                gone.add(c);
            } else {
                c.refs |= PvChannel.SWEEP_MARK;
            }
        }
        gone.forEach(this::discard);
    }

    private void discard(PvChannel c) {
        searching.end(c);
        byCid.remove(c.cid);
        byName.remove(c.name);
        operatorNames.remove(c.name);
        if (c.state == ChannelState.RESOLVED) {
            resolvedCount--;
            uncount(c);
            Resolution r = resolution(c);
            listeners.forEach(l -> safely(() -> l.withdrawn(r)));
        }
    }

    // ------------------------------------------------------------------ resolution

    /** seed 002 §3.5 step 4: {@code c} is claimed by {@code guid} at {@code endpoint}; it leaves the ring. */
    void resolved(PvChannel c, Guid guid, InetSocketAddress endpoint) {
        // the channels one server claims share its endpoint and GUID objects, as the map holds
        // them: a name server resolving 100 000 names from one server keeps one of each, not
        // 100 000 (about 150 bytes a name of the engine's live heap, bench/results/round-2026-12.md)
        Claimed k = byEndpoint.get(endpoint);
        if (k == null) {
            k = new Claimed();
            k.endpoint = endpoint;
            byEndpoint.put(endpoint, k);
        }
        Guid g = k.shared(guid);
        c.state = ChannelState.RESOLVED;
        c.guid = g;
        c.endpoint = k.endpoint;
        c.attempts = 0;
        searching.end(c);
        resolvedCount++;
        counters.resolvedTotal++;
        k.channels++;
        k.guid = g;
        k.byGuid.merge(g, 1, Integer::sum);
        Resolution res = resolution(c);
        listeners.forEach(l -> safely(() -> l.resolved(res)));
    }

    /**
     * The server that claimed these channels is gone (lost or restarted): like a TCP connection
     * lost while Active (§3.6), its channels search again from the next tick, backoff restarted.
     * Returns how many.
     */
    int withdraw(Guid guid, InetSocketAddress endpoint) {
        return withdrawIf(c -> guid.equals(c.guid) && endpoint.equals(c.endpoint), endpoint);
    }

    /** Whatever claimed these channels at {@code endpoint} failed its check: as {@link #withdraw}, any GUID. */
    int withdrawEndpoint(InetSocketAddress endpoint) {
        return withdrawIf(c -> endpoint.equals(c.endpoint), endpoint);
    }

    /**
     * {@code guid} announced itself at {@code endpoint} (a beacon, a discovery answer): the channels
     * resolved there to another GUID rest on a server that no longer holds that TCP endpoint — a
     * TCP endpoint is one server, and a changed GUID is a restart (seed 002 §3.4) —, so they are
     * withdrawn as {@link #withdraw} does. Returns how many; cheap when there are none.
     */
    int withdrawOthers(Guid guid, InetSocketAddress endpoint) {
        Claimed k = byEndpoint.get(endpoint);
        if (k == null || !k.claimedByOtherThan(guid)) {
            return 0;
        }
        return withdrawIf(c -> endpoint.equals(c.endpoint) && !guid.equals(c.guid), endpoint);
    }

    private int withdrawIf(java.util.function.Predicate<PvChannel> which, InetSocketAddress endpoint) {
        if (!byEndpoint.containsKey(endpoint)) {
            return 0;
        }
        List<PvChannel> hit = new ArrayList<>();
        for (PvChannel c : byName.values()) {
            if (c.state == ChannelState.RESOLVED && which.test(c)) {
                hit.add(c);
            }
        }
        for (PvChannel c : hit) {
            Resolution old = resolution(c);
            resolvedCount--;
            uncount(c);
            c.state = ChannelState.SEARCHING;
            c.guid = null;
            c.endpoint = null;
            c.attempts = 0;
            searching.again(c);
            listeners.forEach(l -> safely(() -> l.withdrawn(old)));
        }
        return hit.size();
    }

    private void uncount(PvChannel c) {
        Claimed k = byEndpoint.get(c.endpoint);
        if (k == null) {
            return;
        }
        k.byGuid.computeIfPresent(c.guid, (g, n) -> n > 1 ? n - 1 : null);
        if (--k.channels <= 0) {
            byEndpoint.remove(c.endpoint);
        }
    }

    /** The endpoints resolved channels rest on, with how many and the GUID (a copy). */
    Map<InetSocketAddress, Claimed> claimedEndpoints() {
        Map<InetSocketAddress, Claimed> out = new java.util.LinkedHashMap<>();
        byEndpoint.forEach((e, k) -> {
            Claimed c = new Claimed();
            c.endpoint = k.endpoint;
            c.channels = k.channels;
            c.guid = k.guid;
            c.byGuid.putAll(k.byGuid);
            out.put(e, c);
        });
        return out;
    }

    /** Every live resolution. */
    List<Resolution> resolutions() {
        List<Resolution> out = new ArrayList<>();
        for (PvChannel c : byName.values()) {
            if (c.state == ChannelState.RESOLVED) {
                out.add(resolution(c));
            }
        }
        return out;
    }

    /** The live resolution of {@code name}, or null. */
    Resolution lookup(String name) {
        PvChannel c = byName.get(name);
        return c != null && c.state == ChannelState.RESOLVED ? resolution(c) : null;
    }

    void addListener(ResolvedNames.Listener l) {
        listeners.add(l);
    }

    void removeListener(ResolvedNames.Listener l) {
        listeners.remove(l);
    }

    private static Resolution resolution(PvChannel c) {
        return new Resolution(c.name, c.guid.toString(), c.endpoint);
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "PVA client listener failed", e);
        }
    }

    // ------------------------------------------------------------------ reading

    PvChannel byCid(int cid) {
        return byCid.get(cid);
    }

    PvChannel byName(String name) {
        return byName.get(name);
    }

    int size() {
        return byName.size();
    }

    long resolvedCount() {
        return resolvedCount;
    }

    /** Every channel, in no particular order. */
    Collection<PvChannel> channels() {
        return Collections.unmodifiableCollection(byName.values());
    }

    /** The names searched by an operator, in the order they were asked for. */
    Set<String> operatorNames() {
        return Collections.unmodifiableSet(operatorNames);
    }
}
