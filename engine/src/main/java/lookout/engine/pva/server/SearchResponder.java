package lookout.engine.pva.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
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
 * per-search state. Confined to the engine loop; the sockets decode on their I/O thread and hop
 * in with the decoded messages.
 */
final class SearchResponder {

    /** How the responder puts bytes on the wire; implemented by the UDP listener. */
    interface Transmit {
        /** Sends one reply from the socket bound to {@code from} (or a fallback); false when backlogged. */
        boolean reply(ByteBuf message, InetSocketAddress to, InetAddress from);

        /** Sends a forwarded datagram to the loopback group of the family of {@code origin}. */
        boolean forward(ByteBuf datagram, InetAddress origin);

        ByteBufAllocator alloc();
    }

    private final SourceRegistry registry;
    private final ServerCounters counters;
    private final TopNames topNames;
    private final Scheduler scheduler;
    private final Guid guid;
    private final Supplier<Integer> tcpPort;
    private IgnoreList ignore;
    private boolean forwarding;
    private Transmit transmit;

    SearchResponder(SourceRegistry registry, ServerCounters counters, TopNames topNames, Scheduler scheduler,
                    Guid guid, Supplier<Integer> tcpPort, IgnoreList ignore) {
        this.registry = registry;
        this.counters = counters;
        this.topNames = topNames;
        this.scheduler = scheduler;
        this.guid = guid;
        this.tcpPort = tcpPort;
        this.ignore = ignore;
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

    /** One received datagram, already decoded on the I/O thread. */
    void onDatagram(DatagramContents contents, InetSocketAddress source, Arrival arrival) {
        // seed 002 §4 step 1: the ignore list comes before anything else.
        if (ignore.matches(source)) {
            counters.ignored++;
            return;
        }
        if (contents.dropped()) {
            counters.malformed++;
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
        for (Frame f : contents.frames()) {
            if (f.message() instanceof SearchRequest req) {
                counters.searchesReceived++;
                onSearch(req, source, arrival, tags, tag);
            }
        }
    }

    private void onSearch(SearchRequest req, InetSocketAddress source, Arrival arrival, int tags, OriginTag tag) {
        InetAddress src = source.getAddress();
        boolean replyAny = WireAddress.isAny(req.replyAddress());
        // §5: the tag is trusted only when it came over loopback to the group. A loopback source
        // cannot arrive from off-host (the kernel drops martians), so a GROUP socket datagram with
        // a loopback source arrived on loopback.
        InetAddress unmapped = WireAddress.unmap(src);
        boolean onLoopbackToGroup = arrival.kind() == Kind.GROUP && unmapped.isLoopbackAddress();
        ForwardingRules.Verdict v = ForwardingRules.decide(unmapped.isMulticastAddress(), tags,
                onLoopbackToGroup, arrival.kind() == Kind.OWN_UNICAST, req.unicast(), replyAny,
                forwarding && transmit != null);
        switch (v.action()) {
            case DROP -> counters.drop(v.drop());
            case FORWARD -> forward(req, source, arrival);
            case ANSWER -> {
                InetAddress replyAddr = replyAny ? src : req.replyAddress();
                InetSocketAddress client = new InetSocketAddress(replyAddr, req.replyPort());
                InetAddress from = arrival.replyFrom();
                if (tag != null && !WireAddress.isAny(tag.origin())) {
                    from = tag.origin(); // §4: reply from the address the client sent to
                }
                List<SearchResponse> replies = answer(req, client, tcpPort.get());
                for (SearchResponse r : replies) {
                    sendUdp(r, client, from);
                }
            }
        }
    }

    private void forward(SearchRequest req, InetSocketAddress source, Arrival arrival) {
        // §5 steps 1–3: reply address resolved to the client, Unicast cleared, tag prepended.
        InetAddress client = WireAddress.orSource(req.replyAddress(), source.getAddress());
        SearchRequest fwd = req.withFlags(req.flags() & ~Pva.SEARCH_UNICAST).withReply(client, req.replyPort());
        ByteBuf buf = transmit.alloc().buffer(256);
        try {
            PvaCodec.encode(new OriginTag(arrival.local()), buf);
            PvaCodec.encode(fwd, buf);
        } catch (RuntimeException e) {
            buf.release();
            counters.malformed++;
            return;
        }
        if (transmit.forward(buf, arrival.local())) {
            counters.forwarded++;
        } else {
            counters.sendBacklog++;
        }
    }

    private void sendUdp(SearchResponse r, InetSocketAddress to, InetAddress from) {
        ByteBuf buf = transmit.alloc().buffer(64 + 4 * r.cids().size());
        PvaCodec.encode(r, buf);
        if (transmit.reply(buf, to, from)) {
            counters.repliesSent++;
        } else {
            counters.sendBacklog++;
        }
    }

    /**
     * seed 002 §4 steps 2–4 (and §6 over TCP, §7 discovery): the replies for one search, none
     * when nothing was claimed and MustReply is clear.
     *
     * @param ownPort the TCP port named for this server's own claims (the receiving listener's over TCP)
     */
    List<SearchResponse> answer(SearchRequest req, InetSocketAddress client, int ownPort) {
        List<SearchRequest.Name> names = req.names();
        int n = names.size();
        String[] ns = new String[n];
        int[] cids = new int[n];
        boolean tcp = false;
        for (String p : req.protocols()) {
            tcp |= "tcp".equals(p);
        }
        if (!tcp) {
            n = 0; // PVXS offers names only when "tcp" is among the protocols
        }
        for (int i = 0; i < n; i++) {
            ns[i] = names.get(i).name();
            cids[i] = names.get(i).cid();
        }
        if (n < names.size()) {
            ns = new String[0];
            cids = new int[0];
        }
        counters.namesSearched += ns.length;
        if (ns.length > 0) {
            long now = scheduler.nanoTime();
            for (String name : ns) {
                topNames.searched(name, client, now);
            }
        }
        SearchOperation op = registry.search(ns, cids);
        if (op.claimedCount() == 0) {
            if (!req.mustReply()) {
                return List.of();
            }
            counters.discoveryReplies += req.discoveryPing() ? 1 : 0;
            return List.of(new SearchResponse(guid, req.sequenceId(), WireAddress.ANY_MAPPED, ownPort, "tcp",
                    false, List.of()));
        }
        counters.namesClaimed += op.claimedCount();
        List<SearchResponse> out = new ArrayList<>(1);
        for (SearchOperation.ReplyGroup g : op.groups()) {
            List<Integer> ids = new ArrayList<>(g.cids().length);
            for (int c : g.cids()) {
                ids.add(c);
            }
            if (g.self()) {
                out.add(new SearchResponse(guid, req.sequenceId(), WireAddress.ANY_MAPPED, ownPort, "tcp", true, ids));
            } else {
                out.add(new SearchResponse(Guid.of(g.guid()), req.sequenceId(), g.endpoint().getAddress(),
                        g.endpoint().getPort(), "tcp", true, ids));
            }
        }
        return out;
    }
}
