package lookout.engine.pva.pvserve;

import java.util.BitSet;

/**
 * The flow of one MONITOR subscription (PVXS {@code servermon.cpp}): started or stopped by the
 * client, and, with {@code record._options.pipeline=true}, a window of updates the client has room
 * for — opened by the INIT's {@code nfree}, one spent per update sent, reopened by each ack.
 * Updates that cannot go now (stopped, window closed, connection backed up) are not queued: the
 * changed fields are merged into one pending update, sent whole from the newest value when the
 * way opens; a field that changed again meanwhile is reported in the overrun bit set. So a
 * subscription holds at most one update, whatever the client does.
 *
 * <p>Fields are top-level member indices of the PV's structure. Pure, no clock; confined to the
 * engine loop.
 */
final class MonitorFlow {

    /** Credits beyond this are clamped (a client acking without bound gains nothing). */
    static final long MAX_WINDOW = 1 << 20;

    private final boolean pipeline;
    private long window;
    private boolean running;
    private final BitSet pending = new BitSet();
    private final BitSet overrun = new BitSet();

    MonitorFlow(boolean pipeline, long nfree) {
        this.pipeline = pipeline;
        this.window = Math.max(0, Math.min(nfree, MAX_WINDOW));
    }

    boolean pipeline() {
        return pipeline;
    }

    long window() {
        return window;
    }

    boolean running() {
        return running;
    }

    /** START: the whole value goes first (PVXS posts the first update whole). */
    void start(BitSet everything) {
        if (!running) {
            running = true;
            offer(everything);
        }
    }

    /** STOP: nothing is sent until the next START, which sends the value whole again. */
    void stop() {
        running = false;
        pending.clear();
        overrun.clear();
    }

    /** An ack of {@code n} updates (pipeline only; ignored otherwise, as PVXS does). */
    void ack(long n) {
        if (pipeline && n > 0) {
            window = Math.min(MAX_WINDOW, window + n);
        }
    }

    /** Fields changed in the published value; merged with what is pending. */
    void offer(BitSet changed) {
        if (!running) {
            return;
        }
        BitSet again = (BitSet) changed.clone();
        again.and(pending);
        overrun.or(again);
        pending.or(changed);
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** True when an update may be sent now (as far as this subscription is concerned). */
    boolean open() {
        return running && !pending.isEmpty() && (!pipeline || window > 0);
    }

    /** Takes the pending fields (and the overrun ones, into {@code overrunOut}) for one update. */
    BitSet take(BitSet overrunOut) {
        BitSet out = (BitSet) pending.clone();
        overrunOut.clear();
        overrunOut.or(overrun);
        pending.clear();
        overrun.clear();
        if (pipeline) {
            window--;
        }
        return out;
    }
}
