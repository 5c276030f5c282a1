package lookout.engine.pva.udp;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import lookout.engine.api.Scheduler;
import lookout.engine.net.UdpEndpoint;

/**
 * Which of the loops that read one unicast address ({@code SO_REUSEPORT}: a socket per responder
 * loop, docs/adr/0006-pva-responder-threads.md) get its datagrams. Left alone, the kernel spreads
 * the senders over the sockets by their flows, so every loop wakes for a share of every burst: on
 * two cores with the load generator on one of them, a one-name search cost 7.9 µs of CPU read by
 * two loops and 6.6 read by one (bench/results/round-2026-12.md, issue 24) — the difference is
 * the scheduler waking one more thread, not the work. So while the first loop keeps up, every
 * datagram goes to the first socket, and when it falls behind they are spread over all of them
 * again, which is what the loops are for (a flood from the network, issue 18).
 *
 * <p>Once a second, on the engine's scheduler: steered, the first loop is behind when it read
 * {@value #FULL_READS_TO_SPREAD} whole batches within the second (thousands of datagrams waiting
 * behind it, not a collection's pause), or the kernel dropped datagrams on its socket; then the
 * group is spread, and the rate read in that second kept. Spread, it is steered again after
 * {@value #QUIET_SECONDS} seconds in a row with no whole batch on any loop and less than half that
 * rate over the group. The kernel does the steering (a one-instruction program on the group,
 * {@link UdpEndpoint#steerGroup}); a kernel or a read path that cannot leaves the spreading as it was.
 *
 * <p>Concurrency: the ticks run on the scheduler's thread, the only one that writes here; the
 * loops' counters are read as they stand ({@link UdpEndpoint#reads}).
 */
final class ReadSteering {

    /** Whole batches in one second that mean the first loop is behind. */
    static final int FULL_READS_TO_SPREAD = 16;
    /** Quiet seconds in a row before the datagrams go to the first loop again. */
    static final int QUIET_SECONDS = 10;

    private final UdpEndpoint[] endpoints;
    private final String label;
    private final Scheduler.Cancellable timer;
    private final long[] read;
    private final long[] full;
    private long drops;
    private boolean steered;
    private long spreadAt;
    private int quiet;
    private volatile String state;

    private ReadSteering(UdpEndpoint[] endpoints, Scheduler scheduler, String label) {
        this.endpoints = endpoints;
        this.label = label;
        this.read = new long[endpoints.length];
        this.full = new long[endpoints.length];
        this.steered = true;
        this.drops = endpoints[0].receiveDrops();
        for (int i = 0; i < endpoints.length; i++) {
            long[] r = endpoints[i].reads();
            read[i] = r[0];
            full[i] = r[1];
        }
        this.state = "1 of " + endpoints.length + " loops reading (steered while it keeps up)";
        this.timer = scheduler.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Steers {@code endpoints}' datagrams to the first one and starts watching; null when there
     * is nothing to steer (one socket) or it cannot be done (the reason is logged once).
     */
    static ReadSteering start(UdpEndpoint[] endpoints, Scheduler scheduler, String label) {
        if (endpoints.length < 2) {
            return null;
        }
        for (UdpEndpoint e : endpoints) {
            if (e.reads() == null) {
                return null; // read by Netty (--udp-reads netty): the kernel spreads, as it always did
            }
        }
        String why = endpoints[0].steerGroup(true);
        if (why != null) {
            UdpSetup.LOG.log(Level.INFO, "PVA: the datagrams to " + label + " stay spread over its "
                    + endpoints.length + " loops: " + why);
            return null;
        }
        UdpSetup.LOG.log(Level.INFO, "PVA: the datagrams to " + label + " go to one of its " + endpoints.length
                + " loops while it keeps up");
        return new ReadSteering(endpoints, scheduler, label);
    }

    /** How the address is read now. */
    String state() {
        return state;
    }

    void close() {
        timer.cancel();
    }

    /** Once a second. */
    void tick() {
        long total = 0;
        long wholeBatches = 0;
        long firstWhole = 0;
        for (int i = 0; i < endpoints.length; i++) {
            long[] r = endpoints[i].reads();
            total += r[0] - read[i];
            wholeBatches += r[1] - full[i];
            if (i == 0) {
                firstWhole = r[1] - full[i];
            }
            read[i] = r[0];
            full[i] = r[1];
        }
        long d = endpoints[0].receiveDrops();
        boolean dropped = d > drops && drops >= 0;
        drops = d;
        if (steered) {
            if (firstWhole >= FULL_READS_TO_SPREAD || dropped) {
                steer(false, total, dropped ? "the kernel dropped datagrams on its socket"
                        : firstWhole + " whole batches in a second");
            }
            return;
        }
        quiet = wholeBatches == 0 && total < spreadAt / 2 ? quiet + 1 : 0;
        if (quiet >= QUIET_SECONDS) {
            steer(true, total, total + " datagrams a second");
        }
    }

    private void steer(boolean first, long rate, String why) {
        String failed = endpoints[0].steerGroup(first);
        if (failed != null) {
            UdpSetup.LOG.log(Level.WARNING, "PVA: the datagrams to " + label + " could not be "
                    + (first ? "steered to one loop" : "spread over its loops") + ": " + failed);
            return;
        }
        steered = first;
        quiet = 0;
        if (!first) {
            spreadAt = Math.max(rate, 1);
        }
        state = first ? "1 of " + endpoints.length + " loops reading (steered while it keeps up)"
                : endpoints.length + " loops reading";
        UdpSetup.LOG.log(Level.INFO, "PVA: the datagrams to " + label + (first ? " go to one loop again ("
                : " are spread over its " + endpoints.length + " loops (the first is behind: ") + why + ")");
    }
}
