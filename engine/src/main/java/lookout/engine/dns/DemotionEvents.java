package lookout.engine.dns;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import lookout.engine.api.EngineEvent;
import lookout.engine.dns.upstream.DemotionMarks;
import lookout.engine.net.HostPort;

/**
 * The resolver's demotion events folded at the source, by state and per address, as
 * {@code core.FailureFold} folds log lines (after PVXS's {@code lastSuccess}): one
 * {@link EngineEvent.UpstreamDemoted} when an address becomes demoted, then, while further failures
 * renew its mark, at most one {@link EngineEvent.UpstreamStillFailing} a minute with the failures
 * by reason, and one {@link EngineEvent.UpstreamRestored} when the mark ends. A dead upstream under
 * load is then a handful of events, not one per failed attempt (a WARNING line each in the headless
 * log); the snapshot's counters still count every demotion and failure.
 *
 * <p>A pure structure: every method takes {@code now} (scheduler nanoseconds, compared by
 * difference) and the wall time to stamp events with. Concurrency: the engine loop only, like the
 * marks it follows.
 */
final class DemotionEvents {

    /** At most one summary a minute per address. */
    static final long SUMMARY_NANOS = 60_000_000_000L;

    private final Consumer<EngineEvent> publish;
    private final Supplier<Instant> wall;
    private final Map<InetSocketAddress, Episode> demoted = new HashMap<>();

    /** One address's time demoted: failures by reason since the last event about it, and since when. */
    private static final class Episode {
        long windowStart;
        final Map<String, Long> window = new LinkedHashMap<>();

        Episode(long now) {
            windowStart = now;
        }
    }

    /**
     * @param publish where the events go
     * @param wall    the wall clock events are stamped with (read only when one is published)
     */
    DemotionEvents(Consumer<EngineEvent> publish, Supplier<Instant> wall) {
        this.publish = publish;
        this.wall = wall;
    }

    /**
     * {@code server} was demoted ({@code renewed}: its mark was live and moved forward) for a failure
     * of kind {@code label} ({@code detail}: what more the first event says, or null). Nothing is
     * put together unless an event goes out: under load this runs for every failed attempt.
     */
    void demoted(InetSocketAddress server, String label, String detail, boolean renewed, long now) {
        Episode e = demoted.get(server);
        if (!renewed || e == null) {
            demoted.put(server, new Episode(now));
            Instant at = wall.get();
            publish.accept(new EngineEvent.UpstreamDemoted(at, HostPort.format(server),
                    detail == null ? label : label + ": " + detail, at.plusNanos(DemotionMarks.MARK_NANOS), false));
            return;
        }
        e.window.merge(label, 1L, Long::sum);
        long window = now - e.windowStart;
        if (window >= SUMMARY_NANOS) {
            publish.accept(new EngineEvent.UpstreamStillFailing(wall.get(), HostPort.format(server), e.window,
                    Duration.ofNanos(window)));
            e.window.clear();
            e.windowStart = now;
        }
    }

    /** {@code server}'s mark ended ({@code how}: cleared by a reply, or expired). */
    void restored(InetSocketAddress server, String how) {
        demoted.remove(server);
        publish.accept(new EngineEvent.UpstreamRestored(wall.get(), HostPort.format(server), how));
    }

    /** Live reload: addresses no longer configured are forgotten without an event (their marks went with them). */
    void retainOnly(Set<InetSocketAddress> configured) {
        demoted.keySet().retainAll(configured);
    }

    /** Addresses demoted now, as this fold knows them (tests). */
    int demotedCount() {
        return demoted.size();
    }
}
