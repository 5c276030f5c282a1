package lookout.engine.pva.client;

import io.netty.buffer.ByteBuf;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.util.List;
import lookout.engine.api.Scheduler;
import lookout.engine.api.FailureFold;
import lookout.engine.net.HostPort;
import lookout.engine.net.NetError;
import lookout.engine.pva.wire.SearchDatagramBuilder;
import lookout.engine.seams.PvaPorts;

/**
 * Where each search datagram goes (seed 002 §3.3): to every UDP destination — with the Unicast
 * flag for a genuine unicast address (§5) — and to every ready name server (§6). Destination count
 * is a direct multiplier on egress traffic.
 *
 * <p>Send failures are logged by state, per destination ({@link FailureFold}): WARNING the first
 * time with the cause, DEBUG while they go on, a summary at most once a minute, INFO when a later
 * search to that destination leaves.
 *
 * <p>Concurrency: engine loop only (send outcomes hop in).
 */
final class SearchFanOut implements SearchPacker.Sink {

    private static final Logger LOG_SEARCH = System.getLogger("lookout.pva.client.search");

    private final Scheduler scheduler;
    private final NameServers nameServers;
    private final ClientCounters counters;
    private final FailureFold<InetSocketAddress> failures;
    private List<Destination> destinations = List.of();
    /** The last send error of each destination failing now (for "why?"). */
    private final java.util.Map<InetSocketAddress, String> lastError = new java.util.HashMap<>();
    private PvaPorts.Port socket;

    SearchFanOut(Scheduler scheduler, NameServers nameServers, ClientCounters counters, FailureFold.Sink log) {
        this.scheduler = scheduler;
        this.nameServers = nameServers;
        this.counters = counters;
        this.failures = new FailureFold<>(log, FailureFold.MINUTE, to -> "PVA search to " + HostPort.format(to));
    }

    /** The socket searches leave from (null: none, name servers only). */
    void via(PvaPorts.Port searchSocket) {
        this.socket = searchSocket;
    }

    /** The UDP destinations now; a destination no longer listed is forgotten. */
    void destinations(List<Destination> list) {
        for (Destination d : destinations) {
            if (!list.contains(d)) {
                failures.forget(d.address());
                lastError.remove(d.address());
            }
        }
        this.destinations = List.copyOf(list);
    }

    List<Destination> destinations() {
        return destinations;
    }

    /** Runs {@code work}, a drain: its datagrams leave the search socket in one batch, then the name servers'. */
    void together(Runnable work) {
        try {
            if (socket != null) {
                socket.together(work);
            } else {
                work.run();
            }
        } finally {
            nameServers.flush();
        }
    }

    @Override
    public void datagram(ByteBuf datagram, int names) {
        ByteBuf unicastCopy = null;
        try {
            if (socket != null) {
                for (Destination d : destinations) {
                    ByteBuf b;
                    if (d.unicast()) {
                        if (unicastCopy == null) {
                            unicastCopy = datagram.copy();
                            SearchDatagramBuilder.setUnicast(unicastCopy, 0, true);
                        }
                        b = unicastCopy.retainedDuplicate();
                    } else {
                        b = datagram.retainedDuplicate();
                    }
                    socket.send(b, d.address());
                }
            }
            nameServers.append(datagram);
        } finally {
            if (unicastCopy != null) {
                unicastCopy.release();
            }
        }
    }

    /** A search to {@code to} left. */
    void sent(InetSocketAddress to) {
        failures.succeeded(to, scheduler.nanoTime());
        lastError.remove(to);
    }

    /** A search to {@code to} did not leave ({@code to} null: an error of the socket itself, not a search's). */
    void failed(InetSocketAddress to, NetError error) {
        if (to == null) {
            LOG_SEARCH.log(Level.DEBUG, "search socket error: {0}", error.message());
            return;
        }
        counters.sendErrors++;
        failures.failed(to, "send error", error.message(), scheduler.nanoTime());
        lastError.put(to, error.message());
    }

    /** The destinations whose searches fail now, with their last error and how many failed. */
    List<lookout.engine.api.PvaChannelDiagnosis.SendFailure> sendFailures() {
        List<lookout.engine.api.PvaChannelDiagnosis.SendFailure> out = new java.util.ArrayList<>();
        for (Destination d : destinations) {
            if (failures.isFailing(d.address())) {
                out.add(new lookout.engine.api.PvaChannelDiagnosis.SendFailure(HostPort.format(d.address()),
                        lastError.getOrDefault(d.address(), "send error"), failures.failures(d.address())));
            }
        }
        return out;
    }

    /** For tests: whether searches to {@code to} are failing now. */
    boolean failing(InetSocketAddress to) {
        return failures.isFailing(to);
    }
}
