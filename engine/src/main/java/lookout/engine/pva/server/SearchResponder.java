package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import lookout.engine.api.PvaServerSnapshot.SearchedName;
import lookout.engine.api.Scheduler;
import lookout.engine.pva.wire.DatagramContents;
import lookout.engine.pva.wire.Frame;
import lookout.engine.pva.wire.Guid;
import lookout.engine.pva.wire.OriginTag;
import lookout.engine.pva.wire.Pva;
import lookout.engine.pva.wire.PvaCodec;
import lookout.engine.pva.wire.SearchRequest;
import lookout.engine.pva.wire.SearchResponse;
import lookout.engine.pva.wire.WireAddress;
import lookout.engine.seams.PvaPorts.Arrival;
import lookout.engine.seams.PvaPorts.Kind;

/**
 * The server's answer to CMD_SEARCH (seed 002 §4), for UDP datagrams and TCP name-server
 * connections alike, with the unicast-forwarding rules of §5 on the UDP side. It holds no
 * per-search state.
 *
 * <p>Concurrency: called on every responder thread at once (and on name-server connections'
 * loops). What it reads is final, volatile (the ignore list, the transmit side, the TCP port) or
 * thread-safe (the sources, the counters); the most-searched table is one per thread, each under
 * its own lock, merged by snapshots. See docs/adr/0006-pva-responder-threads.md.
 */
final class SearchResponder {

    /** How the responder puts bytes on the wire; implemented by the UDP listener. Any thread. */
    interface Transmit {
        /** Sends one reply from the socket bound to {@code from} (or a fallback); false when backlogged. */
        boolean reply(ByteBuf message, InetSocketAddress to, InetAddress from);

        /** Sends a forwarded datagram to the loopback group of the family of {@code origin}. */
        boolean forward(ByteBuf datagram, InetAddress origin);

        /** True when forwarding works at all (a group joined). */
        boolean forwarding();

        /** True when another process may listen on the port (seed 002 §5's forwarding is for it). */
        boolean othersListening();

        /** True when {@code source} is our own forwarding socket. */
        boolean ownForwarder(InetSocketAddress source);

        ByteBufAllocator alloc();
    }

    private final SourceRegistry registry;
    private final ServerCounters counters;
    private final int topCapacity;
    private final Scheduler scheduler;
    private final Guid guid;
    private final IntSupplier tcpPort;
    private final Predicate<InetSocketAddress> ownSearcher;
    private volatile IgnoreList ignore;
    private volatile boolean forwarding;
    private volatile Transmit transmit;
    /** The most searched names, one table per answering thread (each under its own lock). */
    private final List<TopNames> tops = new CopyOnWriteArrayList<>();
    private final ThreadLocal<TopNames> top;

    /**
     * @param ownSearcher true for an endpoint the engine's own PVA client searches from (any thread)
     */
    SearchResponder(SourceRegistry registry, ServerCounters counters, int topCapacity, Scheduler scheduler, Guid guid,
                    IntSupplier tcpPort, IgnoreList ignore, Predicate<InetSocketAddress> ownSearcher) {
        this.registry = registry;
        this.counters = counters;
        this.topCapacity = topCapacity;
        this.scheduler = scheduler;
        this.guid = guid;
        this.tcpPort = tcpPort;
        this.ignore = ignore;
        this.ownSearcher = ownSearcher;
        this.top = ThreadLocal.withInitial(() -> {
            TopNames t = new TopNames(topCapacity);
            tops.add(t);
            return t;
        });
    }

    void transmit(Transmit t, boolean forwardingEnabled) {
        this.transmit = t;
        this.forwarding = forwardingEnabled;
    }

    void ignore(IgnoreList list) {
        this.ignore = list;
    }

    boolean forwarding() {
        return forwarding;
    }

    /** One received datagram, decoded, on the thread that read it. */
    void onDatagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
        onDatagram(contents, null, source, arrival);
    }

    /**
     * This server's own forwarded copy, back on a group socket and dropped undecoded by the port
     * owner (where the kernel's filter did not drop it): counted as the forwarding rules would
     * count it. It is ours — the source is our forwarding socket — and we always send exactly one
     * ORIGIN_TAG before one SEARCH, over loopback to the group, from 127.0.0.1 or ::1: rule 4 and
     * rules 1–2 pass, and the rules drop it as {@code own_forwarded_copy}. The ignore list still
     * comes first (§4 step 1).
     */
    void onOwnCopy(InetSocketAddress source) {
        if (ignore.matches(source)) {
            counters.ignored.increment();
            return;
        }
        counters.searchesReceived.increment();
        counters.drop(ForwardingRules.Drop.OWN_COPY);
    }

    /**
     * One received datagram, decoded, on the thread that read it; {@code raw} its bytes (valid
     * during the call; null when not at hand), from which a forwarded copy is made.
     */
    void onDatagram(DatagramContents contents, ByteBuf raw, InetSocketAddress source, Arrival arrival) {
        // seed 002 §4 step 1: the ignore list comes before anything else.
        if (ignore.matches(source)) {
            counters.ignored.increment();
            return;
        }
        if (contents.dropped()) {
            counters.malformed.increment();
            return;
        }
        int tags = 0;
        OriginTag tag = null;
        for (Frame f : contents.frames()) {
            if (f.message() instanceof OriginTag t) {
                tags++;
                tag = t;
            }
        }
        // beacons and search replies on the shared port are the client's: the port owner hands
        // them to it directly
        int offset = raw == null ? -1 : raw.readerIndex();
        for (Frame f : contents.frames()) {
            if (f.message() instanceof SearchRequest req) {
                counters.searchesReceived.increment();
                onSearch(req, raw, offset, source, arrival, tags, tag);
            }
            if (offset >= 0) {
                offset += Pva.HEADER_SIZE + (int) f.header().payloadLength();
            }
        }
    }

    private void onSearch(SearchRequest req, ByteBuf raw, int offset, InetSocketAddress source, Arrival arrival,
                          int tags, OriginTag tag) {
        InetAddress src = source.getAddress();
        boolean replyAny = WireAddress.isAny(req.replyAddress());
        Transmit t = transmit;
        // §5: the tag is trusted only when it came over loopback to the group. A loopback source
        // cannot arrive from off-host (the kernel drops martians), so a GROUP socket datagram with
        // a loopback source arrived on loopback.
        InetAddress unmapped = WireAddress.unmap(src);
        boolean onLoopbackToGroup = arrival.kind() == Kind.GROUP && unmapped.isLoopbackAddress();
        boolean canForward = forwarding && t != null;
        ForwardingRules.Verdict v = ForwardingRules.decide(unmapped.isMulticastAddress(), tags, onLoopbackToGroup,
                t != null && t.ownForwarder(source), arrival.kind() == Kind.OWN_UNICAST, req.unicast(), replyAny,
                canForward, canForward && t.othersListening());
        if (v.action() == ForwardingRules.Action.DROP) {
            counters.drop(v.drop());
            return;
        }
        if (v.notReforwarded()) {
            counters.notReforwarded.increment();
        }
        if (v.action() == ForwardingRules.Action.ANSWER_AND_FORWARD) {
            forward(t, req, raw, offset, source, arrival);
        }
        InetAddress replyAddr = replyAny ? src : req.replyAddress();
        // as a rule the client asks for replies where it searched from: its address as received
        InetSocketAddress client = replyAny && req.replyPort() == source.getPort()
                ? source : new InetSocketAddress(replyAddr, req.replyPort());
        InetAddress from = arrival.replyFrom();
        if (tag != null && !WireAddress.isAny(tag.origin())) {
            from = tag.origin(); // §4: reply from the address the client sent to
        }
        // who asked: the datagram's source, or for a forwarded copy the client it names
        Asker asker = Asker.udp(tag != null ? replyAddr : src);
        for (SearchResponse r : answer(req, client, tcpPort.getAsInt(), asker)) {
            sendUdp(t, r, client, from);
        }
    }

    private void forward(Transmit t, SearchRequest req, ByteBuf raw, int offset, InetSocketAddress source,
                         Arrival arrival) {
        // §5 steps 1–3: reply address resolved to the client, Unicast cleared, tag prepended —
        // on the received bytes where they are at hand (no second encoding of every name), else
        // encoded again from the request
        InetAddress client = WireAddress.orSource(req.replyAddress(), source.getAddress());
        ByteBuf buf = t.alloc().directBuffer(raw != null ? raw.readableBytes() + 32 : 256);
        try {
            if (raw == null || !PvaCodec.forwardedSearch(raw, offset, arrival.local(), client, buf)) {
                buf.clear();
                PvaCodec.encode(new OriginTag(arrival.local()), buf);
                PvaCodec.encode(req.withFlags(req.flags() & ~Pva.SEARCH_UNICAST).withReply(client, req.replyPort()), buf);
            }
        } catch (RuntimeException e) {
            buf.release();
            counters.malformed.increment();
            return;
        }
        if (t.forward(buf, arrival.local())) {
            counters.forwarded.increment();
        } else {
            counters.sendBacklog.increment();
        }
    }

    private void sendUdp(Transmit t, SearchResponse r, InetSocketAddress to, InetAddress from) {
        if (t == null) {
            return;
        }
        ByteBuf buf = t.alloc().buffer(64 + 4 * r.cids().size());
        PvaCodec.encode(r, buf);
        if (t.reply(buf, to, from)) {
            counters.repliesSent.increment();
        } else {
            counters.sendBacklog.increment();
        }
    }

    /**
     * seed 002 §4 steps 2–4 (and §6 over TCP, §7 discovery): the replies for one search, none
     * when nothing was claimed and MustReply is clear.
     *
     * @param client  where replies go (the asking client's endpoint, or over TCP its connection's peer)
     * @param ownPort the TCP port named for this server's own claims (the receiving listener's over TCP)
     * @param asker   who asked, for the on-demand limits
     */
    List<SearchResponse> answer(SearchRequest req, InetSocketAddress client, int ownPort, Asker asker) {
        List<SearchRequest.Name> names = req.names();
        int n = names.size();
        boolean tcp = false;
        List<String> protocols = req.protocols();
        for (int i = 0; i < protocols.size(); i++) {
            tcp |= "tcp".equals(protocols.get(i));
        }
        if (!tcp) {
            n = 0; // PVXS offers names only when "tcp" is among the protocols
        }
        String[] ns = new String[n];
        int[] cids = new int[n];
        for (int i = 0; i < n; i++) {
            ns[i] = names.get(i).name();
            cids[i] = names.get(i).cid();
        }
        long now = scheduler.nanoTime();
        boolean own = n > 0 && ownSearcher.test(client);
        if (n > 0) {
            counters.namesSearched.add(n);
            if (own) {
                counters.ownSearches.increment();
            }
            TopNames t = top.get();
            synchronized (t) {
                for (String name : ns) {
                    t.searched(name, client, now);
                }
            }
        }
        SearchOperation op = registry.search(new SearchOperation(ns, cids, asker, own, now));
        if (op.claimedCount() == 0) {
            if (!req.mustReply()) {
                return List.of();
            }
            if (req.discoveryPing()) {
                counters.discoveryReplies.increment();
            }
            return List.of(new SearchResponse(guid, req.sequenceId(), WireAddress.ANY_MAPPED, ownPort, "tcp",
                    false, List.of()));
        }
        counters.namesClaimed.add(op.claimedCount());
        List<SearchOperation.ReplyGroup> groups = op.groups();
        if (groups.size() == 1) {
            return List.of(reply(groups.get(0), req, ownPort));
        }
        List<SearchResponse> out = new ArrayList<>(groups.size());
        for (SearchOperation.ReplyGroup g : groups) {
            out.add(reply(g, req, ownPort));
        }
        return out;
    }

    private SearchResponse reply(SearchOperation.ReplyGroup g, SearchRequest req, int ownPort) {
        // the group's CIDs are read once, by the encoder: no copy of them
        List<Integer> ids = SearchResponse.cidsOf(g.cids());
        if (g.self()) {
            return new SearchResponse(guid, req.sequenceId(), WireAddress.ANY_MAPPED, ownPort, "tcp", true, ids);
        }
        return new SearchResponse(g.server(), req.sequenceId(), g.endpoint().getAddress(), g.endpoint().getPort(),
                "tcp", true, ids);
    }

    /** The most searched names over every answering thread, most searched first. */
    List<SearchedName> topNames(int n, long nowNanos, Instant now) {
        Map<String, SearchedName> merged = new HashMap<>();
        for (TopNames t : tops) {
            List<SearchedName> part;
            synchronized (t) {
                part = t.top(Math.max(n * 10, 100), nowNanos, now);
            }
            for (SearchedName s : part) {
                merged.merge(s.name(), s, (a, b) -> new SearchedName(a.name(), a.count() + b.count(),
                        a.lastSearch().isAfter(b.lastSearch()) ? a.lastClient() : b.lastClient(),
                        a.lastSearch().isAfter(b.lastSearch()) ? a.lastSearch() : b.lastSearch()));
            }
        }
        List<SearchedName> all = new ArrayList<>(merged.values());
        all.sort(java.util.Comparator.comparingLong(SearchedName::count).reversed().thenComparing(SearchedName::name));
        return all.size() > n ? List.copyOf(all.subList(0, n)) : List.copyOf(all);
    }

    int topCapacity() {
        return topCapacity;
    }
}
